import FerryFormats
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// A store named through a symbolic link is the file the link leads to, with the `-wal` beside
/// that file (where SQLite and Core Data keep it). Ferry looked for it beside the link, found
/// none, and read the bare file immutable: rows committed in the log were not there, and a store
/// damaged in its log verified.
@Suite struct ReadOnlyLinkTests {
    @Test func aLinkIsReadWithTheLogBesideItsTarget() throws {
        let folder = try TestPaths.temporaryFolder("read-only-link")
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/link", withIntermediateDirectories: true)
        let building = folder + "/building.sqlite"
        let database = try SQLiteDatabase(path: building, mode: .create)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        try database.execute("CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZNAME VARCHAR)")
        try database.execute("INSERT INTO ZTHING VALUES (1, 1, 'a'), (2, 1, 'b'), (3, 1, 'c')")
        // The file and its log as a crash leaves them (closing would move the log into the file).
        try FileManager.default.copyItem(atPath: building, toPath: folder + "/real/store.sqlite")
        try FileManager.default.copyItem(atPath: building + "-wal", toPath: folder + "/real/store.sqlite-wal")
        try database.close()
        try FileManager.default.createSymbolicLink(atPath: folder + "/link/store.sqlite", withDestinationPath: "../real/store.sqlite")

        let throughLink = try SQLiteDatabase(path: folder + "/link/store.sqlite", mode: .readOnly)
        #expect(try throughLink.scalarInteger("SELECT count(*) FROM ZTHING") == 3)
        #expect(throughLink.pagesFile == nil, "the rows are in the log: the file's pages alone are not the store")
        #expect(FileInfo.size(atPath: folder + "/real/store.sqlite-wal") ?? 0 > 0, "the source is left as it was")
    }
}
