import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// The CSV options and reports of `ferry import` and `ferry migrate`, as a user sees them.
extension CommandLineTests {
    private static let model = "Migrations/Workspace.xcdatamodeld"

    private func csvFile(_ name: String, _ text: String) throws -> (folder: String, path: String) {
        let folder = try TestPaths.temporaryFolder("cli-csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        return (folder, folder + "/" + name)
    }

    @Test("import and migrate --help list the CSV options and --map by position")
    func csvHelp() throws {
        for verb in ["import", "migrate"] {
            let help = try ferry(verb, "--help")
            for option in ["--comment", "--encoding", "--max-columns", "--delimiter", "--csv-quotes", "'#N=ATTRIBUTE'"] {
                #expect(help.out.contains(option), "\(verb) --help lacks \(option)")
            }
        }
    }

    @Test("--map names a column by position or with '=' in its name; unmapped blank columns are named by position")
    func mapByPosition() throws {
        let csv = try csvFile("frame.csv", ",fileName,a=b\n0,甲.png,/x\n1,乙.png,/y\n")
        let plain = try ferry("import", csv.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                              "--out", csv.folder + "/plain.sqlite")
        #expect(plain.status == 0)
        #expect(plain.err.contains("warning: \(csv.path): columns matching no attribute of UploadEntity, ignored: column 1 (no name), a=b"))
        let mapped = try ferry("import", csv.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                               "--out", csv.folder + "/mapped.sqlite", "--map", "#1=time", "--map", "a=b=urlPath")
        #expect(mapped.status == 0 && !mapped.err.contains("warning"), "\(mapped.err)")
        #expect(mapped.out.contains("read 2, written 2, rejected 0"))
        for bad in ["=fileName", "#0=time", "fileName="] {
            let run = try ferry("import", csv.path, "--model", Self.model, "--entity", "UploadEntity", "--out", csv.folder + "/x.sqlite",
                                "--map", bad)
            #expect(run.status == 2, "--map \(bad)")
        }
    }

    @Test("a header of thousands of columns: a clear error under the limit, one summarised warning over it")
    func wideHeader() throws {
        let csv = try csvFile("wide.csv", "fileName" + String(repeating: ",", count: 12_000) + "\na.png" + String(repeating: ",", count: 12_000) + "\n")
        let refused = try ferry("import", csv.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                "--out", csv.folder + "/out.sqlite")
        #expect(refused.status == 3)
        #expect(refused.err.contains("\(csv.path):1: the row has more than 10000 fields (--max-columns N reads wider rows)"))
        let raised = try ferry("import", csv.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                               "--out", csv.folder + "/out.sqlite", "--max-columns", "12001")
        #expect(raised.status == 0)
        #expect(raised.err.contains("ignored: column 2 (no name), column 3 (no name)"))
        #expect(raised.err.contains("column 11 (no name) and 11990 more\n"))
        #expect(raised.err.utf8.count < 1_000)
    }

    @Test("the summary counts skipped lines and says which delimiter was used, in text and JSON")
    func skippedAndDelimiter() throws {
        let csv = try csvFile("notes.csv", "# 导出\nfileName;time\n\n甲.png;1\n# 注释\n乙.png;2\n")
        let run = try ferry("import", csv.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                            "--out", csv.folder + "/out.sqlite", "--comment", "#")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("read 5, written 2, rejected 0, skipped 3 → "))
        #expect(run.out.contains("  \(csv.path): delimiter ';' (sniffed)\n"))
        let json = try ferry("import", csv.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                             "--out", csv.folder + "/json.sqlite", "--comment", "#", "--delimiter", ";", "--json")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(summary["skipped"] as? Int == 3 && summary["read"] as? Int == 5)
        let delimiters = try #require(summary["delimiters"] as? [String: [String: String]])
        #expect(delimiters[csv.path] == ["delimiter": ";", "basis": "option"])
        let stdin = try ferry("import", "-", "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                              "--out", csv.folder + "/stdin.sqlite", stdin: "fileName;time\na.png;1\n")
        #expect(stdin.status == 0, "\(stdin.err)")
        // Named as its rejects name it (it was `-` here and `<stdin>` there).
        #expect(stdin.out.contains("  <stdin>: delimiter ';' (sniffed)\n"), "standard input is sniffed like a file: \(stdin.out)")
    }

    /// A tab-separated file whose lines held one comma each was read as comma-separated: two of
    /// its three values lost, exit 0 (only a warning named the columns that matched nothing).
    @Test("delimiters that fit alike: the header's attribute names choose, and a header no choice reads cleanly is refused")
    func delimiterByHeader() throws {
        // Tab splits every line in three and comma in two, alike; only tab gives attribute names.
        let tabbed = try csvFile("tabbed.csv", "fileName\tfileSize\tnote, extra\na, b.png\t1\tx\nc, d.png\t2\ty\n")
        let run = try ferry("import", tabbed.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                            "--out", tabbed.folder + "/t.sqlite")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("delimiter tab (sniffed: of the delimiters that fit, the one whose header names the most attributes)"), "\(run.out)")
        #expect(try storeRows(tabbed.folder + "/t.sqlite", "SELECT ZFILENAME, ZFILESIZE FROM ZUPLOADENTITY ORDER BY Z_PK") == ["a, b.png|1", "c, d.png|2"])
        // Neither reads the header as names: refused, nothing written.
        let mixed = try csvFile("mixed.csv", "fileName\tfileSize, time\na.png\t1, 2\nb.png\t3, 4\n")
        let refused = try ferry("import", mixed.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                "--out", mixed.folder + "/m.sqlite")
        #expect(refused.status == 3, "\(refused.err)")
        #expect(refused.err.contains("the delimiter is in doubt: ',' and tab split the first lines alike"), "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: mixed.folder + "/m.sqlite"))
        let given = try ferry("import", mixed.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                              "--out", mixed.folder + "/m.sqlite", "--delimiter", "tab")
        #expect(given.status == 0 || given.status == 1, "\(given.err)")
    }

    @Test("bad CSV option values are usage errors")
    func csvUsageErrors() throws {
        let csv = try csvFile("a.csv", "fileName\na\n")
        for (option, value) in [("encoding", "cp1252"), ("comment", "\""), ("comment", "##"), ("delimiter", "\n"), ("max-columns", "0")] {
            let run = try ferry("import", csv.path, "--model", Self.model, "--entity", "UploadEntity", "--out", csv.folder + "/x.sqlite",
                                "--\(option)", value)
            #expect(run.status == 2, "--\(option) \(value.debugDescription)")
        }
        let same = try ferry("import", csv.path, "--model", Self.model, "--entity", "UploadEntity", "--out", csv.folder + "/x.sqlite",
                             "--comment", ";", "--delimiter", ";")
        #expect(same.status == 2)
    }

    @Test("--comment that could be the sniffed delimiter is a usage error: ',' skipped every row whose first field was empty")
    func commentThatCouldBeTheDelimiter() throws {
        let csv = try csvFile("a.csv", "fileName,time\na.png,1\n,2\n")
        let args = ["import", csv.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity"]
        for comment in [",", ";", "\t", "|", ":"] {
            let run = try FerryProcess.run(args + ["--out", csv.folder + "/x.sqlite", "--comment", comment])
            #expect(run.status == 2, "--comment \(comment.debugDescription)")
            #expect(run.err.contains("could be the delimiter") && run.err.contains("give --delimiter too"), "\(run.err)")
        }
        let given = try FerryProcess.run(args + ["--out", csv.folder + "/given.sqlite", "--comment", ";", "--delimiter", ","])
        #expect(given.status == 0 && given.out.contains("read 2, written 2"), "\(given.err)")
    }

    @Test("reject lines name their location once and escape line breaks and control characters of the values they quote")
    func rejectLineText() throws {
        let csv = try csvFile("r.csv", "fileName,fileType\n\"a\",\"4\r5\"\n\"b\",\"6\n7\u{1B}\"\n\"c\",\"8\t9\"\n")
        let run = try ferry("import", csv.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                            "--out", csv.folder + "/out.sqlite")
        #expect(run.status == 1)
        let rejects = run.err.split(separator: "\n").map(String.init).filter { $0.hasPrefix("reject: ") }
        #expect(rejects == ["reject: \(csv.path):2: UploadEntity.fileType: '4\\r5' is not an integer",
                            "reject: \(csv.path):4: UploadEntity.fileType: '6\\n7\\u{1B}' is not an integer",
                            "reject: \(csv.path):6: UploadEntity.fileType: '8\\t9' is not an integer"], "\(run.err)")
        var bytes = Array("fileName,fileType\n".utf8)
        bytes += [0x61, 0xE9, 0x2C, 0x31, 0x0A]
        try Data(bytes).write(to: URL(fileURLWithPath: csv.folder + "/l.csv"))
        let latin1 = try ferry("import", csv.folder + "/l.csv", "--model", Self.model, "--model-version", "Workspace 1",
                               "--entity", "UploadEntity", "--out", csv.folder + "/l.sqlite")
        #expect(latin1.err.contains("reject: \(csv.folder)/l.csv:2: UploadEntity.fileName: field 1 is not valid UTF-8 (a file saved as Latin-1 or Windows text is read with --encoding latin1; a binary file is no CSV)\n"), "\(latin1.err)")
    }

    @Test("strict quotes: a space before an opening quote (1, \"Smith\") rejects the row with its line and field; lenient reads it as written")
    func quoteInsideUnquotedField() throws {
        let csv = try csvFile("q.csv", "fileName,urlPath\na.png, \"/x\"\n\"b.png\",/y\n")
        let args = ["import", csv.path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity"]
        let strict = try FerryProcess.run(args + ["--out", csv.folder + "/strict.sqlite"])
        #expect(strict.status == 1 && strict.out.contains("read 2, written 1, rejected 1"), "\(strict.out)")
        #expect(strict.err.contains("reject: \(csv.path):2: UploadEntity.urlPath: field 2 has a quote but does not start with one "
            + "(as in a\"b, or a space before \"a\") (--csv-quotes lenient reads the quote as it is written)"), "\(strict.err)")
        let lenient = try FerryProcess.run(args + ["--out", csv.folder + "/lenient.sqlite", "--csv-quotes", "lenient"])
        #expect(lenient.status == 0 && lenient.out.contains("read 2, written 2"), "\(lenient.err)")
    }

    @Test("--encoding latin1 reads the whole file as Windows-1252: smart quotes and € as meant, the same bytes alike in every row")
    func encodingLatin1() throws {
        let folder = try TestPaths.temporaryFolder("cli-csv")
        let path = folder + "/w.csv"
        let bytes = Array("fileName,urlPath\n".utf8) + [0x93, 0x71, 0x94, 0x20, 0x80, 0x2C, 0x43, 0x61, 0x66, 0xE9, 0x0A]
            + [0xC3, 0xA9, 0x2C, 0x78, 0x0A]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try ferry("import", path, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                            "--out", folder + "/out.sqlite", "--encoding", "latin1")
        #expect(run.status == 0, "\(run.err)")
        let database = try SQLiteDatabase(path: folder + "/out.sqlite", mode: .readOnly)
        let statement = try database.prepare("SELECT ZFILENAME || '|' || ZURLPATH FROM ZUPLOADENTITY ORDER BY Z_PK")
        var rows: [String] = []
        while try statement.step() { rows.append(statement.string(at: 0) ?? "") }
        #expect(rows == ["“q” €|Café", "Ã©|x"])
    }

    @Test("a header name that matches two attributes only ignoring case is refused (exit 3), naming both; it went to one of them")
    func headerMatchingTwoAttributesIgnoringCase() throws {
        let folder = try TestPaths.temporaryFolder("cli-csv")
        let model = folder + "/Amb.xcdatamodeld/Amb.xcdatamodel"
        try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
                <entity name="Rec" representedClassName="Rec" syncable="YES">
                    <attribute name="fileName" optional="YES" attributeType="String"/>
                    <attribute name="filename" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """.utf8).write(to: URL(fileURLWithPath: model + "/contents"))
        try Data("FILENAME\nx\n".utf8).write(to: URL(fileURLWithPath: folder + "/a.csv"))
        let args = ["import", folder + "/a.csv", "--model", folder + "/Amb.xcdatamodeld", "--entity", "Rec"]
        let run = try FerryProcess.run(args + ["--out", folder + "/out.sqlite"])
        #expect(run.status == 3)
        #expect(run.err.contains("\(folder)/a.csv:1: 'FILENAME' matches attributes 'fileName' and 'filename' alike (ignoring case): "
            + "name its attribute with --map KEY=ATTRIBUTE"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
        let mapped = try FerryProcess.run(args + ["--out", folder + "/mapped.sqlite", "--map", "FILENAME=filename"])
        #expect(mapped.status == 0, "\(mapped.err)")
        let exact = try csvFile("exact.csv", "filename\ny\n")
        #expect(try FerryProcess.run(["import", exact.path, "--model", folder + "/Amb.xcdatamodeld", "--entity", "Rec",
                                      "--out", exact.folder + "/out.sqlite"]).status == 0, "an exact name still decides")
    }

    @Test("migrate takes the CSV options; its ledger shows skipped lines and the delimiter")
    func migrateCSVOptions() throws {
        let csv = try csvFile("uploads.csv", "# legacy\nfileName,time,urlPath\n\na.png,1388538000,/a\n")
        let run = try ferry("migrate", "UploadEntity:" + csv.path, "--model", Self.model, "--var", "zone=UTC", "--comment", "#",
                            "--out", csv.folder + "/W3.sqlite")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("read  written  merged  rejected  filtered  skipped"))
        #expect(run.out.contains("\(csv.path): delimiter ',' (sniffed)\n"))
    }
}
