@testable import Ferry
import FerryPostgres
import FerryTestSupport
import Foundation
import Testing

/// A fleet worker opens its next store while the current one loads (`PostgresOpenedStore`); the
/// store file must not change between that opening and the end of its read.
@Suite("a store opened ahead of its load", .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
struct PostgresOpenedStoreTests {
    @Test("a store whose file changed after it was opened fails its load, and nothing of it is kept")
    func changedAfterOpening() throws {
        let folder = try TestPaths.temporaryFolder("pg-opened-ahead")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let uri = try PostgresTestSupport.database()
        let opened = try PostgresOpenedStore(path: store, bundle: ExportModelSource.Bundle(path: model))
        // A later modification time, as a checkpoint by another process would leave.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: store)
        let session = PostgresSession(target: try ConnectionTarget(uri))
        defer { session.discard() }
        let load = PostgresStoreLoad(opened: opened, source: store, session: session, schema: "ferry", replace: false, verify: true)
        #expect {
            _ = try load.run()
        } throws: { error in
            guard case .export(.changedWhileReading)? = error as? PostgresTransferError else { return false }
            return true
        }
        #expect(try !PostgresTestSupport.holdsSchema(uri))
        // Opened again, it loads (on the session discarded after the failure, as the job does).
        session.discard()
        let reopened = try PostgresOpenedStore(path: store, bundle: ExportModelSource.Bundle(path: model))
        _ = try PostgresStoreLoad(opened: reopened, source: store, session: session, schema: "ferry", replace: false, verify: true).run()
        #expect(try PostgresTestSupport.query(uri, "SELECT count(*) FROM ferry.ferry_stores") == [["1"]])
    }
}
