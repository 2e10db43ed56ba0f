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
        try "fileName,time\na.png,1388538000\n\(long).png,1388538001\nc.png,1388538002\n"
            .write(toFile: folder + "/uploads.csv", atomically: true, encoding: .utf8)
        let csv = try ferry("import", folder + "/uploads.csv", "--model", "Migrations/Workspace.xcdatamodeld", "--model-version", "Workspace 1",
                            "--entity", "UploadEntity", "--out", folder + "/csv.sqlite", "--max-value-bytes", "100")
        #expect(csv.status == 1, "\(csv.err)")
        #expect(csv.out.hasPrefix("UploadEntity (Workspace 1): read 3, written 2, rejected 1"), "\(csv.out)")
        #expect(csv.err.contains("reject: \(folder)/uploads.csv:3: UploadEntity.fileName: field 1 is larger than 100 bytes"), "\(csv.err)")

        try "{\"fileName\": \"a.png\"}\n{\"fileName\": \"\(long)\"}\n{\"fileName\": \"c.png\"}\n"
            .write(toFile: folder + "/uploads.ndjson", atomically: true, encoding: .utf8)
        let ndjson = try ferry("import", folder + "/uploads.ndjson", "--model", "Migrations/Workspace.xcdatamodeld", "--model-version", "Workspace 1",
                               "--entity", "UploadEntity", "--out", folder + "/ndjson.sqlite", "--max-value-bytes", "100")
        #expect(ndjson.status == 1, "\(ndjson.err)")
        #expect(ndjson.out.hasPrefix("UploadEntity (Workspace 1): read 3, written 2, rejected 1"), "\(ndjson.out)")
        #expect(ndjson.err.contains("uploads.ndjson:2") && ndjson.err.contains("longer than 100 bytes"), "\(ndjson.err)")

        // In a JSON array the record holding the value is a reject too, and the records after it
        // are read (the value is read past, never kept).
        try "[{\"fileName\": \"a.png\"},\n {\"fileName\": \"b.png\", \"urlPath\": \"\(long)\"},\n {\"fileName\": \"c.png\"}]"
            .write(toFile: folder + "/uploads.json", atomically: true, encoding: .utf8)
        let array = try ferry("import", folder + "/uploads.json", "--model", "Migrations/Workspace.xcdatamodeld", "--model-version", "Workspace 1",
                              "--entity", "UploadEntity", "--out", folder + "/json.sqlite", "--max-value-bytes", "100")
        #expect(array.status == 1, "\(array.err)")
        #expect(array.out.hasPrefix("UploadEntity (Workspace 1): read 3, written 2, rejected 1"), "\(array.out)")
        #expect(array.err.contains("uploads.json:2") && array.err.contains("longer than 100 bytes") && array.err.contains("(column 35)"), "\(array.err)")
        let statement = try SQLiteDatabase(path: folder + "/json.sqlite", mode: .readOnly).prepare("SELECT ZFILENAME FROM ZUPLOADENTITY ORDER BY Z_PK")
        var names: [String?] = []
        while try statement.step() { names.append(statement.string(at: 0)) }
        #expect(names == ["a.png", "c.png"])

        let tooHigh = try ferry("import", folder + "/uploads.csv", "--model", "Migrations/Workspace.xcdatamodeld", "--entity", "UploadEntity",
                                "--out", folder + "/x.sqlite", "--max-value-bytes", "536870913")
        #expect(tooHigh.status == 2 && tooHigh.err.contains("--max-value-bytes takes a whole number from 1 to 536870912"))
    }
}
