import Ferry
import FerryMigration
import FerryTestSupport
import Foundation
import Testing

/// Long jobs say which phase they are in and how far, for the progress line.
@Suite("job progress")
struct JobProgressTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    @Test("a migration reports reading each source, resolving links and verifying, in order")
    func migratePhases() throws {
        let folder = try TestPaths.temporaryFolder("progress")
        var request = MigrateRequest(sources: [MigrationSource(argument: "UploadEntity:" + TestPaths.fixtures + "/legacy/uploads.csv"),
                                               MigrationSource(argument: "Task:" + TestPaths.fixtures + "/legacy/tasks.json")],
                                     modelPath: workspace, outputPath: folder + "/out.sqlite")
        request.variables = ["zone": "UTC"]
        request.files.linkAttributes = ["attachments": "remotePath", "tags": "name"]
        var phases: [String] = []
        _ = try MigrateJob(request: request).run { progress in
            if phases.last != progress.phase { phases.append(progress.phase) }
        }
        #expect(phases == ["reading \(TestPaths.fixtures)/legacy/uploads.csv", "reading \(TestPaths.fixtures)/legacy/tasks.json",
                           "resolving links", "verifying"])
    }

    @Test("an import reports how many records it read, and a store's total rows are known before it is read")
    func importCounts() throws {
        let folder = try TestPaths.temporaryFolder("progress-import")
        let store = folder + "/uploads.sqlite"
        var reports: [JobProgress] = []
        _ = try ImportJob(request: ImportRequest(sources: [TestPaths.fixtures + "/legacy/uploads.csv"], modelPath: workspace,
                                                 modelVersion: "Workspace 1", entity: "UploadEntity", outputPath: store)).run { reports.append($0) }
        #expect(reports.first?.phase.hasPrefix("reading ") == true && reports.last?.phase == "verifying")
        var totals: [Int?] = []
        _ = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: workspace,
                                                   outputPath: folder + "/out.sqlite")).run { totals.append($0.total) }
        #expect(totals.first == 31)
    }

    @Test("an export reports each hierarchy it reads with the rows the census counted, and ends each with all of them")
    func exportPhases() throws {
        let folder = try TestPaths.temporaryFolder("progress-export")
        let store = try ExportTestSupport.workspace2Store(folder)
        var reports: [JobProgress] = []
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out")).run { reports.append($0) }
        let uploads = reports.filter { $0.phase == "exporting Upload" }
        // The census counts on another connection meanwhile: reports wait for its total.
        #expect(!uploads.isEmpty && uploads.allSatisfy { $0.total == 49 })
        #expect(uploads.last?.done == 49)
        #expect(Set(reports.map(\.phase)).isSuperset(of: ["exporting Upload", "exporting Task", "exporting Tag"]))
    }
}
