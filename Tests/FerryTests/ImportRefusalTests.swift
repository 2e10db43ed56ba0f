import Ferry
import FerryMigration
import FerryTestSupport
import Foundation
import Testing

/// Sources that would silently become wrong records are refused before anything is written.
@Suite("import refuses sources that would make wrong records")
struct ImportRefusalTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    private func importing(_ path: String, entity: String = "UploadEntity", version: String = "Workspace 1",
                           out: String) -> ImportRequest {
        ImportRequest(sources: [path], modelPath: workspace, modelVersion: version, entity: entity, outputPath: out)
    }

    @Test("a JSON file none of whose keys matches an attribute is refused, naming its keys (it wrote all-nil rows)")
    func noMatchingJSONKey() throws {
        let folder = try TestPaths.temporaryFolder("nokeys")
        let path = folder + "/orders.json"
        try Data(#"[{"orderNo": 1, "customer": "张伟"}, {"orderNo": 2, "customer": "李娜"}]"#.utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportJob(request: importing(path, out: folder + "/out.sqlite")).run() }
        #expect(error.description.contains("none of its keys ('orderNo', 'customer') matches an attribute or relationship of UploadEntity"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }

    @Test("a CSV header none of whose columns matches is refused at line 1")
    func noMatchingCSVColumn() throws {
        let folder = try TestPaths.temporaryFolder("nocolumns")
        let path = folder + "/orders.csv"
        try Data("orderNo;customer\n1;张伟\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportJob(request: importing(path, out: folder + "/out.sqlite")).run() }
        #expect(error.description.contains(":1: none of the columns"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }

    @Test("a file of Ferry's own export with relationships is refused with a pointer to restore (it made fake Tasks)")
    func ownExport() throws {
        let folder = try TestPaths.temporaryFolder("own-export")
        let store = try ExportTestSupport.workspace2Store(folder)
        let exported = folder + "/export"
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: exported, format: .ndjson)).run()
        let error = try #require(throws: ImportError.self) {
            try ImportJob(request: importing(exported + "/Upload.ndjson", entity: "Upload", version: "Workspace 2",
                                             out: folder + "/out.sqlite")).run()
        }
        #expect(error.description.contains("ferry restore \(exported)"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }
}
