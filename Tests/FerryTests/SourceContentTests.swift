import Ferry
import FerryFormats
import Foundation
import FerryTestSupport
import Testing

/// What a source's first bytes say it holds, and the one rule that turns that, the file's name
/// and `--format` into the reader used.
struct SourceContentTests {
    private func sniff(_ text: String, complete: Bool = true) -> SourceContent {
        SourceContent.sniff(Array(text.utf8), isComplete: complete)
    }

    @Test("each format is told by its content, past a byte order mark and whitespace")
    func kinds() throws {
        let bplist = try BinaryPropertyListWriter().encode(.array([.dictionary(["a": .integer(1)])]))
        #expect(SourceContent.sniff(bplist, isComplete: true) == .binaryPropertyList)
        #expect(sniff("\u{FEFF}  \n<?xml version=\"1.0\"?><plist/>") == .xmlPropertyList)
        #expect(sniff("<plist version=\"1.0\"><array/></plist>") == .xmlPropertyList)
        #expect(sniff("\n\t[{\"a\": 1}]") == .jsonArray)
        #expect(sniff("{\"records\": [\n{\"a\": 1}\n]}") == .jsonObject)
        #expect(sniff("{\n  \"a\": 1\n}\n") == .jsonObject)
        #expect(sniff("{\"a\": 1}\n\n{\"a\": 2}\n") == .jsonLines)
        #expect(sniff("{\"a\": 1}\r\n{\"a\": 2}") == .jsonLines)
        #expect(sniff("fileName,time\na.png,1\n") == .text)
        #expect(sniff("bp,lists\n1,2\n") == .text)
    }

    @Test("UTF-16 with a byte order mark is looked at as text")
    func utf16() {
        let little: [UInt8] = [0xFF, 0xFE] + Array("[{}]".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(SourceContent.sniff(little, isComplete: true) == .jsonArray)
        let big: [UInt8] = [0xFE, 0xFF] + Array(" <plist/>".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(SourceContent.sniff(big, isComplete: true) == .xmlPropertyList)
    }

    @Test("UTF-16 with a lone surrogate is looked at by what it holds, for its reader to reject where it breaks, not an empty source")
    func brokenUTF16() {
        let loneSurrogate: [UInt8] = [0xFF, 0xFE, 0x3C, 0x00, 0x00, 0xD8, 0x41, 0x00]
        #expect(SourceContent.sniff(loneSurrogate, isComplete: true) == .xmlPropertyList)
        let text: [UInt8] = [0xFF, 0xFE, 0x61, 0x00, 0x00, 0xD8, 0x41, 0x00]
        #expect(SourceContent.sniff(text, isComplete: true) == .text)
    }

    @Test("no bytes, a byte order mark or whitespace alone is empty; a cut sample of spaces is not known to be")
    func empty() {
        #expect(sniff("") == .empty)
        #expect(sniff(" \r\n\t\n") == .empty)
        #expect(sniff("\u{FEFF}\n") == .empty)
        #expect(sniff("   ", complete: false) == .text)
    }

    @Test("the content decides; the name breaks only the ties it leaves")
    func decide() throws {
        #expect(try SourceFormat.decide(content: .binaryPropertyList, path: "records.dat", given: nil) == .plist)
        #expect(try SourceFormat.decide(content: .binaryPropertyList, path: "records.csv", given: nil) == .plist)
        #expect(try SourceFormat.decide(content: .jsonArray, path: "-", given: nil) == .json)
        #expect(try SourceFormat.decide(content: .jsonLines, path: "tasks.json", given: nil) == .ndjson)
        #expect(try SourceFormat.decide(content: .jsonObject, path: "tasks.jsonl.gz", given: nil) == .ndjson)
        #expect(try SourceFormat.decide(content: .jsonObject, path: "-", given: nil) == .json)
        #expect(try SourceFormat.decide(content: .text, path: "broken.json", given: nil) == .json)
        #expect(try SourceFormat.decide(content: .text, path: "broken.plist", given: nil) == .plist)
        #expect(try SourceFormat.decide(content: .text, path: "-", given: nil) == .csv)
        #expect(try SourceFormat.decide(content: .text, path: "uploads.dat", given: nil) == .csv)
    }

    @Test("--format is taken when the content allows it (csv for any text), and is an error when the content says otherwise")
    func given() throws {
        #expect(try SourceFormat.decide(content: .jsonObject, path: "-", given: .ndjson) == .ndjson)
        #expect(try SourceFormat.decide(content: .jsonLines, path: "-", given: .json) == .json)
        #expect(try SourceFormat.decide(content: .text, path: "x.json", given: .csv) == .csv)
        #expect(throws: SourceFormatError.contradicts(given: .json, content: .binaryPropertyList)) {
            try SourceFormat.decide(content: .binaryPropertyList, path: "x.json", given: .json)
        }
        #expect(throws: SourceFormatError.contradicts(given: .ndjson, content: .jsonArray)) {
            try SourceFormat.decide(content: .jsonArray, path: "x.ndjson", given: .ndjson)
        }
        // A CSV whose first field begins with a bracket looks like JSON or XML: --format csv wins.
        #expect(try SourceFormat.decide(content: .jsonLines, path: "x.csv", given: .csv) == .csv)
        #expect(try SourceFormat.decide(content: .jsonArray, path: "-", given: .csv) == .csv)
        #expect(try SourceFormat.decide(content: .xmlPropertyList, path: "x.txt", given: .csv) == .csv)
        #expect(throws: SourceFormatError.contradicts(given: .csv, content: .binaryPropertyList)) {
            try SourceFormat.decide(content: .binaryPropertyList, path: "x.csv", given: .csv)
        }
        #expect(SourceFormatError.contradicts(given: .json, content: .binaryPropertyList).description
            == "holds a binary property list, not JSON as --format json says")
    }

    @Test("an empty source is refused in every format, given or not")
    func emptyIsRefused() {
        for given in [nil] + SourceFormat.allCases.map(Optional.some) {
            #expect(throws: SourceFormatError.empty) { try SourceFormat.decide(content: .empty, path: "x.json", given: given) }
        }
    }
}

/// An SQLite database given to `import` (or `migrate ENTITY:FILE`) was read as CSV: a header of
/// page bytes, and with `--map '#1=name' --encoding latin1` records of page bytes, "verified".
@Suite("an SQLite database given as a file of records")
struct DatabaseAsRecordsTests {
    @Test("is told by its first bytes and refused, whatever --format or its name says")
    func refused() throws {
        var bytes = Array("SQLite format 3\0".utf8)
        bytes += [0x10, 0x00, 0x01, 0x01] + Array(repeating: 0, count: 80)
        #expect(SourceContent.sniff(bytes, isComplete: true) == .sqliteDatabase)
        let content = SourceContent.sniff(bytes, isComplete: true)
        for given in [nil, SourceFormat.csv, .json] {
            #expect(throws: SourceFormatError.database) { try SourceFormat.decide(content: content, path: "items.csv", given: given) }
        }
    }

    @Test("ferry import of a store exits 3 saying it is a database")
    func importOfStore() throws {
        let folder = try TestPaths.temporaryFolder("database-as-records")
        let model = TestPaths.migrations + "/Workspace.xcdatamodeld"
        let store = try ExportTestSupport.workspace2Store(folder)
        let run = try FerryProcess.run(["import", store, "--model", model, "--model-version", "Workspace 2", "--entity", "Upload",
                                        "--out", folder + "/out.sqlite", "--map", "#1=remotePath", "--encoding", "latin1"])
        #expect(run.status == 3, "\(run.err)")
        #expect(run.err.contains("is an SQLite database, not a file of records"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }
}
