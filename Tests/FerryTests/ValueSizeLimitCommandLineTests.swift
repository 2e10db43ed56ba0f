import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// `--max-value-bytes`: a record holding a larger value is a reject with its file, line and
/// field; the other records are written.
extension CommandLineTests {
    @Test("a CSV field, NDJSON or JSON array value past --max-value-bytes rejects its record with its place")
    func valuesPastTheLimitAreRejects() throws {
        let folder = try TestPaths.temporaryFolder("value-limit")
        let long = String(repeating: "é", count: 200)
        // Each file's second record holds the long value; in a JSON array too the records after
        // it are read (the value is read past, never kept).
        let files: [(name: String, text: String, reject: [String])] = [
            ("uploads.csv", "fileName,time\na.png,1388538000\n\(long).png,1388538001\nc.png,1388538002\n",
             ["reject: \(folder)/uploads.csv:3: UploadEntity.fileName: field 1 is larger than 100 bytes"]),
            ("uploads.ndjson", "{\"fileName\": \"a.png\"}\n{\"fileName\": \"\(long)\"}\n{\"fileName\": \"c.png\"}\n",
             ["uploads.ndjson:2", "longer than 100 bytes"]),
            ("uploads.json", "[{\"fileName\": \"a.png\"},\n {\"fileName\": \"b.png\", \"urlPath\": \"\(long)\"},\n {\"fileName\": \"c.png\"}]",
             ["uploads.json:2 [1]", "longer than 100 bytes", "(column 35)"]),
        ]
        for file in files {
            try file.text.write(toFile: folder + "/" + file.name, atomically: true, encoding: .utf8)
            let store = folder + "/" + file.name + ".sqlite"
            let run = try ferry("import", folder + "/" + file.name, "--model", "Migrations/Workspace.xcdatamodeld", "--model-version", "Workspace 1",
                                "--entity", "UploadEntity", "--out", store, "--max-value-bytes", "100")
            #expect(run.status == 1, "\(file.name): \(run.err)")
            #expect(run.out.hasPrefix("UploadEntity (Workspace 1): read 3, written 2, rejected 1"), "\(file.name): \(run.out)")
            #expect(file.reject.allSatisfy(run.err.contains), "\(file.name): \(run.err)")
            let statement = try SQLiteDatabase(path: store, mode: .readOnly).prepare("SELECT ZFILENAME FROM ZUPLOADENTITY ORDER BY Z_PK")
            var names: [String?] = []
            while try statement.step() { names.append(statement.string(at: 0)) }
            #expect(names == ["a.png", "c.png"], "\(file.name)")
        }

        let tooHigh = try ferry("import", folder + "/uploads.csv", "--model", "Migrations/Workspace.xcdatamodeld", "--entity", "UploadEntity",
                                "--out", folder + "/x.sqlite", "--max-value-bytes", "536870913")
        #expect(tooHigh.status == 2 && tooHigh.err.contains("--max-value-bytes takes a whole number from 1 to 536870912"))
    }
}
