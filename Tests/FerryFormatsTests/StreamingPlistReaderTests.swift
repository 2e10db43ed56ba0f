import FerryTestSupport
import Testing
@testable import FerryFormats

/// The streaming plist record reader: records, locations, formats and errors.
struct StreamingPlistReaderTests {
    static let uploadsPath = TestPaths.fixtures + "/legacy/uploads.plist"

    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """
    }

    @Test func uploadsYieldsEveryElementWithItsLineAndIndex() throws {
        let outcome = StreamingPlistOutcome(try FileByteSource(path: Self.uploadsPath))
        #expect(outcome.error == nil)
        #expect(outcome.records.count == 21)
        #expect(outcome.values.filter { if case .dictionary = $0 { true } else { false } }.count == 20)
        #expect(outcome.values.last == .string("not a record"))
        #expect(outcome.records.map(\.location.index) == Array(0..<21))
        // Lines of `<dict>` / `<string>` in the file (grep -n).
        #expect(outcome.records[0].location.line == 5)
        #expect(outcome.records[1].location.line == 29)
        #expect(outcome.records[6].location.line == 100)
        #expect(outcome.records[19].location.line == 328)
        #expect(outcome.records[20].location.line == 342)
        #expect(outcome.records[20].location.description == Self.uploadsPath + ":342 [20]")
        #expect(outcome.records[0].value["fileName"] == .string("IMG_0001.jpg"))
        #expect(outcome.records[0].value["finishStatus"] == .bool(true))
    }

    @Test("keys a record's dictionaries hold twice are noted with the record (the last value is kept), XML and binary")
    func repeatedKeysAreNoted() throws {
        let xml = StreamingPlistOutcome(Self.plist("""
            <array>
              <dict><key>a</key><string>1</string><key>a</key><string>2</string>
                <key>inner</key><dict><key>b</key><true/><key>b</key><false/><key>a</key><string>x</string></dict></dict>
              <dict><key>a</key><string>3</string></dict>
            </array>
            """))
        #expect(xml.error == nil)
        #expect(xml.records.map(\.repeatedKeys.keys) == [["a", "b"], []])
        #expect(xml.records[0].value["a"] == .string("2"))
        // bplist00 [ {title: First, title: Second}, {title: Third} ], written by hand: no writer makes a dictionary like it.
        let title = [0x55] + Array("title".utf8)
        let objects: [[UInt8]] = [[0xA2, 1, 5], [0xD2, 2, 2, 3, 4], title, [0x55] + Array("First".utf8), [0x56] + Array("Second".utf8),
                                  [0xD1, 2, 6], [0x55] + Array("Third".utf8)]
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let tableOffset = UInt64(bytes.count)
        bytes += offsets + [UInt8](repeating: 0, count: 6) + [1, 1]
        for field in [UInt64(objects.count), 0, tableOffset] { bytes += withUnsafeBytes(of: field.bigEndian, Array.init) }
        let binary = StreamingPlistOutcome(MemoryByteSource(bytes))
        #expect(binary.error == nil, "\(String(describing: binary.error))")
        #expect(binary.records.map(\.repeatedKeys.keys) == [["title"], []])
        #expect(binary.records.first?.value["title"] == .string("Second"))
    }

    @Test func uploadsRecordsEqualTheTreeReadersElements() throws {
        let whole = try XMLPropertyListReader().decode(try TestPaths.read(Self.uploadsPath))
        guard case .array(let elements) = whole else { Issue.record("root is not an array"); return }
        // A small buffer makes libxml2 and the prolog guard read in many pieces.
        let outcome = StreamingPlistOutcome(try FileByteSource(path: Self.uploadsPath), bufferSize: 16)
        #expect(outcome.error == nil)
        #expect(outcome.values == elements)
    }

    @Test func gzipInputStreamsTheSameRecords() throws {
        let bytes = try TestPaths.read(Self.uploadsPath)
        let compressed = try GzipWriter.compress(bytes)
        let plain = StreamingPlistOutcome(MemoryByteSource(bytes))
        let unzipped = StreamingPlistOutcome(try GzipDetectingByteSource(MemoryByteSource(compressed)))
        #expect(unzipped.error == nil)
        #expect(unzipped.records == plain.records)
    }

    @Test func binaryPlistYieldsTheRootArrayElementsWithoutLines() throws {
        let whole = try XMLPropertyListReader().decode(try TestPaths.read(Self.uploadsPath))
        guard case .array(let elements) = whole else { Issue.record("root is not an array"); return }
        let binary = try BinaryPropertyListWriter().encode(whole)
        let outcome = StreamingPlistOutcome(MemoryByteSource(binary, name: "uploads.bplist"), bufferSize: 8)
        #expect(outcome.error == nil)
        #expect(outcome.values == elements)
        #expect(outcome.records.map(\.location.index) == Array(0..<21))
        #expect(outcome.records.allSatisfy { $0.location.line == nil })
        #expect(outcome.records[3].location.description == "uploads.bplist [3]")
    }

    @Test func singleDictionaryRootIsOneRecordWithoutIndex() throws {
        let outcome = StreamingPlistOutcome(Self.plist("<dict>\n<key>a</key><integer>0x10</integer>\n</dict>"))
        #expect(outcome.error == nil)
        #expect(outcome.values == [.dictionary(["a": .integer(16)])])
        #expect(outcome.records.first?.location == PlistRecordLocation(source: "<memory>", line: 4, index: nil))

        let binary = try BinaryPropertyListWriter().encode(.dictionary(["a": .bool(true)]))
        let fromBinary = StreamingPlistOutcome(MemoryByteSource(binary))
        #expect(fromBinary.values == [.dictionary(["a": .bool(true)])])
        #expect(fromBinary.records.first?.location.index == nil)
    }

    @Test func bareRootArrayAndScalarElementsFollowTheTreeReadersRules() throws {
        let text = """
            <array>
              <!-- a comment --><?pi x?>
              <real> -INF </real>
              <date>2014-01-01T00:00:00Z</date>
              <data>AAEC
              Aw==</data>
              <dict><key>CF$UID</key><integer>7</integer></dict>
              <dict><key>k</key><string>1</string><key>k</key><string>2</string></dict>
              <array/>
            </array>
            """
        let outcome = StreamingPlistOutcome(text)
        #expect(outcome.error == nil)
        #expect(outcome.values == [
            .real(-.infinity), .date(410_227_200), .data([0, 1, 2, 3]), .uid(7), .dictionary(["k": .string("2")]), .array([]),
        ])
        #expect(outcome.records.map(\.location.line) == [3, 4, 5, 7, 8, 9])
        #expect(try XMLPropertyListReader().decode(Array(text.utf8)) == .array(outcome.values))
    }

    @Test(arguments: ["<array/>", "<array>\n</array>"])
    func emptyRootArrayYieldsNothing(_ body: String) {
        let outcome = StreamingPlistOutcome(Self.plist(body))
        #expect(outcome.error == nil)
        #expect(outcome.records.isEmpty)
    }

    @Test func utf16DocumentsAreRead() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist><array><string>é</string></array></plist>"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let outcome = StreamingPlistOutcome(MemoryByteSource(bytes))
        #expect(outcome.error == nil)
        #expect(outcome.values == [.string("é")])
        #expect(outcome.records.first?.location.line == 2)
    }

    @Test("a <real> no Double holds is its record's value, as written; the records after it follow (1e400 refused the document)")
    func realsNoDoubleHoldsAreRecordValues() {
        let outcome = StreamingPlistOutcome(Self.plist("""
            <array>
            <dict><key>r</key><real>1e-400</real></dict>
            <dict><key>r</key><real>1e400</real></dict>
            <dict><key>r</key><real>1</real></dict>
            </array>
            """))
        #expect(outcome.error == nil)
        #expect(outcome.values == [.dictionary(["r": .unrepresentableReal("1e-400")]), .dictionary(["r": .unrepresentableReal("1e400")]),
                                   .dictionary(["r": .real(1)])])
        #expect(outcome.records.map(\.location.line) == [5, 6, 7])
    }

    @Test func otherDeclaredEncodingsAreRefused() {
        let outcome = StreamingPlistOutcome("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<plist><array/></plist>")
        #expect(outcome.plistError == PlistRecordError(source: "<memory>", problem: .xml(.unsupportedEncoding("ISO-8859-1"), line: 1)))
    }

    // MARK: errors

    /// libxml2 reads ahead (a few kilobytes), so the records just before the error may not come
    /// out; the earlier ones do, in order, before the error.
    @Test func malformedXMLAfterSomeRecordsFailsWhenReached() throws {
        var body = "<array>\n"
        for index in 0..<2000 { body += "<dict><key>a</key><integer>\(index)</integer></dict>\n" }
        body += "<dict><key>a</key><integer>2000</integer></dict\n<dict/>\n</array>"
        let text = Self.plist(body)
        let outcome = StreamingPlistOutcome(text, bufferSize: 64)
        #expect(outcome.records.count > 1000)
        #expect(outcome.values == (0..<outcome.records.count).map { .dictionary(["a": .integer(Int128($0))]) })
        let error = try #require(outcome.plistError)
        #expect(error.source == "<memory>")
        // libxml2 notices the unclosed `</dict` on the next line, as the tree reader reports it.
        #expect(error.line == 2006)
        #expect(throws: error.problem) { try XMLPropertyListReader().decode(Array(text.utf8)) }
        guard case .xml(.malformed, _) = error.problem else {
            Issue.record("expected a malformed-XML error, got \(error)"); return
        }
        #expect(error.description.hasPrefix("<memory>: XML property list, line 2006: not well-formed XML:") == true)
    }

    @Test func invalidElementValueFailsWithItsDocumentLine() {
        let outcome = StreamingPlistOutcome(Self.plist("""
            <array>
            <dict><key>a</key><integer>1</integer></dict>
            <dict>
              <key>a</key>
              <integer>12x</integer>
            </dict>
            </array>
            """))
        #expect(outcome.values == [.dictionary(["a": .integer(1)])])
        #expect(outcome.plistError == PlistRecordError(source: "<memory>", problem: .xml(.invalidInteger("12x"), line: 8)))
    }

    @Test func whatFollowsTheRootArrayIsCheckedAfterTheLastRecord() {
        let second = StreamingPlistOutcome(Self.plist("<array><true/></array>\n<dict/>"))
        #expect(second.values == [.bool(true)])
        #expect(second.plistError == PlistRecordError(source: "<memory>", problem: .xml(.invalidRoot, line: 3)))

        let text = StreamingPlistOutcome("<plist><array><false/></array> x </plist>")
        #expect(text.values == [.bool(false)])
        #expect(text.plistError == PlistRecordError(source: "<memory>", problem: .xml(.unexpectedText, line: 1)))

        let afterEmpty = StreamingPlistOutcome("<plist><array/><dict/></plist>")
        #expect(afterEmpty.records.isEmpty)
        #expect(afterEmpty.plistError == PlistRecordError(source: "<memory>", problem: .xml(.invalidRoot, line: 1)))
    }

    @Test func textInsideTheRootArrayIsRefused() {
        let text = "<plist><array>\n<true/>\noops\n<false/></array></plist>"
        let outcome = StreamingPlistOutcome(text)
        #expect(outcome.values == [.bool(true)])
        // libxml2 dates a text node by the line where the text ends, for both readers.
        #expect(outcome.plistError?.problem == .xml(.unexpectedText, line: 4))
        #expect(throws: PropertyListError.xml(.unexpectedText, line: 4)) { try XMLPropertyListReader().decode(Array(text.utf8)) }
    }

    @Test func nestingBeyondTheLimitIsRefused() {
        let outcome = StreamingPlistOutcome(MemoryByteSource(Array("<array><array><array/></array></array>".utf8)), maxDepth: 2)
        #expect(outcome.records.isEmpty)
        #expect(outcome.plistError?.problem == .xml(.nestingTooDeep(limit: 2), line: 1))
        let allowed = StreamingPlistOutcome(MemoryByteSource(Array("<array><array><true/></array></array>".utf8)), maxDepth: 2)
        #expect(allowed.values == [.array([.bool(true)])])
    }

    @Test func sharedContainersThatExpandPastTheLimitAreRefusedBeforeAnyRecord() {
        let outcome = StreamingPlistOutcome(MemoryByteSource(PropertyListBinaryReaderTests.sharedChain, name: "bomb.plist"))
        #expect(outcome.records.isEmpty)
        #expect(outcome.plistError == PlistRecordError(source: "bomb.plist", problem: .binary(.tooManyObjects(limit: 1 << 16), offset: 140)))
    }

    @Test(arguments: ["", "   \n", "hello", "{\"a\": 1}"])
    func unrecognizedInputIsRefused(_ text: String) {
        #expect(StreamingPlistOutcome(text).plistError == PlistRecordError(source: "<memory>", problem: .unrecognizedFormat))
    }

    @Test func malformedBinaryPlistCarriesTheByteOffset() throws {
        var binary = try BinaryPropertyListWriter().encode(.array([.string("x")]))
        binary.removeLast(4)
        let outcome = StreamingPlistOutcome(MemoryByteSource(binary, name: "broken.bplist"))
        #expect(outcome.records.isEmpty)
        guard case .binary? = outcome.plistError?.problem else {
            Issue.record("expected a binary problem, got \(String(describing: outcome.error))"); return
        }
        #expect(outcome.plistError?.source == "broken.bplist")
    }

    @Test func sourceErrorsArePassedThrough() {
        let bytes = Array(Self.plist("<array>\n<true/>\n<false/>\n</array>").utf8.dropLast(20))
        let outcome = StreamingPlistOutcome(FailingByteSource(bytes))
        #expect(outcome.error is FailingByteSource.Failure)
    }

    // MARK: streaming

    /// 200,000 records (well over 65,535 lines, so line numbers must not saturate); the first
    /// record arrives after a few kilobytes have been read.
    @Test func largeDocumentStreamsFromASmallPrefix() throws {
        let count = 200_000
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
        for index in 0..<count {
            text += "\t<dict>\n\t\t<key>id</key>\n\t\t<integer>\(index)</integer>\n\t\t<key>name</key>\n\t\t<string>file \(index).png</string>\n\t</dict>\n"
        }
        text += "</array>\n</plist>\n"
        let bytes = Array(text.utf8)
        let counter = CountingByteSource(bytes)
        var reader = PlistRecordReader(source: counter, bufferSize: 4096)
        let first = try #require(try reader.nextRecord())
        #expect(first.value == .dictionary(["id": .integer(0), "name": .string("file 0.png")]))
        #expect(first.location.line == 4)
        #expect(counter.bytesRead <= 32 * 1024)
        var last = first
        var seen = 1
        while let record = try reader.nextRecord() {
            #expect(record.location.index == seen)
            last = record
            seen += 1
        }
        #expect(seen == count)
        #expect(last.value == .dictionary(["id": .integer(Int128(count - 1)), "name": .string("file \(count - 1).png")]))
        #expect(last.location.line == 4 + 6 * (count - 1))
        #expect(counter.bytesRead == bytes.count)
    }
}

extension StreamingPlistReaderTests {
    @Test func errorsAreThrownAgainOnLaterCalls() throws {
        var reader = PlistRecordReader(source: MemoryByteSource(Array("<plist><array><true/>\n<integer>x</integer></array></plist>".utf8)))
        #expect(try reader.nextRecord()?.value == .bool(true))
        let expected = PlistRecordError(source: "<memory>", problem: .xml(.invalidInteger("x"), line: 2))
        #expect(throws: expected) { try reader.nextRecord() }
        #expect(throws: expected) { try reader.nextRecord() }

        var unrecognized = PlistRecordReader(source: MemoryByteSource([1, 2, 3]))
        #expect(throws: PlistRecordError(source: "<memory>", problem: .unrecognizedFormat)) { try unrecognized.nextRecord() }
        #expect(throws: PlistRecordError(source: "<memory>", problem: .unrecognizedFormat)) { try unrecognized.nextRecord() }
    }
}
