@testable import Ferry
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerify
import FerryVerifyTestSupport
import Foundation
import Testing

/// Values belong to an object: two objects of a migrated store that swapped their values, their
/// relationships staying with their `Z_PK`, once passed `verify --against` both ways, because
/// record fingerprints were taken over values alone. They are now taken over each record's `Z_PK`
/// too (`RecordKeying`).
@Suite("verify --against ties values to their objects")
struct ObjectValuesVerificationTests {
    @Test("a migrated store whose two uploads swapped their values fails, by its receipt and migrating again; its pairs still pass")
    func swappedValuesFail() throws {
        let folder = try TestPaths.temporaryFolder("swapped-against")
        let source = try ExportTestSupport.workspace2Store(folder)
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: ExportTestSupport.workspace,
                                     outputPath: folder + "/Workspace3.sqlite", variables: ["zone": "UTC"])
        let summary = try MigrateJob(request: request).run()
        #expect(summary.verification?.passed == true, "\(summary.verification?.failures ?? [])")
        #expect(try SourceVerification.verify(store: request.outputPath, against: request).passed)

        // The first upload and the last, attached to different tasks.
        let rows = try storeRows(request.outputPath, "SELECT min(Z_PK) || '|' || max(Z_PK) FROM ZUPLOAD")[0].split(separator: "|").compactMap { Int64($0) }
        let tasks = try storeRows(request.outputPath, "SELECT coalesce(ZTASK, 0) FROM ZUPLOAD WHERE Z_PK IN (\(rows[0]), \(rows[1])) ORDER BY Z_PK")
        #expect(Set(tasks).count == 2, "\(tasks)")
        let model = try #require(try XcodeModelLoader.loadBundle(at: ExportTestSupport.workspace).version(named: "Workspace 3"))
        let database = try SQLiteDatabase(path: request.outputPath, mode: .readWrite)
        try database.execute(VerifyStores.swapSQL(table: "ZUPLOAD", columns: VerifyStores.attributeColumns(of: "Upload", in: model),
                                                  rows: rows[0], rows[1]))
        try database.close()

        for rerun in [false, true] {
            let report = try SourceVerification.verify(store: request.outputPath, against: request, rerun: rerun)
            #expect(!report.passed, "rerun: \(rerun)")
            let against = try #require(report.section(named: "against sources"))
            #expect(against.failures.map { "\($0.check) \($0.subject)" } == ["fingerprint-mismatch Upload"], "rerun: \(rerun)")
            // The pairs are where they were: only what each object holds moved.
            #expect(report.section(named: "pairs against sources")?.failures.isEmpty == true)
        }
    }
}
