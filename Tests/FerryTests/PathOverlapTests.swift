import Ferry
import FerryTestSupport
import Foundation
import Testing

/// An output that is one of the run's inputs (by any spelling, through links) is refused before
/// anything is opened: the input is never truncated.
@Suite("outputs that are inputs")
struct PathOverlapTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    /// A private copy of the uploads fixture, and its bytes.
    private func source(_ folder: String) throws -> (path: String, bytes: Data) {
        let path = folder + "/uploads.csv"
        try FileManager.default.copyItem(atPath: TestPaths.fixtures + "/legacy/uploads.csv", toPath: path)
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("import --rejects naming its own source, directly or through a link, is refused and the source is untouched")
    func importRejectsIsSource() throws {
        let folder = try TestPaths.temporaryFolder("overlap-import")
        let (path, bytes) = try source(folder)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.csv", withDestinationPath: path)
        for rejects in [path, folder + "/./uploads.csv", folder + "/link.csv"] {
            var request = ImportRequest(sources: [path], modelPath: workspace, modelVersion: "Workspace 1", entity: "UploadEntity",
                                        outputPath: folder + "/out.sqlite")
            request.rejectLogPath = rejects
            let error = try #require(throws: ImportError.self) { try ImportJob(request: request).run() }
            guard case .outputIsInput(let output, let input) = error else {
                Issue.record("\(error)")
                continue
            }
            #expect(output == rejects && input == path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }

    @Test("migrate --out or --rejects naming a source is refused and the source is untouched")
    func migrateOutputIsSource() throws {
        let folder = try TestPaths.temporaryFolder("overlap-migrate")
        let (path, bytes) = try source(folder)
        var toSource = MigrateRequest(sources: [MigrationSource(argument: "UploadEntity:" + path)], modelPath: workspace,
                                      outputPath: path, replaceExisting: true)
        toSource.variables = ["zone": "UTC"]
        #expect(throws: MigrateError.self) { try MigrateJob(request: toSource).run() }
        var rejects = toSource
        rejects.outputPath = folder + "/out.sqlite"
        rejects.rejectLogPath = path
        #expect(throws: MigrateError.self) { try MigrateJob(request: rejects).run() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }
}
