@testable import Ferry
import FerryFormats
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// A store another process writes is exported (and backed up) from a copy of one committed
/// state of it in a scratch folder; the manifest's facts of the store's files (`walBytes`,
/// `liveConnection`, `changeCounter`, `fileStamp`) were the copy's: no `-wal`, no connection, the
/// stamp of a scratch file that is gone when the run ends. They are the store's, as the copy was made.
@Suite("a manifest read from a copy describes the store the user has")
struct CopiedStoreManifestTests {
    @Test("the -wal bytes, live connection, change counter and file stamp of a WAL store an app holds, not of the copy read")
    func walStoreReadFromACopy() throws {
        let folder = try TestPaths.temporaryFolder("copied-store-manifest")
        let store = try ExportTestSupport.workspace2Store(folder)
        // An app holds the store in WAL mode, its last commit still in the -wal (no checkpoint).
        let app = try SQLiteDatabase(path: store, mode: .readWrite)
        defer { try? app.close() }
        try app.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; UPDATE ZTAG SET ZNAME = ZNAME || '!'")
        let walBytes = try #require(try FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? Int)
        #expect(walBytes > 0)
        let header = try TestPaths.read(store).prefix(28)
        let changeCounter = header.suffix(4).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let stamp = try CoreDataStoreReader(path: store).openingStamp

        let scratch = try ScratchFolder.make(purpose: "test")
        defer { scratch.remove() }
        var request = ExportRequest(storePath: store, outputFolder: folder + "/out")
        request.copyToRead = try CommittedStoreCopy.make(of: store, in: scratch)
        let state = try ExportJob(request: request).run().state
        #expect(state.walBytes == Int64(walBytes))
        #expect(state.liveConnection)
        #expect(state.changeCounter == changeCounter)
        #expect(state.fileStamp != nil && state.fileStamp == stamp)
        #expect(state.journalMode == "wal")
        #expect(state.primaryKeyMaxima["Tag"] == 9)
    }
}
