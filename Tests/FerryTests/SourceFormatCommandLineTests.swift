import FerryFormats
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// How `ferry import` and `ferry migrate` tell a source's format, and what they make of empty
/// sources, duplicate JSON keys and CSV quotes, as a user sees it.
extension CommandLineTests {
    private static let model = "Migrations/Workspace.xcdatamodeld"

    private func file(_ folder: String, _ name: String, _ bytes: [UInt8]) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func importTasks(_ source: String, out: String, _ extra: String..., stdin: String? = nil) throws -> Run {
        try FerryProcess.run(["import", source, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "KYTask",
                              "--out", out] + extra, stdin: stdin)
    }

    private static let taskLines = """
        {"taskID": 1, "taskTitle": "Pay rent", "taskLevel": 2}
        {"taskID": 2, "taskTitle": "Call home", "taskLevel": 1}
        {"taskID": 3, "taskTitle": "Read", "taskLevel": 0}

        """

    @Test("a binary plist is read as one whatever its name, and JSON or NDJSON from standard input")
    func formatFromContent() throws {
        let folder = try TestPaths.temporaryFolder("cli-format")
        let plist = try BinaryPropertyListWriter().encode(.array([
            .dictionary(["taskID": .integer(1), "taskTitle": .string("Pay rent")]),
            .dictionary(["taskID": .integer(2), "taskTitle": .string("Call home")]),
        ]))
        let dat = try file(folder, "tasks.dat", plist)
        let named = try importTasks(dat, out: folder + "/dat.sqlite")
        #expect(named.status == 0, "\(named.err)")
        #expect(named.out.contains("read 2, written 2, rejected 0"), "\(named.out)")
        // Named .csv, it is still a property list.
        let csvNamed = try file(folder, "tasks.csv", plist)
        #expect(try importTasks(csvNamed, out: folder + "/csv.sqlite").out.contains("read 2, written 2"))

        let array = try importTasks("-", out: folder + "/array.sqlite", stdin: #"[{"taskID": 7, "taskTitle": "x"}]"#)
        #expect(array.status == 0 && array.out.contains("read 1, written 1"), "\(array.err)")
        // NDJSON on standard input: a malformed line is one reject, the others are read.
        let lines = try importTasks("-", out: folder + "/lines.sqlite", stdin: Self.taskLines + "{\"taskID\": 4,}\n{\"taskID\": 5}\n")
        #expect(lines.status == 1, "\(lines.err)")
        #expect(lines.out.contains("read 5, written 4, rejected 1"), "\(lines.out)")
        #expect(lines.err.contains("reject: <stdin>:4: KYTask: not valid JSON"), "\(lines.err)")
    }

    @Test("migrate reads ENTITY:- as JSON or NDJSON by its content")
    func migrateStandardInput() throws {
        let folder = try TestPaths.temporaryFolder("cli-format")
        for (name, input) in [("lines", Self.taskLines), ("array", "[" + Self.taskLines.split(separator: "\n").joined(separator: ",") + "]")] {
            let run = try ferry("migrate", "KYTask:-", "--model", Self.model, "--out", folder + "/\(name).sqlite", "--var", "zone=UTC",
                                stdin: input)
            #expect(run.status == 0, "\(name): \(run.err)")
            #expect(run.out.contains("KYTask"), "\(run.out)")
            let query = try ferry("query", folder + "/\(name).sqlite", "--entity", "Task", "--format", "csv", "--sort", "taskID")
            #expect(query.out.contains("Pay rent") && query.out.contains("Read"), "\(name): \(query.out)")
        }
    }

    @Test("--format takes csv, json, ndjson or plist and must agree with the content")
    func givenFormat() throws {
        let folder = try TestPaths.temporaryFolder("cli-format")
        let plist = try file(folder, "tasks.json", try BinaryPropertyListWriter().encode(.array([.dictionary(["taskID": .integer(1)])])))
        let wrong = try importTasks(plist, out: folder + "/wrong.sqlite", "--format", "json")
        #expect(wrong.status == 3)
        #expect(wrong.err.contains("\(plist): holds a binary property list, not JSON as --format json says"), "\(wrong.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/wrong.sqlite"))
        let lines = try file(folder, "tasks.txt", Array(Self.taskLines.utf8))
        let given = try importTasks(lines, out: folder + "/given.sqlite", "--format", "ndjson")
        #expect(given.status == 0 && given.out.contains("read 3, written 3"), "\(given.err)")
        let array = try file(folder, "array.ndjson", Array("[{\"taskID\": 1}]".utf8))
        #expect(try importTasks(array, out: folder + "/array.sqlite", "--format", "ndjson").err.contains("holds a JSON array, not NDJSON"))
        let bogus = try importTasks(lines, out: folder + "/bogus.sqlite", "--format", "yaml")
        #expect(bogus.status == 2 && bogus.err.contains("--format takes csv, json, ndjson or plist, not 'yaml'"), "\(bogus.err)")
        #expect(try ferry("import", "--help").out.contains("--format csv|json|ndjson|plist"))
    }

    @Test("an empty source is bad input in every format, named in the message")
    func emptySources() throws {
        let folder = try TestPaths.temporaryFolder("cli-empty")
        let sources = [
            try file(folder, "empty.json", []), try file(folder, "blank.json", Array(" \n\t\n".utf8)), try file(folder, "empty.csv", []),
            try file(folder, "empty.ndjson", []), try file(folder, "empty.plist", []), try file(folder, "bom.csv", [0xEF, 0xBB, 0xBF, 0x0A]),
            try file(folder, "empty.json.gz", try GzipWriter.compress([])),
        ]
        for source in sources {
            let run = try importTasks(source, out: folder + "/out.sqlite")
            #expect(run.status == 3, "\(source): \(run.status) \(run.err)")
            #expect(run.err.contains("\(source): is empty (no bytes, or only whitespace)"), "\(run.err)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
        }
        let stdin = try importTasks("-", out: folder + "/out.sqlite", stdin: "")
        #expect(stdin.status == 3 && stdin.err.contains("<stdin>: is empty"), "\(stdin.err)")
        let migrate = try ferry("migrate", "KYTask:" + sources[0], "--model", Self.model, "--out", folder + "/m.sqlite", "--var", "zone=UTC")
        #expect(migrate.status == 3 && migrate.err.contains("\(sources[0]): is empty"), "\(migrate.err)")
        // A source with no records that says what it is still reads: nothing to write.
        let none = try importTasks(try file(folder, "none.json", Array("[]".utf8)), out: folder + "/none.sqlite")
        #expect(none.status == 0 && none.out.contains("read 0, written 0"), "\(none.err)")
    }

    @Test("a key given twice in a JSON object rejects that record with its location and key (exit 1), the other records are written")
    func duplicateKeys() throws {
        let folder = try TestPaths.temporaryFolder("cli-duplicate")
        let json = try file(folder, "tasks.json", Array("""
            [
              {"taskID": 1, "taskTitle": "first", "taskTitle": "last", "taskLevel": 1, "taskLevel": 2},
              {"taskID": 2, "taskTitle": "a", "taskTitle": "b"},
              {"taskID": 3, "taskTitle": "once"}
            ]
            """.utf8))
        let run = try importTasks(json, out: folder + "/out.sqlite")
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("\(json):2 [0]: KYTask: key \"taskTitle\" appears more than once in one object: which value is meant cannot be told"),
                "\(run.err)")
        #expect(run.err.contains("\(json):3 [1]: KYTask: key \"taskTitle\""), "\(run.err)")
        let query = try ferry("query", folder + "/out.sqlite", "--entity", "KYTask", "--format", "csv", "--sort", "taskID")
        #expect(query.out.contains("once") && !query.out.contains("last") && !query.out.contains("first"), "\(query.out)")

        let migrate = try ferry("migrate", "KYTask:" + json, "--model", Self.model, "--out", folder + "/m.sqlite", "--var", "zone=UTC")
        #expect(migrate.status == 1 && migrate.err.contains("key \"taskTitle\" appears more than once"), "\(migrate.err)")
    }

    @Test("a key given twice in a property list's dictionary rejects that record, as in JSON (the last value was used with a warning)")
    func repeatedPlistKeys() throws {
        let folder = try TestPaths.temporaryFolder("cli-plist-repeated")
        let plist = try file(folder, "tasks.plist", Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <array>
              <dict><key>taskID</key><integer>1</integer><key>taskTitle</key><string>first</string><key>taskTitle</key><string>last</string></dict>
              <dict><key>taskID</key><integer>2</integer><key>taskTitle</key><string>once</string></dict>
            </array>
            </plist>
            """.utf8))
        let run = try importTasks(plist, out: folder + "/out.sqlite")
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("\(plist):4 [0]: KYTask: key \"taskTitle\" appears more than once in one dictionary"), "\(run.err)")
        let query = try ferry("query", folder + "/out.sqlite", "--entity", "KYTask", "--format", "csv", "--sort", "taskID")
        #expect(query.out.contains("once") && !query.out.contains("last") && !query.out.contains("first"), "\(query.out)")
    }

    private static let notesModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Note" syncable="YES">
                <attribute name="id" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                <attribute name="text" optional="YES" attributeType="String"/>
                <attribute name="score" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            </entity>
        </model>
        """

    @Test("""
        a plist string's raw CRs (as Apple's writer leaves them) are stored as written, not as LF; a <real> no Double holds \
        rejects its record as CSV and JSON do, where 1e-400 was stored as 0 and 1e400 refused the file
        """)
    func plistCarriageReturnsAndUnrepresentableReals() throws {
        let folder = try TestPaths.temporaryFolder("cli-plist-fidelity")
        let bundle = try TestPaths.xcodeModelBundle("Notes", versions: [("Notes", Self.notesModel)], in: folder)
        let plist = try file(folder, "notes.plist", Array((
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<plist version=\"1.0\"><array>\r\n"
            + "<dict><key>id</key><integer>1</integer><key>text</key><string>line1\r\nline2</string></dict>\r\n"
            + "<dict><key>id</key><integer>2</integer><key>text</key><string>old\rmac</string></dict>\r\n"
            + "<dict><key>id</key><integer>3</integer><key>score</key><real>1e-400</real></dict>\r\n"
            + "<dict><key>id</key><integer>4</integer><key>score</key><real>-1E400</real></dict>\r\n"
            + "<dict><key>id</key><integer>5</integer><key>score</key><real> 2.5 </real></dict>\r\n"
            + "</array></plist>\r\n").utf8))
        let store = folder + "/notes.sqlite"
        let run = try FerryProcess.run(["import", plist, "--model", bundle, "--entity", "Note", "--out", store])
        #expect(run.status == 1, "\(run.err)")
        // Lines as libxml2 counts them: at each LF (the CRLF in record 1's string is one; a lone CR is none).
        #expect(run.err.contains("\(plist):6 [2]: Note.score: 1e-400 is too small for a Double: it would read back as 0"), "\(run.err)")
        #expect(run.err.contains("\(plist):7 [3]: Note.score: -1E400 is out of range for Double"), "\(run.err)")
        #expect(try storeRows(store, "SELECT ZID, hex(ZTEXT), ZSCORE FROM ZNOTE ORDER BY ZID")
                    == ["1|6C696E65310D0A6C696E6532|NULL", "2|6F6C640D6D6163|NULL", "5||2.5"])
    }

    @Test("text after a closing CSV quote rejects the row with its line and field, unless --csv-quotes lenient")
    func csvQuoteRule() throws {
        let folder = try TestPaths.temporaryFolder("cli-quotes")
        let csv = try file(folder, "uploads.csv", Array("fileName,time\n\"a.png\",1\n\"b\"x.png,2\nc.png,\"3\" \n".utf8))
        let strict = try FerryProcess.run(["import", csv, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                           "--out", folder + "/strict.sqlite"])
        #expect(strict.status == 1, "\(strict.err)")
        #expect(strict.out.contains("read 3, written 1, rejected 2"), "\(strict.out)")
        #expect(strict.err.contains("reject: \(csv):3: UploadEntity.fileName: field 1 has text after its closing quote (as in \"a\"x) "
            + "(--csv-quotes lenient joins it to the field)"), "\(strict.err)")
        #expect(strict.err.contains("reject: \(csv):4: UploadEntity.time: field 2 has text after its closing quote"), "\(strict.err)")
        let lenient = try FerryProcess.run(["import", csv, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                            "--out", folder + "/lenient.sqlite", "--csv-quotes", "lenient"])
        #expect(lenient.status == 0 && lenient.out.contains("read 3, written 3"), "\(lenient.err)")
        let names = try ferry("query", folder + "/lenient.sqlite", "--entity", "UploadEntity", "--format", "csv", "--sort", "fileName")
        #expect(names.out.contains("bx.png"), "\(names.out)")
        let header = try file(folder, "header.csv", Array("\"fileName\"x,time\na,1\n".utf8))
        let refused = try FerryProcess.run(["import", header, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                            "--out", folder + "/header.sqlite"])
        #expect(refused.status == 3 && refused.err.contains("\(header):1: field 1 has text after its closing quote"), "\(refused.err)")
        let bad = try FerryProcess.run(["import", csv, "--model", Self.model, "--entity", "UploadEntity", "--out", folder + "/x.sqlite",
                                        "--csv-quotes", "loose"])
        #expect(bad.status == 2)
    }
}
