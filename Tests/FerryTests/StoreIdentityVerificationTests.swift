import Ferry
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// A store migrated from a store keeps that store's UUID (the `x-coredata://` URIs an app saved
/// name it), but no fingerprint covers the UUID: `verify --against` once passed a store whose
/// `Z_UUID` was another. It now compares the UUID with the one the sources give.
@Suite("verify --against checks the store's UUID")
struct StoreIdentityVerificationTests {
    @Test("a migrated store whose UUID is not its source store's fails, by its receipt and migrating again")
    func changedUUIDFails() throws {
        let folder = try TestPaths.temporaryFolder("identity-against")
        let source = try ExportTestSupport.workspace2Store(folder)
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: ExportTestSupport.workspace,
                                     outputPath: folder + "/Workspace3.sqlite", variables: ["zone": "UTC"])
        _ = try MigrateJob(request: request).run()
        let intact = try SourceVerification.verify(store: request.outputPath, against: request)
        #expect(intact.passed, "\(intact.sections.flatMap(\.failures))")
        #expect(intact.section(named: "identity against sources")?.checks == 1)

        let database = try SQLiteDatabase(path: request.outputPath, mode: .readWrite)
        try database.execute("UPDATE Z_METADATA SET Z_UUID = '00000000-0000-4000-8000-000000000000'")
        try database.close()
        for rerun in [false, true] {
            let report = try SourceVerification.verify(store: request.outputPath, against: request, rerun: rerun)
            #expect(!report.passed)
            let section = try #require(report.section(named: "identity against sources"))
            #expect(section.failures.map(\.check) == ["store-uuid"], "\(section.failures)")
            let others = report.sections.filter { $0.name != "identity against sources" }.flatMap(\.failures)
            #expect(others.isEmpty, "only the UUID differs: \(others)")
        }
    }
}
