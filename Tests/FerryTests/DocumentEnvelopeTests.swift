import FerryTestSupport
import Foundation
import Testing

/// A JSON export wrapped in an envelope (`{"exportedAt": …, "records": [{…}, {…}]}`) was read as
/// one record: the envelope written, its records dropped, exit 0.
@Suite("documents that hold their records under a key")
struct DocumentEnvelopeTests {
    private let model = ExportTestSupport.workspace

    private func importing(_ name: String, _ text: String, _ options: [String] = []) throws -> (status: Int32, out: String, err: String, store: String) {
        let folder = try TestPaths.temporaryFolder("envelope")
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        let store = folder + "/out.sqlite"
        let run = try FerryProcess.run(["import", folder + "/" + name, "--model", model, "--model-version", "Workspace 1",
                                        "--entity", "UploadEntity", "--out", store] + options)
        return (run.status, run.out, run.err, store)
    }

    private let envelope = #"{"fileName": "envelope", "exportedAt": "2014-01-01", "records": [{"fileName": "a.png"}, {"fileName": "b.png"}, {"fileName": "c.png"}]}"#

    @Test("a JSON object holding an array of objects under a key no attribute matches is refused (exit 3), naming the key and --records-key")
    func jsonEnvelopeRefused() throws {
        let run = try importing("export.json", envelope)
        #expect(run.status == 3, "\(run.out)\(run.err)")
        #expect(run.err.contains("key 'records'") && run.err.contains("holds 3 objects") && run.err.contains("--records-key"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: run.store))
        let keyed = try importing("export.json", envelope, ["--records-key", "records"])
        #expect(keyed.status == 0 && keyed.out.contains("read 3, written 3"), "\(keyed.out)\(keyed.err)")
    }

    @Test("a plist whose root dictionary holds an array of dictionaries under an unmatched key is refused (exit 3)")
    func plistEnvelopeRefused() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>fileName</key><string>envelope</string><key>records</key>
            <array><dict><key>fileName</key><string>a.png</string></dict><dict><key>fileName</key><string>b.png</string></dict></array>
            </dict></plist>
            """
        let run = try importing("export.plist", plist)
        #expect(run.status == 3 && run.err.contains("key 'records'") && run.err.contains("holds 2 objects"), "\(run.out)\(run.err)")
    }

    @Test("one record as one object is still read, an array of scalars under an unknown key does not make it a container")
    func singleRecordStillRead() throws {
        let run = try importing("one.json", #"{"fileName": "a.png", "tags": ["x", "y"], "notes": []}"#)
        #expect(run.status == 0 && run.out.contains("read 1, written 1"), "\(run.out)\(run.err)")
    }
}
