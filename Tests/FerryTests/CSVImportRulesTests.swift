import Ferry
import FerryMigration
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// CSV as people write it: one-column lists, blank lines, unnamed columns, comments, Latin-1,
/// headers of absurd width. Each file is written here, imported, and its store read back.
@Suite("ferry import: CSV rules")
struct CSVImportRulesTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    /// Writes `bytes` as `name` in a new folder and returns the folder and the file's path.
    private func file(_ name: String, _ bytes: [UInt8]) throws -> (folder: String, path: String) {
        let folder = try TestPaths.temporaryFolder("csv-rules")
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
        return (folder, folder + "/" + name)
    }

    private func file(_ name: String, _ text: String) throws -> (folder: String, path: String) {
        try file(name, Array(text.utf8))
    }

    private func uploads(_ path: String, out: String, csv: CSVOptions = .init(), keyMap: [String: String] = [:]) -> ImportRequest {
        ImportRequest(sources: [path], modelPath: workspace, modelVersion: "Workspace 1", entity: "UploadEntity", outputPath: out,
                      files: FileRecordSource(csv: csv, keyMap: keyMap))
    }

    private func texts(_ store: String, _ sql: String) throws -> [String?] {
        let database = try SQLiteDatabase(path: store, mode: .readOnly)
        let statement = try database.prepare(sql)
        var values: [String?] = []
        while try statement.step() { values.append(statement.string(at: 0)) }
        return values
    }

    @Test("a one-column list of URLs or times keeps its column (':' split it and every row was rejected)")
    func oneColumnLists() throws {
        let urls = try file("urls.csv", "urlPath\nhttps://example.com:8080/a.jpg\nhttp://例え.jp/写真.png\nftp://x.org:21/y\n")
        let summary = try ImportJob(request: uploads(urls.path, out: urls.folder + "/out.sqlite")).run()
        #expect(summary.written == 3 && summary.rejected == 0)
        #expect(summary.delimiters == [urls.path: CSVDelimiterChoice(delimiter: UInt8(ascii: ","), basis: .sniffed)])
        #expect(try texts(urls.folder + "/out.sqlite", "SELECT ZURLPATH FROM ZUPLOADENTITY ORDER BY Z_PK")
            == ["https://example.com:8080/a.jpg", "http://例え.jp/写真.png", "ftp://x.org:21/y"])

        let times = try file("times.csv", "fileName\n10:30:00\n11:45:10\n会议 09:00:00\n")
        #expect(try ImportJob(request: uploads(times.path, out: times.folder + "/out.sqlite")).run().written == 3)
        #expect(try texts(times.folder + "/out.sqlite", "SELECT ZFILENAME FROM ZUPLOADENTITY ORDER BY Z_PK")
            == ["10:30:00", "11:45:10", "会议 09:00:00"])
    }

    @Test("blank lines are read and skipped: read = written + merged + rejected + skipped")
    func blankLinesAreCounted() throws {
        let csv = try file("uploads.csv", "fileName,time\r\n\r\n写真.jpg,1388538000\r\n\r\n\r\nb.png,1388538001\r\n\r\n")
        let summary = try ImportJob(request: uploads(csv.path, out: csv.folder + "/out.sqlite")).run()
        #expect(summary.read == 6 && summary.written == 2 && summary.skipped == 4 && summary.rejected == 0)
        #expect(summary.isBalanced)
        #expect(summary.verification?.passed == true)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(summary)) as? [String: Any])
        #expect(json["skipped"] as? Int == 4)
    }

    @Test("a blank line of a one-column file holds no record (an editor's trailing one made an all-nil record); a quoted \"\" is a value")
    func blankLineOfOneColumnIsSkipped() throws {
        let csv = try file("names.csv", "fileName\n第一.txt\n\n第三.txt\n\"\"\n\n")
        let summary = try ImportJob(request: uploads(csv.path, out: csv.folder + "/out.sqlite")).run()
        #expect(summary.read == 5 && summary.written == 3 && summary.skipped == 2 && summary.isBalanced)
        #expect(try texts(csv.folder + "/out.sqlite", "SELECT quote(ZFILENAME) FROM ZUPLOADENTITY ORDER BY Z_PK")
            == ["'第一.txt'", "'第三.txt'", "''"])
    }

    @Test("a quoted \"\" is the empty Binary, as export writes it; a number's empty field is nil, quoted or not")
    func quotedEmptyByType() throws {
        let csv = try file("uploads.csv", "fileName,imageData,fileType\na,\"\",\"\"\nb,,\nc,AAEC,3\n")
        let summary = try ImportJob(request: uploads(csv.path, out: csv.folder + "/out.sqlite")).run()
        #expect(summary.written == 3 && summary.rejected == 0)
        #expect(try texts(csv.folder + "/out.sqlite", "SELECT quote(ZIMAGEDATA) || ' ' || quote(ZFILETYPE) FROM ZUPLOADENTITY ORDER BY Z_PK")
            == ["X'' NULL", "NULL NULL", "X'000102' 3"])
        // Under --empty null every empty field is nil.
        var request = uploads(csv.path, out: csv.folder + "/null.sqlite")
        request.files.coercion.emptyField = .null
        _ = try ImportJob(request: request).run()
        #expect(try texts(csv.folder + "/null.sqlite", "SELECT quote(ZIMAGEDATA) FROM ZUPLOADENTITY WHERE Z_PK = 1") == ["NULL"])
    }

    @Test("a column without a name is named by its position in the warning, and can be mapped by it")
    func unnamedColumns() throws {
        // pandas writes its index as a first column with a blank name.
        let csv = try file("frame.csv", ",fileName,a=b, \n0,甲.png,x,\n1,乙.png,y,\n")
        let summary = try ImportJob(request: uploads(csv.path, out: csv.folder + "/out.sqlite")).run()
        #expect(summary.unknownKeys == [csv.path: ["column 1 (no name)", "a=b", "column 4 (no name)"]])

        let mapped = try ImportJob(request: uploads(csv.path, out: csv.folder + "/mapped.sqlite",
                                                    csv: CSVOptions(columnMap: [1: "time", 4: "fileSize"]), keyMap: ["a=b": "urlPath"])).run()
        #expect(mapped.unknownKeys.isEmpty && mapped.written == 2)
        #expect(try texts(csv.folder + "/mapped.sqlite", "SELECT ZTIME || ' ' || ZFILENAME || ' ' || ZURLPATH FROM ZUPLOADENTITY ORDER BY Z_PK")
            == ["0 甲.png x", "1 乙.png y"])
    }

    @Test("a column position past the header, or an attribute the entity lacks, is refused with the header's line")
    func badColumnMaps() throws {
        let csv = try file("two.csv", "\nfileName,time\na,1\n")
        for (map, message) in [([3: "urlPath"], "two.csv:2: --map #3: the header has 2 columns"),
                               ([1: "nosuch"], "two.csv:2: --map #1=nosuch: UploadEntity has no attribute 'nosuch'")] {
            let error = try #require(throws: ImportError.self) {
                try ImportJob(request: uploads(csv.path, out: csv.folder + "/out.sqlite", csv: CSVOptions(columnMap: map))).run()
            }
            #expect(error.description.hasSuffix(message), "\(error)")
        }
    }

    @Test("comment lines are skipped when asked for, and counted")
    func comments() throws {
        let csv = try file("notes.csv", "# exported 2014-01-02\nfileName,time\n# a note\n#hash.txt,5\nb.png,6\n")
        let summary = try ImportJob(request: uploads(csv.path, out: csv.folder + "/out.sqlite",
                                                     csv: CSVOptions(comment: UInt8(ascii: "#")))).run()
        #expect(summary.read == 4 && summary.written == 1 && summary.skipped == 3 && summary.isBalanced)
        #expect(try texts(csv.folder + "/out.sqlite", "SELECT ZFILENAME FROM ZUPLOADENTITY") == ["b.png"])
    }

    @Test("Latin-1 fields reject their record by default and, asked for, the whole file reads as Windows-1252 (smart quotes, €)")
    func latin1() throws {
        // Row 3's bytes C3 A9 happen to be UTF-8 ("é"): in a Latin-1 file they are "Ã©", as in row 2.
        let csv = try file("legacy.csv", Array("fileName,time\n".utf8) + [0x43, 0x61, 0x66, 0xE9, 0x20, 0xC3, 0xA9, 0x2C, 0x31, 0x0A]
            + [0xC3, 0xA9, 0x2C, 0x32, 0x0A] + [0x93, 0x71, 0x94, 0x20, 0x80, 0x35, 0x2C, 0x33, 0x0A])
        let strict = try ImportJob(request: uploads(csv.path, out: csv.folder + "/strict.sqlite")).run()
        #expect(strict.written == 1 && strict.rejected == 2)
        #expect(strict.sampleRejects.first?.location.line == 2)
        #expect(strict.sampleRejects.first?.reason.hasPrefix("field 1 is not valid UTF-8 (a file saved as Latin-1 or Windows text is read with --encoding latin1") == true, "the location is the reject's, not the reason's too")
        let windows = try ImportJob(request: uploads(csv.path, out: csv.folder + "/windows.sqlite",
                                                     csv: CSVOptions(textPolicy: .windows1252))).run()
        #expect(windows.written == 3)
        #expect(try texts(csv.folder + "/windows.sqlite", "SELECT ZFILENAME FROM ZUPLOADENTITY ORDER BY Z_PK") == ["Café Ã©", "Ã©", "“q” €5"])
    }

    @Test("a header wider than the column limit stops the run with file and line; the limit can be raised")
    func columnLimit() throws {
        let header = "fileName" + String(repeating: ",", count: 20_000)
        let csv = try file("wide.csv", header + "\na.png" + String(repeating: ",", count: 20_000) + "\n")
        let error = try #require(throws: ImportError.self) { try ImportJob(request: uploads(csv.path, out: csv.folder + "/out.sqlite")).run() }
        #expect(error.description == "\(csv.path):1: the row has more than 10000 fields (--max-columns N reads wider rows)")
        #expect(!FileManager.default.fileExists(atPath: csv.folder + "/out.sqlite"))
        let raised = try ImportJob(request: uploads(csv.path, out: csv.folder + "/out.sqlite", csv: CSVOptions(maxColumns: 20_001))).run()
        #expect(raised.written == 1)
        // 20,000 blank column names, each named once by position.
        #expect(raised.unknownKeys[csv.path]?.count == 20_000)
        #expect(raised.unknownKeys[csv.path]?.last == "column 20001 (no name)")
    }

    @Test("a row wider than the limit stops the run at that row's line")
    func wideRow() throws {
        let csv = try file("rows.csv", "fileName,time\na,1\nb" + String(repeating: ",", count: 10_000) + "\n")
        let error = try #require(throws: ImportError.self) { try ImportJob(request: uploads(csv.path, out: csv.folder + "/out.sqlite")).run() }
        #expect(error.description.hasPrefix("\(csv.path):3: the row has more than 10000 fields"))
    }

    @Test("migrate reads CSV files with the same options, and its ledger counts skipped lines")
    func migrateSkipsAndComments() throws {
        let csv = try file("uploads.csv", "# legacy export\nfileName;time;urlPath\n\na.png;1388538000;/a\nb.png;1388538001;/b\n")
        let summary = try MigrateJob(request: MigrateRequest(
            sources: [MigrationSource(argument: "UploadEntity:" + csv.path)], modelPath: workspace, outputPath: csv.folder + "/W3.sqlite",
            files: FileRecordSource(csv: CSVOptions(comment: UInt8(ascii: "#"))), variables: ["zone": "UTC"])).run()
        let ledger = try #require(summary.ledgers.first)
        #expect(ledger.read == 4 && ledger.written == 2 && ledger.skipped == 2 && ledger.isBalanced)
        #expect(summary.delimiters[csv.path] == CSVDelimiterChoice(delimiter: UInt8(ascii: ";"), basis: .sniffed))
        #expect(summary.verification?.passed == true)
    }
}
