import FerryStore
import FerryTestSupport
import Foundation
import Testing

@Suite("read-only sources are never changed")
struct ReadOnlySourceTests {
    /// Name, size and modification time of every file in a folder.
    private func listing(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { name in
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(name) \(attributes[.size] as? Int ?? -1) \(modified)"
        }
    }

    private var corpusStores: [String] {
        TestPaths.files(under: TestPaths.corpus + "/coredata") { $0.hasSuffix(".sqlite") }
    }

    @Test("reading every corpus store leaves its folder exactly as it was", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func corpusUntouched() throws {
        #expect(corpusStores.count >= 13)
        for store in corpusStores {
            let folder = String(store[..<store.lastIndex(of: "/")!])
            let before = try listing(folder)
            let database = try SQLiteDatabase(path: store, mode: .readOnly)
            #expect(try database.scalarInteger("SELECT count(*) FROM Z_PRIMARYKEY") ?? 0 > 0, "\(store)")
            try database.close()
            #expect(try listing(folder) == before, "\(store) or its folder changed")
        }
    }

    @Test("committed rows that live only in the -wal are read", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func walOnlyRows() throws {
        let store = TestPaths.corpus
            + "/coredata/wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_WAL.sqlite"
        // The main file alone has no posts: copy just it and look.
        let folder = try TestPaths.temporaryFolder("walonly")
        try FileManager.default.copyItem(atPath: store, toPath: folder + "/main.sqlite")
        let mainOnly = try SQLiteDatabase(path: folder + "/main.sqlite", mode: .readOnly)
        #expect(try mainOnly.scalarInteger("SELECT count(*) FROM ZPOST") == 0)
        #expect(try mainOnly.scalarInteger("SELECT max(Z_MAX) FROM Z_PRIMARYKEY") == 0)
        // With its -wal the store holds the committed posts.
        let withWAL = try SQLiteDatabase(path: store, mode: .readOnly)
        let posts = try #require(try withWAL.scalarInteger("SELECT count(*) FROM ZPOST"))
        #expect(posts > 0)
        #expect(try withWAL.scalarInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Post'") ?? 0 >= posts)
    }

    @Test("a store another connection is writing is joined read-only: it reads the rows committed when it opened, one state to the end")
    func liveStore() throws {
        let path = try TestPaths.temporaryFolder("live") + "/live.sqlite"
        let writer = try SQLiteDatabase(path: path, mode: .create)
        try writer.execute("PRAGMA journal_mode=WAL; CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2);")
        let reader = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try reader.scalarInteger("SELECT count(*) FROM t") == 2)
        try writer.execute("INSERT INTO t VALUES (3)")
        #expect(try reader.scalarInteger("SELECT count(*) FROM t") == 2)
        #expect(try SQLiteDatabase(path: path, mode: .readOnly).scalarInteger("SELECT count(*) FROM t") == 3)
        #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (4)") }
    }

    @Test("a stale -shm beside a WAL (no connection holds it) is never rewritten, and the WAL's rows are read")
    func staleSharedMemory() throws {
        let path = try TestPaths.temporaryFolder("stale") + "/stale.sqlite"
        let writer = try SQLiteDatabase(path: path, mode: .create)
        try writer.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2);")
        // Keep the -wal and -shm as a crashed app leaves them: copy them aside while the writer is open.
        let folder = try TestPaths.temporaryFolder("stale-copy")
        let copy = folder + "/stale.sqlite"
        for suffix in ["", "-wal", "-shm"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix) }
        try writer.close()
        // Scribble on the stale -shm: a reader that joined it would have SQLite rebuild it.
        let scribbled = [UInt8](repeating: 0xA5, count: 32_768)
        try Data(scribbled).write(to: URL(fileURLWithPath: copy + "-shm"))
        let before = try listing(folder)
        let reader = try SQLiteDatabase(path: copy, mode: .readOnly)
        #expect(try reader.scalarInteger("SELECT count(*) FROM t") == 2)
        try reader.close()
        #expect(try listing(folder) == before)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: copy + "-shm"))) == scribbled)
    }

    @Test("a second connection reads the same bytes of a store nobody has open or of a private copy, never of a live WAL store")
    func sameBytes() throws {
        let folder = try TestPaths.temporaryFolder("same-bytes")
        let path = folder + "/store.sqlite"
        let writer = try SQLiteDatabase(path: path, mode: .create)
        try writer.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2);")
        #expect(writer.sameBytes == nil)
        // Live: another connection could commit after this one's transaction began.
        #expect(try SQLiteDatabase(path: path, mode: .readOnly).sameBytes == nil)
        // Committed rows only in a -wal nobody holds: read through a private copy, twice.
        let leftover = folder + "/leftover.sqlite"
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + suffix, toPath: leftover + suffix) }
        let snapshot = try SQLiteDatabase(path: leftover, mode: .readOnly)
        let second = try SQLiteDatabase(reopening: try #require(snapshot.sameBytes))
        #expect(try second.scalarInteger("SELECT count(*) FROM t") == 2)
        try writer.close()
        // Nobody has it open: immutable, twice.
        let alone = try SQLiteDatabase(path: path, mode: .readOnly)
        let again = try SQLiteDatabase(reopening: try #require(alone.sameBytes))
        #expect(try again.scalarInteger("SELECT count(*) FROM t") == 2)
        #expect(throws: SQLiteError.self) { try again.execute("INSERT INTO t VALUES (3)") }
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test("a path with spaces, unicode and URI characters opens read-only")
    func awkwardPath() throws {
        let path = try TestPaths.temporaryFolder("uri") + "/my store #1 ?x=%20 中文.sqlite"
        let writer = try SQLiteDatabase(path: path, mode: .create)
        try writer.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (7);")
        try writer.close()
        let reader = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try reader.scalarInteger("SELECT x FROM t") == 7)
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    }
}
