import FerryFormats
import FerryTestSupport
import FoundationEssentials
import Testing

/// The second count of a file's records (`RecordCensus`, through `CensusTap`): hand-written
/// cases of each format's structure, every split of the input into reads, and the readers
/// themselves on the public corpus, whose counts the census must match wherever they read a
/// file to its end.
@Suite("record census")
struct RecordCensusTests {
    /// The census of `bytes`, read through a tap `chunk` bytes at a time.
    static func count(_ bytes: [UInt8], _ census: some RecordCensus, chunk: Int = 64 * 1024) -> CensusOutcome? {
        var tap = CensusTap(MemoryByteSource(bytes), census: census)
        var buffer = [UInt8](repeating: 0, count: chunk)
        while (try? buffer.withUnsafeMutableBytes { try tap.read(into: $0) }) ?? 0 > 0 {}
        return tap.census.result
    }

    static func count(_ text: String, _ census: some RecordCensus) -> CensusOutcome? {
        count(Array(text.utf8), census)
    }

    static func utf16(_ text: String, bigEndian: Bool = false) -> [UInt8] {
        let mark: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        return mark + text.utf16.flatMap { unit -> [UInt8] in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    static func csv(_ dialect: CSVDialect = .rfc4180) -> CSVRecordCensus { CSVRecordCensus(dialect: dialect) }

    @Test func csvRowsAreCountedByLineBreaksOutsideQuotes() {
        #expect(Self.count("a,b\n1,2\n3,4\n", Self.csv()) == .counted(records: 2, skippedLines: 0))
        #expect(Self.count("a,b\r\n1,\"two\r\nlines\"\r\n3,4", Self.csv()) == .counted(records: 2, skippedLines: 0))
        #expect(Self.count("a\r1\r\r2\r", Self.csv()) == .counted(records: 2, skippedLines: 1))
        #expect(Self.count("a,b\n\n1,\"x\"\"\n,y\"\n\n", Self.csv()) == .counted(records: 1, skippedLines: 2))
        #expect(Self.count("a,b\n1,x\"y\n2,\"q\"tail\n", Self.csv()) == .counted(records: 2, skippedLines: 0))
        #expect(Self.count("a\n\"\"\n", Self.csv()) == .counted(records: 1, skippedLines: 0))
        #expect(Self.count("", Self.csv()) == .counted(records: 0, skippedLines: 0))
        #expect(Self.count("a,b", Self.csv()) == .counted(records: 0, skippedLines: 0))
        #expect(Self.count("a\n\"open\n", Self.csv()) == .malformed("a quoted field is still open at the end of the file"))
    }

    @Test func csvCommentsEscapesAndHeaderlessFiles() {
        let comments = CSVDialect(comment: UInt8(ascii: "#"))
        #expect(Self.count("# made by hand\na\n1\n# \"not a quote\n2", Self.csv(comments)) == .counted(records: 2, skippedLines: 2))
        let escaped = CSVDialect(escape: UInt8(ascii: "\\"))
        #expect(Self.count("a,b\n1,\"x\\\"\n,y\"\n2,\"\\\\\"\n", Self.csv(escaped)) == .counted(records: 2, skippedLines: 0))
        let tabs = CSVDialect(delimiter: UInt8(ascii: "\t"), hasHeader: false)
        #expect(Self.count("1\t\"a\tb\nc\"\n2\t3\n", Self.csv(tabs)) == .counted(records: 2, skippedLines: 0))
    }

    @Test func byteOrderMarksAndUTF16() {
        let text = "a,b\n1,\"x\ny\"\n2,3\n"
        let expected = CensusOutcome.counted(records: 2, skippedLines: 0)
        #expect(Self.count([0xEF, 0xBB, 0xBF] + Array(text.utf8), Self.csv()) == expected)
        let little = Self.utf16(text)
        let big = Self.utf16(text, bigEndian: true)
        for chunk in [1, 3, 64] {
            #expect(Self.count(little, Self.csv(), chunk: chunk) == expected)
            #expect(Self.count(big, Self.csv(), chunk: chunk) == expected)
        }
        // A unit whose low byte is a line feed is not one (U+010A, U+0A22).
        let wide = Self.utf16("a\nĊ\u{0A22}\n")
        #expect(Self.count(wide, Self.csv()) == .counted(records: 1, skippedLines: 0))
    }

    @Test func jsonArraysCountTheirElementsOnly() {
        let array = JSONRecordCensus(layout: .automatic)
        #expect(Self.count(#"[{"a": [1, 2], "b": "x,]}\"{"}, {}, 3, "s", [[]]]"#, array) == .counted(records: 5, skippedLines: 0))
        #expect(Self.count(" [ ] ", array) == .counted(records: 0, skippedLines: 0))
        #expect(Self.count(#"{"a": 1, "b": [1, 2]}"#, array) == .counted(records: 1, skippedLines: 0))
        #expect(Self.count("", array) == .counted(records: 0, skippedLines: 0))
        // Several values are NDJSON: a value broken across lines is a reject per line, as read.
        #expect(Self.count("{\"a\": 1}\n\n{\"a\": [2,\n3]}\n{}\n", array) == .counted(records: 4, skippedLines: 0))
        // A broken NDJSON line (a string cut by a raw line break) ends with its line (found by fuzzing).
        #expect(Self.count("{\"a\": 1}\n{\"b\": [\"x\n{\"c\": 2}\n", array) == .counted(records: 3, skippedLines: 0))
        #expect(Self.count("\"a\"\n!]\"\n!] sixteen bytes and more\n", array) == .counted(records: 3, skippedLines: 0))
        #expect(Self.count(#"[1, 2]"#, JSONRecordCensus(layout: .array)) == .counted(records: 2, skippedLines: 0))
        #expect(Self.count(#"["open]"#, array) == .malformed("a string is still open at the end of the file"))
    }

    @Test func jsonRecordsUnderAKeyPath() {
        let nested = JSONRecordCensus(layout: .nested(keyPath: ["data", "tasks"]))
        let text = #"{"meta": {"tasks": [1, 2, 3]}, "d\u0061ta": {"count": 2, "tasks": [{"tasks": [9]}, {}], "tasks2": []}}"#
        #expect(Self.count(text, nested) == .counted(records: 2, skippedLines: 0))
        let escaped = JSONRecordCensus(layout: .nested(keyPath: ["t\"é😀"]))
        #expect(Self.count(#"{"x": [1], "t\"\u00e9\ud83d\ude00": [1, 2, 3]}"#, escaped) == .counted(records: 3, skippedLines: 0))
        #expect(Self.count(#"{"other": [1]}"#, nested) == .malformed("no array of records where the layout says"))
        // Keys are compared as the reader compares them, by canonical equivalence (found by a helper).
        let composed = JSONRecordCensus(layout: .nested(keyPath: ["d", "caf\u{E9}", "\u{D55C}"]))
        #expect(Self.count("{\"d\": {\"cafe\u{301}\": {\"\u{1112}\u{1161}\u{11AB}\": [1, 2]}}}", composed) == .counted(records: 2, skippedLines: 0))
        #expect(Self.count(#"{"d": {"cafe\u0301": {"\u1112\u1161\u11ab": [1, 2, 3]}}}"#, composed) == .counted(records: 3, skippedLines: 0))
    }

    @Test func ndjsonCountsLinesThatHoldSomething() {
        let lines = JSONRecordCensus(layout: .lines)
        #expect(Self.count("{\"a\": \"[\"}\n \n\r\n{}\r\n[1,\n", lines) == .counted(records: 3, skippedLines: 0))
        #expect(Self.count("{}", lines) == .counted(records: 1, skippedLines: 0))
    }

    @Test func xmlPropertyListsCountTheRootArraysElements() {
        let census = PlistRecordCensus()
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <!-- <dict> in a comment -->
            <array>
                <dict><key>a</key><array><string>x</string></array></dict>
                <string><![CDATA[<dict>]]></string>
                <true/>
                <dict/>
                <string attr="a>b">&lt;dict&gt;</string>
            </array>
            </plist>
            """
        #expect(Self.count(xml, census) == .counted(records: 5, skippedLines: 0))
        #expect(Self.count("<plist><dict><key>a</key><array/></dict></plist>", census) == .counted(records: 1, skippedLines: 0))
        #expect(Self.count("<plist version=\"1.0\"><array/></plist>", census) == .counted(records: 0, skippedLines: 0))
        #expect(Self.count("<array><integer>1</integer><integer>2</integer></array>", census) == .counted(records: 2, skippedLines: 0))
        // Elements are told by their local name, as the reader tells them (found by a helper).
        #expect(Self.count(#"<p:plist xmlns:p="u"><p:array><dict/><p:dict/></p:array></p:plist>"#, census) == .counted(records: 2, skippedLines: 0))
        #expect(Self.count(RecordCensusTests.utf16("<plist><array><true/></array></plist>"), census) == .counted(records: 1, skippedLines: 0))
    }

    @Test func binaryPropertyListsAreCountedFromTheirTrailer() throws {
        let writer = BinaryPropertyListWriter()
        for count in [0, 1, 14, 15, 16, 300, 70_000] {
            let bytes = try writer.encode(.array((0..<count).map { .integer(Int128($0)) }))
            #expect(Self.count(bytes, PlistRecordCensus(), chunk: 7) == .counted(records: count, skippedLines: 0), "\(count) elements")
        }
        let single = try writer.encode(.dictionary(["a": .array([.integer(1), .integer(2)])]))
        #expect(Self.count(single, PlistRecordCensus()) == .counted(records: 1, skippedLines: 0))
        var truncated = try writer.encode(.array([.integer(1)]))
        truncated.removeLast(5)
        #expect(Self.count(truncated, PlistRecordCensus()) == .malformed("the trailer of the binary property list does not lead to its root object"))
    }

    /// Every split of a file into reads gives the same count: state carries over between reads.
    @Test func everySplitGivesTheSameCount() {
        let cases: [(String, any RecordCensus)] = [
            ("a,b\r\n1,\"x\"\"\r\ny\"\r\n\r\n# c\r\n2,z\"q\r\n", Self.csv(CSVDialect(comment: UInt8(ascii: "#")))),
            (#"{"k": {"r": [{"a": "]"}, [1, {"b": 2}], "x\"y"]}}"#, JSONRecordCensus(layout: .nested(keyPath: ["k", "r"]))),
            ("<plist><!-- x --><array><a/><b>c</b><![CDATA[<d>]]></array></plist>", PlistRecordCensus()),
        ]
        for (text, census) in cases {
            let whole = Self.count(Array(text.utf8), census)
            for chunk in 1...9 {
                #expect(Self.count(Array(text.utf8), census, chunk: chunk) == whole, "\(text.debugDescription) read \(chunk) bytes at a time")
            }
        }
    }
}

/// The census against the readers on the public corpus: wherever a reader reads a file to its
/// end, its records (and skipped lines) are what the census counts.
@Suite("record census on the corpus", .enabled(if: FileManager.default.fileExists(atPath: TestPaths.corpus + "/conformance"), "needs ../shared/corpus"))
struct RecordCensusCorpusTests {
    static let conformance = TestPaths.corpus + "/conformance"

    static func files(under folder: String, suffixes: [String]) -> [String] {
        let root = conformance + "/" + folder
        guard let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] else { return [] }
        return names.filter { name in suffixes.contains { name.hasSuffix($0) } }.sorted().map { root + "/" + $0 }
    }

    @Test func csvFilesCountAsTheReaderReadsThem() throws {
        let paths = Self.files(under: "csv-spectrum", suffixes: [".csv"]) + Self.files(under: "rust-csv-examples-data", suffixes: [".csv"])
        #expect(paths.count > 10)
        var compared = 0
        for path in paths {
            let bytes = try CSVTestSupport.fileBytes(path)
            for rule in CSVQuoteRule.allCases {
                let dialect = CSVDialect(quoteRule: rule)
                let tap = CensusTap(MemoryByteSource(bytes, name: path), census: CSVRecordCensus(dialect: dialect))
                let census = tap.census
                guard var reader = try? CSVReader(source: tap, dialect: dialect, bufferSize: 13) else { continue }
                var rows = 0
                do {
                    while try reader.nextRow() != nil { rows += 1 }
                } catch {
                    continue
                }
                compared += 1
                #expect(census.result == .counted(records: rows, skippedLines: reader.skippedLines), "\(path) (\(rule))")
            }
        }
        #expect(compared > 10)
    }

    @Test func jsonFilesCountAsTheReaderReadsThem() throws {
        let paths = Self.files(under: "JSONTestSuite/test_parsing", suffixes: [".json"])
            + Self.files(under: "swift-foundation-test-resources", suffixes: [".json"])
        #expect(paths.count > 100)
        var compared = 0
        for path in paths {
            let bytes = try CSVTestSupport.fileBytes(path)
            for layout in [JSONRecordLayout.automatic, .lines] {
                let tap = CensusTap(MemoryByteSource(bytes, name: path), census: JSONRecordCensus(layout: layout))
                let census = tap.census
                var reader = JSONReader(source: tap, layout: layout, bufferSize: 7)
                var records = 0
                do {
                    while true {
                        do {
                            guard try reader.nextRecord() != nil else { break }
                        } catch {
                            guard try reader.skipFailedRecord() else { throw error }
                        }
                        records += 1
                    }
                } catch {
                    continue
                }
                compared += 1
                #expect(census.result == .counted(records: records, skippedLines: 0), "\(path) (\(layout))")
            }
        }
        #expect(compared > 100)
    }

    @Test func propertyListsCountAsTheReaderReadsThem() throws {
        let paths = Self.files(under: "", suffixes: [".plist", ".bplist", ".binary", ".xml"])
            .filter { !$0.contains("/JSONTestSuite/") }
        #expect(paths.count > 50)
        var compared = 0
        for path in paths {
            let bytes = try CSVTestSupport.fileBytes(path)
            let tap = CensusTap(MemoryByteSource(bytes, name: path), census: PlistRecordCensus())
            let census = tap.census
            var reader = PlistRecordReader(source: tap, bufferSize: 11)
            var records = 0
            do {
                while try reader.nextRecord() != nil { records += 1 }
            } catch {
                continue
            }
            compared += 1
            #expect(census.result == .counted(records: records, skippedLines: 0), "\(path)")
        }
        #expect(compared > 30)
    }
}
