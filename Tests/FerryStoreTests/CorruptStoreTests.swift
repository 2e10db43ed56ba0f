import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// Bad input gets a typed error naming the file, never a crash.
@Suite struct CorruptStoreTests {
    private func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func missingEmptyAndForeignFiles() throws {
        let folder = try TestPaths.temporaryFolder("reader-bad")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = folder + "/missing.sqlite"
        let error = try #require(throws: StoreReaderError.self) { try CoreDataStoreReader(path: missing) }
        guard case .cannotOpen(let path, _) = error else { Issue.record("unexpected \(error)"); return }
        #expect(path == missing)

        let empty = folder + "/empty.sqlite"
        try write([], to: empty)
        #expect(throws: StoreReaderError.notSQLite(path: empty, reason: "the file is empty")) { try CoreDataStoreReader(path: empty) }
        #expect(throws: StoreReaderError.notSQLite(path: empty, reason: "the file is empty")) { try PlainSQLiteReader(path: empty) }

        let text = folder + "/notes.sqlite"
        try write(Array("Z_PK,Z_ENT\n1,2\n".utf8), to: text)
        #expect(throws: StoreReaderError.notSQLite(path: text, reason: "the file does not start with \"SQLite format 3\"")) {
            try CoreDataStoreReader(path: text)
        }
        // A header alone, then garbage: SQLite itself reports what is wrong.
        let garbage = folder + "/garbage.sqlite"
        try write(Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0xA5, count: 4096), to: garbage)
        let garbageError = try #require(throws: StoreReaderError.self) { try CoreDataStoreReader(path: garbage) }
        #expect(garbageError.path == garbage)
        #expect(garbageError.description.hasPrefix(garbage))
    }

    /// Found by a hostile run on live stores: after a checkpoint that a reader's snapshot cut short,
    /// SQLite has written page 1 (with the grown page count) while the newest copies of the last
    /// pages are still only in the `-wal`, which SQLite reads. Every verb refused such a store (a
    /// crashed app leaves it) as truncated; a file without its log that is short is still refused.
    @Test func aWALStoreWhoseLastPagesAreInTheLogIsReadButATruncatedFileIsNot() throws {
        let folder = try TestPaths.temporaryFolder("reader-partial-checkpoint")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/partial.sqlite"
        let rows = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 200) INSERT INTO Item (y, z) SELECT n, printf('%0100d', n) FROM c"
        let writer = try SQLiteDatabase(path: path, mode: .create)
        try writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE Item (id INTEGER PRIMARY KEY, y INTEGER, z TEXT)")
        try writer.execute(rows + "; PRAGMA wal_checkpoint(TRUNCATE)")
        try writer.execute(rows)
        let reader = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try reader.scalarInteger("SELECT count(*) FROM Item") == 400)
        // The rows just added change their pages again, past the reader's snapshot.
        try writer.execute("UPDATE Item SET y = y + 1 WHERE id > 200; PRAGMA wal_checkpoint(PASSIVE)")
        try reader.close()
        writer.keepsWriteAheadLogOnClose()
        try writer.close()
        let header = try Array(Data(contentsOf: URL(fileURLWithPath: path)).prefix(100))
        let promised = header[28..<32].reduce(0) { $0 << 8 | Int($1) } * 4096
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try #require(size < promised, "the state was not reached: \(size) bytes, \(promised) promised")
        #expect(try PlainSQLiteReader(path: path).count(for: "Item") == 400)
        // The file alone, its log gone, is the truncated database it looks like.
        try FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        let error = try #require(throws: StoreReaderError.self) { try PlainSQLiteReader(path: path) }
        #expect(error.description.contains("the header promises"), "\(error)")
    }

    /// Found by fuzzing (Fuzz/crashes/store): a Z_PRIMARYKEY that lists a number twice trapped
    /// `ferry inspect` building a dictionary by entity number.
    @Test func anEntityNumberOrNameListedTwiceIsRefused() throws {
        let folder = try TestPaths.temporaryFolder("reader-twice")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (rows, reason) in [("(1, 'A', 0, 0), (1, 'B', 0, 0)", "Z_PRIMARYKEY lists entity number 1 twice"),
                               ("(1, 'A', 0, 0), (2, 'A', 0, 0)", "Z_PRIMARYKEY lists entity A twice")] {
            let path = folder + "/twice-\(reason.count).sqlite"
            let database = try SQLiteDatabase(path: path, mode: .create)
            try database.execute("""
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                INSERT INTO Z_PRIMARYKEY VALUES \(rows);
                """)
            try database.close()
            // SQLite reads it soundly: the bookkeeping contradicts itself, not "truncated or corrupt".
            #expect(throws: StoreReaderError.inconsistentBookkeeping(path: path, reason: reason)) { try CoreDataStoreReader(path: path) }
        }
    }

    /// Found by review: a table rebuilt without `Z_PK INTEGER PRIMARY KEY` held one key twice, and
    /// export and backup wrote both rows as one object's.
    @Test func aTableWhoseKeysMayRepeatIsRefused() throws {
        let folder = try TestPaths.temporaryFolder("reader-keys")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let model = ManagedObjectModel(name: "M", entities: [Entity(name: "Note", attributes: [Attribute(name: "title", type: .string)])])
        let path = folder + "/Notes.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                    versionIdentifiers: [])
        let inserter = try writer.inserter(for: "Note")
        var row = [StoreValue](repeating: .null, count: inserter.columns.count)
        row[try #require(inserter.columnIndex(named: "ZTITLE"))] = .text("a")
        try inserter.insert(row)
        try writer.finish()
        #expect(try CoreDataStoreReader(path: path).records(model: model).records(of: "Note").next() != nil)
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute("""
            ALTER TABLE ZNOTE RENAME TO OLD;
            CREATE TABLE ZNOTE (Z_PK INTEGER, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
            INSERT INTO ZNOTE SELECT Z_PK, Z_ENT, Z_OPT, ZTITLE FROM OLD;
            INSERT INTO ZNOTE SELECT Z_PK, Z_ENT, Z_OPT, 'b' FROM OLD;
            CREATE TABLE INTKEY (Z_PK INT PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
            """)
        try database.close()
        #expect(throws: StoreReaderError.keyNotRowID(path: path, table: "ZNOTE", reason: "Z_PK is not its primary key, so two rows may share a key")) {
            try CoreDataStoreReader(path: path).records(model: model)
        }
        // INT PRIMARY KEY is unique but no row ID (a key may be NULL): named as such, not as damage.
        let database2 = try SQLiteDatabase(path: path, mode: .readWrite)
        try database2.execute("DROP TABLE ZNOTE; ALTER TABLE INTKEY RENAME TO ZNOTE; INSERT INTO ZNOTE SELECT * FROM OLD; DROP TABLE OLD")
        try database2.close()
        let error = try #require(throws: StoreReaderError.self) { try CoreDataStoreReader(path: path).records(model: model) }
        #expect(error.description.hasSuffix("table ZNOTE: Z_PK is declared INT PRIMARY KEY, which is no row ID: a key may be NULL or not an integer; "
            + "Core Data declares Z_PK INTEGER PRIMARY KEY, its row ID"), "\(error)")
    }

    @Test(.enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func truncatedCopies() throws {
        let folder = try TestPaths.temporaryFolder("reader-truncated")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = try TestPaths.read(CorpusStores.path(CorpusStores.xcServer201.store))
        let half = folder + "/half.sqlite"
        try write(Array(bytes.prefix(bytes.count / 2)), to: half)
        let error = try #require(throws: StoreReaderError.self) { try CoreDataStoreReader(path: half) }
        guard case .corrupt(let path, let reason) = error else { Issue.record("unexpected \(error)"); return }
        #expect(path == half)
        #expect(reason.contains("pages of 4096 bytes"))
        let stub = folder + "/stub.sqlite"
        try write(Array(bytes.prefix(60)), to: stub)
        #expect(throws: StoreReaderError.corrupt(path: stub, reason: "the file is 60 bytes, shorter than the 100-byte header")) {
            try CoreDataStoreReader(path: stub)
        }
    }

    @Test(.enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func missingBookkeepingAndEntityTables() throws {
        let folder = try TestPaths.temporaryFolder("reader-dropped")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (store, modelPath) = CorpusStores.withModels[2]
        let model = try XcodeModelLoader.loadModel(at: CorpusStores.path(modelPath))
        let noMetadata = folder + "/no-metadata.sqlite"
        let noPost = folder + "/no-post.sqlite"
        for (path, sql) in [(noMetadata, "DROP TABLE Z_METADATA"), (noPost, "DROP TABLE ZPOST")] {
            try write(try TestPaths.read(CorpusStores.path(store)), to: path)
            let database = try SQLiteDatabase(path: path, mode: .readWrite)
            try database.execute(sql)
            try database.close()
        }
        #expect(throws: StoreReaderError.notCoreDataStore(path: noMetadata, missingTables: ["Z_METADATA"])) {
            try CoreDataStoreReader(path: noMetadata)
        }
        let reader = try CoreDataStoreReader(path: noPost)
        #expect(throws: StoreReaderError.missingTable(path: noPost, table: "ZPOST", owner: "entity Post")) {
            try reader.records(model: model)
        }
        #expect(throws: StoreReaderError.missingTable(path: noPost, table: "ZPOST", owner: "entity Post")) {
            try reader.count(for: "Post")
        }
        let plain = try PlainSQLiteReader(path: noPost)
        #expect(plain.tables.map(\.table).contains("ZCOLOR"))
    }

    /// Copies of a corpus store with random pages overwritten by garbage (fixed seeds): opening
    /// and reading everything, as a Core Data store and as a plain database, must end in records
    /// or typed errors, never a crash or a hang.
    @Test(.enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func overwrittenPagesNeverCrash() throws {
        let folder = try TestPaths.temporaryFolder("reader-fuzz")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (store, modelPath) = CorpusStores.xcServer201
        let model = try XcodeModelLoader.loadModel(at: CorpusStores.path(modelPath))
        let original = try TestPaths.read(CorpusStores.path(store))
        let pageSize = 4096
        let pages = original.count / pageSize
        var failures = 0
        var recordsRead = 0
        for seed in 1...50 {
            var random = SplitMix64(seed: UInt64(seed))
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let page = Int(random.next() % UInt64(pages))
                let start = page * pageSize + (page == 0 ? 100 : 0)
                let length = Int(random.next() % UInt64(pageSize - 100)) + 1
                for offset in start..<min(start + length, bytes.count) { bytes[offset] = UInt8(truncatingIfNeeded: random.next()) }
            }
            let path = folder + "/fuzz-\(seed).sqlite"
            try write(bytes, to: path)
            let (read, failed) = readEverything(path: path, model: model)
            recordsRead += read
            failures += failed
            try FileManager.default.removeItem(atPath: path)
        }
        #expect(failures > 0, "garbage pages should be noticed somewhere")
        #expect(recordsRead > 0)
    }

    /// Reads every entity and relationship; returns records read and errors met.
    private func readEverything(path: String, model: ManagedObjectModel) -> (records: Int, errors: Int) {
        var records = 0
        var errors = 0
        do {
            let reader = try CoreDataStoreReader(path: path)
            let bound = try reader.records(model: model)
            for entity in model.entities {
                _ = try? bound.count(for: entity.name)
                if let cursor = try? bound.records(of: entity.name) { drain({ () throws(StoreReaderError) in try cursor.next() != nil }, &records, &errors) }
                for relationship in entity.relationships {
                    guard let edges = try? bound.edges(of: relationship.name, of: entity.name) else { errors += 1; continue }
                    drain({ () throws(StoreReaderError) in try edges.next() != nil }, &records, &errors)
                }
            }
        } catch {
            #expect(error.path == path)
            errors += 1
        }
        do {
            let plain = try PlainSQLiteReader(path: path)
            for table in plain.tables {
                if let cursor = try? plain.records(of: table.entity) { drain({ () throws(StoreReaderError) in try cursor.next() != nil }, &records, &errors) }
            }
        } catch {
            #expect(error.path == path)
            errors += 1
        }
        return (records, errors)
    }

    /// Steps a cursor to its end: row-level errors are counted and skipped, others end it.
    private func drain(_ step: () throws(StoreReaderError) -> Bool, _ records: inout Int, _ errors: inout Int) {
        while true {
            do {
                guard try step() else { return }
                records += 1
            } catch {
                errors += 1
                guard case .invalidValue = error else { return }
            }
        }
    }
}

/// A small deterministic generator for reproducible garbage.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
