import FerryFormats
import Testing

/// Record layouts, locations, errors and chunk boundaries of ``JSONReader``.
struct JSONReaderTests {
    typealias Support = JSONTestSupport

    @Test func topLevelArrayStreamsElementsWithIndexes() throws {
        let records = try Support.records("[\n  {\"a\": 1},\n  {\"a\": 2}\n]\n")
        #expect(records.map(\.value) == [Support.object(("a", .number(JSONNumber(1)))), Support.object(("a", .number(JSONNumber(2))))])
        #expect(records.map(\.location.index) == [0, 1])
        #expect(records.map(\.location.line) == [2, 3])
        #expect(records.map(\.location.byteOffset) == [4, 16])
        #expect(records[1].location.description == "test.json:3:3 [1]")
    }

    @Test func emptyArrayAndEmptyInputHoldNoRecords() throws {
        #expect(try Support.records("[ ]").isEmpty)
        #expect(try Support.records(" \n ").isEmpty)
        #expect(try Support.records("", layout: .lines).isEmpty)
    }

    @Test func singleObjectIsOneRecord() throws {
        let records = try Support.records("\n{\"name\": \"Ferry\",\n \"tags\": [true, null]}\n")
        #expect(records.count == 1)
        #expect(records[0].value["name"] == .string("Ferry"))
        #expect(records[0].value["tags"] == .array([.bool(true), .null]))
        #expect(records[0].location.line == 2)
        #expect(records[0].location.index == nil)
    }

    @Test func singleLayoutRejectsEmptyInputAndTrailingContent() {
        #expect(Support.error("", layout: .single) != nil)
        #expect(Support.error("{} {}", layout: .single) == .syntax(
            .trailingContent, at: JSONPosition(source: "test.json", line: 1, column: 4, byteOffset: 3)))
    }

    @Test func ndjsonSkipsBlankLinesAndNumbersRecordsByLine() throws {
        let text = "{\"id\":1}\n\n   \n{\"id\":2}\r\n{\"id\":3}"
        for layout in [JSONRecordLayout.automatic, .lines] {
            let records = try Support.records(text, layout: layout)
            #expect(records.map(\.location.line) == [1, 4, 5], "\(layout)")
            #expect(records.map { $0.value["id"] } == [1, 2, 3].map { .number(JSONNumber($0)) })
        }
    }

    @Test("a document's lines may end in CR, CRLF or LF: records and errors name the line they are on")
    func documentLineEnds() throws {
        for end in ["\r", "\r\n", "\n", "\r \n"] {
            let text = ["[", "  {\"id\": 1},", "", "  {\"id\": 2}", "]"].joined(separator: end)
            let blankLines = end == "\r \n" ? 2 : 1
            let records = try Support.records(text, layout: .automatic)
            #expect(records.map(\.location.line) == [1 + blankLines, 1 + 3 * blankLines], "\(Array(end.utf8))")
            let broken = ["[", "  {\"id\": 1},", "  {\"id\": }", "]"].joined(separator: end)
            #expect(Support.error(broken, layout: .automatic)?.position.line == 1 + 2 * blankLines, "\(Array(end.utf8))")
        }
        // Objects one per line are NDJSON when lines end in LF or CRLF; a lone CR ends no NDJSON line.
        #expect(try Support.records("{\"id\":1}\r\n{\"id\":2}\r\n", layout: .automatic).map(\.location.line) == [1, 2])
        // Either way such a file is refused for its line ends, at the first one, not as content after a value
        // (named NDJSON, the whole file was one malformed line: one reject, the rest lost).
        for layout in [JSONRecordLayout.automatic, .lines] {
            let crOnly = Support.error("{\"id\":1}\r{\"id\":2}\r{\"id\":3}\r", layout: layout)
            #expect(crOnly == .syntax(.loneCarriageReturn, at: JSONPosition(source: "test.json", line: 1, column: 9, byteOffset: 8)),
                    "\(layout): \(String(describing: crOnly))")
        }
    }

    @Test func ndjsonBadLineReportsItsLine() {
        let text = "{\"id\":1}\n{\"id\":2}\n{\"id\":3,}\n{\"id\":4}\n"
        let error = Support.error(text, layout: .lines)
        #expect(error == .syntax(
            .unexpectedByte(UInt8(ascii: "}"), expected: "a string key"),
            at: JSONPosition(source: "test.json", line: 3, column: 9, byteOffset: 26)))
        #expect(error?.description == "test.json:3:9: unexpected '}', expected a string key")
    }

    @Test func ndjsonRecordMayNotSpanLines() {
        let error = Support.error("{\"id\":1}\n{\"id\":\n2}\n", layout: .lines)
        #expect(error?.position.line == 2)
        #expect(error == .syntax(
            .unexpectedByte(UInt8(ascii: "\n"), expected: "a value"),
            at: JSONPosition(source: "test.json", line: 2, column: 7, byteOffset: 15)))
    }

    /// Nothing escapes a line break: the scan of a string stepped over one after a backslash,
    /// so the broken line's reject ran on into the next line and its record was lost.
    @Test func ndjsonEscapedLineBreakEndsItsOwnLine() throws {
        let text = "{\"id\":1,\"s\":\"x\\\n{\"id\":2}\n"
        var reader = JSONReader(source: MemoryByteSource(Array(text.utf8), name: "test.json"), layout: .lines)
        #expect(throws: JSONError.syntax(.invalidEscape(0x0A), at: JSONPosition(source: "test.json", line: 1, column: 15, byteOffset: 14))) {
            try reader.nextRecord()
        }
        #expect(try reader.skipFailedRecord())
        let next = try #require(try reader.nextRecord())
        #expect(next.location.line == 2)
        #expect(next.value["id"] == .number(JSONNumber(2)))
        #expect(try reader.nextRecord() == nil)
    }

    @Test func ndjsonTwoValuesOnOneLineIsAnError() {
        #expect(Support.error("1 2\n", layout: .lines)?.position.column == 3)
        #expect(Support.error("{} {}\n")?.position.column == 4)
    }

    @Test func nestedKeyPathStreamsTheArrayThereAndChecksTheRest() throws {
        let text = #"{"meta": {"v": [1, {"x": null}]}, "data": {"records": [{"n": 1}, {"n": 2}], "count": 2}, "after": true}"#
        let records = try Support.records(text, layout: .nested(keyPath: ["data", "records"]))
        #expect(records.map { $0.value["n"] } == [1, 2].map { .number(JSONNumber($0)) })
        #expect(records.map(\.location.index) == [0, 1])
        #expect(records[0].location.byteOffset == 55)
    }

    @Test func nestedKeyPathErrors() {
        let path = ["records"]
        let at = { (column: Int) in JSONPosition(source: "test.json", line: 1, column: column, byteOffset: column - 1) }
        #expect(Support.error(#"{"other": []}"#, layout: .nested(keyPath: path)) == .recordsNotFound(keyPath: path, at: at(13)))
        #expect(Support.error(#"[{"records": []}]"#, layout: .nested(keyPath: path)) == .recordsNotFound(keyPath: path, at: at(1)))
        #expect(Support.error(#"{"records": {}}"#, layout: .nested(keyPath: path)) == .recordsNotAnArray(keyPath: path, at: at(13)))
        #expect(Support.error(#"{"records": [], "records": [1]}"#, layout: .nested(keyPath: path)) == .duplicateRecordsKey(keyPath: path, at: at(17)))
        #expect(Support.error(#"{"records": [1] "x": 2}"#, layout: .nested(keyPath: path)) == .syntax(
            .unexpectedByte(UInt8(ascii: "\""), expected: "',' or '}'"), at: at(17)))
    }

    @Test func arrayLayoutRequiresAnArray() {
        #expect(Support.error("{}", layout: .array) == .syntax(
            .unexpectedByte(UInt8(ascii: "{"), expected: "'['"), at: JSONPosition(source: "test.json", line: 1, column: 1, byteOffset: 0)))
        #expect(Support.error("[1, 2,]") != nil)
        #expect(Support.error("[1, 2] 3") == .syntax(
            .trailingContent, at: JSONPosition(source: "test.json", line: 1, column: 8, byteOffset: 7)))
    }

    @Test func stringsDecodeEscapesAndSurrogatePairs() throws {
        let value = try JSONValue(parsing: Array(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC\uD834\uDD1E", "\u0000", "héllo 🚢"]"#.utf8))
        #expect(value == .array([.string("a\"b\\c/d\u{8}\u{C}\n\r\t"), .string("é€𝄞"), .string("\u{0}"), .string("héllo 🚢")]))
    }

    @Test(arguments: [
        (#"["\uD800"]"#, JSONError.Reason.loneSurrogate(0xD800), 2),
        (#"["x\uDC00"]"#, .loneSurrogate(0xDC00), 3),
        (#"["\uD800\u0041"]"#, .loneSurrogate(0xD800), 2),
        (#"["\x"]"#, .invalidEscape(UInt8(ascii: "x")), 2),
        (#"["\u12G4"]"#, .invalidUnicodeEscape, 2),
        ("[\"a\tb\"]", .controlCharacterInString(0x09), 3),
        (#"["abc"#, .unterminatedString, 1),
        ("[01]", .leadingZero, 2),
        ("[-]", .invalidNumber, 2),
        ("[1.]", .invalidNumber, 3),
        ("[1e+]", .invalidNumber, 4),
        ("[tru]", .invalidLiteral, 1),
        ("[1 2]", .unexpectedByte(UInt8(ascii: "2"), expected: "',' or ']'"), 3),
        ("[1,", .unexpectedEnd(expected: "a value"), 3),
        ("// c\n1", .unexpectedByte(UInt8(ascii: "/"), expected: "a value"), 0),
    ])
    func syntaxErrorsSayWhatAndWhere(_ text: String, reason: JSONError.Reason, byteOffset: Int) {
        let error = Support.error(text, layout: .single)
        #expect(error == .syntax(reason, at: JSONPosition(source: "test.json", line: 1, column: byteOffset + 1, byteOffset: byteOffset)))
    }

    @Test func invalidUTF8InAStringIsRejected() {
        #expect(Support.error("[\"a\u{FFFD}\"]") == nil)
        do {
            _ = try JSONValue(parsing: [0x5B, 0x22, 0x61, 0xC3, 0x28, 0x22, 0x5D])
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error as? JSONError == .syntax(.invalidUTF8, at: JSONPosition(source: "<memory>", line: 1, column: 2, byteOffset: 1)))
        }
    }

    @Test func numbersKeepExactText() throws {
        let big = try Support.number("123456789012345678901234567890")
        #expect(big.isInteger && big.int64 == nil && big.text == "123456789012345678901234567890")
        let decimal = try Support.number("-0.10")
        #expect(!decimal.isInteger && decimal.int64 == nil && decimal.double == -0.1 && decimal.text == "-0.10")
        #expect(try Support.number("-0").int64 == 0)
        #expect(try Support.number("1E+400").double == nil)
        #expect(try Support.number("2.5e-3").double == 0.0025)
    }

    @Test func depthLimitIsConfigurable() throws {
        let nested = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(throws: Never.self) { try JSONValue(parsing: Array(nested.utf8), maxDepth: 10) }
        #expect(throws: JSONError.depthLimitExceeded(
            limit: 9, at: JSONPosition(source: "<memory>", line: 1, column: 10, byteOffset: 9))
        ) { try JSONValue(parsing: Array(nested.utf8), maxDepth: 9) }
    }

    @Test func recordsArrayCountsTowardTheDepth() throws {
        var reader = JSONReader(source: MemoryByteSource(Array("[[[1]]]".utf8)), maxDepth: 2)
        #expect(throws: JSONError.self) { _ = try reader.nextRecord() }
        #expect(try Support.records("[[[1]]]").count == 1)
    }

    @Test func utf8ByteOrderMarkIsSkipped() throws {
        let records = try Support.records([0xEF, 0xBB, 0xBF] + Array("{\"a\":[]}".utf8))
        #expect(records.map(\.value) == [Support.object(("a", .array([])))])
    }

    static let chunkingInputs: [(String, JSONRecordLayout)] = [
        ("[{\"name\": \"a long string value that spans chunks \\u00e9\\uD83D\\uDEA2 ü\", \"n\": -12.5e+3},\n {\"list\": [1, 2, [true, false, null]], \"empty\": {}}]", .automatic),
        ("{\"a\":1}\n\n{\"b\":\"x\\ny\"}\r\n  [1,2]\n\"s\"\n123456789012345678901234567890\n", .lines),
        ("{\"meta\": {\"k\": \"v\"}, \"records\": [{\"i\": 0}, {\"i\": 1}], \"tail\": [1]}", .nested(keyPath: ["records"])),
        ("  {\"single\": [\"é\", 0.5, 1e10]}  ", .automatic),
    ]

    @Test(arguments: chunkingInputs)
    func chunkBoundariesDoNotMatter(_ text: String, layout: JSONRecordLayout) throws {
        let reference = try Support.records(text, layout: layout)
        #expect(!reference.isEmpty)
        for bufferSize in [1, 2, 3, 7, 64] {
            #expect(try Support.records(text, layout: layout, bufferSize: bufferSize) == reference, "buffer size \(bufferSize)")
        }
    }

    @Test func errorPositionsDoNotDependOnChunking() {
        let text = "[{\"a\": 1},\n {\"b\": [1, 2, 01]}]"
        var errors: [JSONError?] = []
        for bufferSize in [1, 2, 3, 7, 64] {
            do {
                _ = try Support.records(text, bufferSize: bufferSize)
                errors.append(nil)
            } catch {
                errors.append(error as? JSONError)
            }
        }
        let expected = JSONError.syntax(.leadingZero, at: JSONPosition(source: "test.json", line: 2, column: 16, byteOffset: 26))
        #expect(errors == Array(repeating: expected, count: 5))
    }

    @Test func aLongStringLargerThanTheBufferIsAccumulated() throws {
        let long = String(repeating: "abcdéfgh", count: 10_000)
        let records = try Support.records("[\"\(long)\"]", bufferSize: 16)
        #expect(records.map(\.value) == [.string(long)])
    }

    @Test func arrayRecordsStreamBeforeTheWholeInputIsRead() throws {
        let element = Array(#"{"id": 12345, "name": "item"},"#.utf8)
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for _ in 0..<100_000 { bytes += element }
        bytes[bytes.count - 1] = UInt8(ascii: "]")
        let counter = CountingByteSource(bytes)
        var reader = JSONReader(source: counter, bufferSize: 4096)
        let first = try #require(try reader.nextRecord())
        #expect(first.value["id"] == .number(JSONNumber(12345)))
        #expect(counter.bytesRead <= 8192)
        var count = 1
        while try reader.nextRecord() != nil { count += 1 }
        #expect(count == 100_000)
        #expect(counter.bytesRead == bytes.count)
    }
}

/// A memory source that reports how many bytes have been taken from it.
final class CountingByteSource: ByteSource {
    private var base: MemoryByteSource
    private(set) var bytesRead = 0
    var name: String { base.name }

    init(_ bytes: [UInt8]) {
        base = MemoryByteSource(bytes)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        bytesRead += count
        return count
    }

}

extension JSONReaderTests {
    @Test("strings scanned eight bytes at a time: a quote, backslash, control or non-ASCII byte at every position")
    func stringScanAtEveryPosition() throws {
        for length in 0..<20 {
            for position in 0...length {
                let plain = String(repeating: "a", count: length)
                let head = String(plain.prefix(position)), tail = String(plain.dropFirst(position))
                for (inserted, expected) in [("\\\"", "\""), ("\\\\", "\\"), ("\\n", "\n"), ("é", "é"), ("家", "家")] {
                    let json = "[\"\(head)\(inserted)\(tail)\"]"
                    let value = try JSONValue(parsing: Array(json.utf8))
                    #expect(value == .array([.string(head + expected + tail)]), "\(json)")
                }
                var control = Array("[\"\(head)".utf8)
                control.append(0x01)
                control += Array("\(tail)\"]".utf8)
                #expect(throws: JSONError.self, "control byte at \(position) of \(length)") { try JSONValue(parsing: control) }
                var unterminated = Array("[\"\(head)\(tail)".utf8)
                unterminated += [UInt8](repeating: UInt8(ascii: "b"), count: position)
                #expect(throws: JSONError.self) { try JSONValue(parsing: unterminated) }
            }
        }
    }
}
