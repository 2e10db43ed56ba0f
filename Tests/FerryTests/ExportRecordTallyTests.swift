@testable import Ferry
import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// Export files are counted by a scanner of their own, and manifests name only files of their
/// folder.
@Suite("export files counted independently")
struct ExportRecordTallyTests {
    private func write(_ text: String, _ name: String) throws -> String {
        let path = try TestPaths.temporaryFolder("tally") + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("NDJSON lines, CSV records with quoted line breaks, JSON array elements with brackets in strings")
    func shapes() throws {
        #expect(try ExportRecordTally.count(FileByteSource(path: write("{\"a\":\"x\\ny\"}\n\n{\"a\":2}\n{\"a\":3}", "a.ndjson")), format: .ndjson) == 3)
        #expect(try ExportRecordTally.count(FileByteSource(path: write("id,note\r\n1,\"two\nlines, \"\"quoted\"\"\"\r\n2,中文\r\n", "a.csv")), format: .csv) == 2)
        #expect(try ExportRecordTally.count(FileByteSource(path: write("id\n", "empty.csv")), format: .csv) == 0)
        #expect(try ExportRecordTally.count(FileByteSource(path: write(#"[{"a":"]}[,"},{"b":[1,2]} , {"c":{"d":"\"]"}}]"#, "a.json")), format: .json) == 3)
        #expect(try ExportRecordTally.count(FileByteSource(path: write("[]", "e.json")), format: .json) == 0)
        #expect(try ExportRecordTally.count(FileByteSource(path: write("<plist><array><dict/><dict><key>a</key><array/></dict></array></plist>", "a.plist")),
                                            format: .plist) == 2)
        #expect(throws: ExportRecordTally.Malformed.self) { try ExportRecordTally.count(FileByteSource(path: write("id\n\"open", "open.csv")), format: .csv) }
    }

    @Test("every format's files of a real export count as their manifest says", arguments: ExportFormat.allCases)
    func realExport(_ format: ExportFormat) throws {
        let folder = try TestPaths.temporaryFolder("tally-export")
        let store = try ExportTestSupport.workspace2Store(folder)
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", format: format,
                                                            gzipLevel: 6)).run()
        #expect(manifest.entities.contains { $0.count > 0 })
        for entry in manifest.entities {
            #expect(try ExportRecordTally.count(FileByteSource(path: folder + "/out/" + entry.file), format: format) == entry.count, "\(entry.file)")
        }
    }

    @Test("a manifest naming a file outside its folder, or a link, is refused")
    func manifestNames() throws {
        let folder = try TestPaths.temporaryFolder("tally-escape")
        let store = try ExportTestSupport.workspace2Store(folder)
        let out = folder + "/out"
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: out, format: .ndjson)).run()
        let entry = try #require(manifest.entities.first)
        try FileManager.default.createDirectory(atPath: folder + "/outside", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: out + "/" + entry.file, toPath: folder + "/outside/" + entry.file)
        var escaping = manifest
        escaping.entities[0].file = "../outside/" + entry.file
        // The manifest writer creates its file exclusively: the old one goes first.
        try FileManager.default.removeItem(atPath: out + "/" + ExportManifest.fileName)
        try ManifestFile.write(escaping, to: out + "/" + ExportManifest.fileName, durable: false)
        let error = try #require(throws: ExportError.self) { try ExportVerifier.verify(folder: out, countRecords: true) }
        #expect(error.description.contains("not a file name inside the folder"))
        try FileManager.default.createSymbolicLink(atPath: out + "/" + entry.file, withDestinationPath: folder + "/outside/" + entry.file)
        try FileManager.default.removeItem(atPath: out + "/" + ExportManifest.fileName)
        try ManifestFile.write(manifest, to: out + "/" + ExportManifest.fileName, durable: false)
        let linked = try #require(throws: ExportError.self) { try ExportVerifier.verify(folder: out, countRecords: true) }
        #expect(linked.description.contains("symbolic link"))
    }
}
