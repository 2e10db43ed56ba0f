import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// `JSONReader.nextFields()` reads what `nextRecord()` reads: every record's fields make the same
/// value, every failure is the same error at the same place, and reading goes on after a failed
/// record in the same way.
@Suite("JSON records read as fields match the records read as values")
struct JSONRecordFieldsTests {
    /// One read of a whole document: each record's value (from its fields or read as a value),
    /// or the error, and whether reading went on after it.
    private enum Step: Equatable {
        case record(JSONValue, JSONRecordLocation)
        case failure(JSONError, skipped: Bool)
        case otherFailure(String)
    }

    private func steps(_ bytes: [UInt8], layout: JSONRecordLayout, maxDepth: Int, maxValueBytes: Int, bufferSize: Int,
                       asFields: Bool) -> [Step] {
        var reader = JSONReader(source: MemoryByteSource(bytes, name: "doc.json"), layout: layout, maxDepth: maxDepth,
                                maxValueBytes: maxValueBytes, bufferSize: bufferSize)
        var steps: [Step] = []
        while steps.count < 1_000 {
            do {
                if asFields {
                    guard try reader.nextFields() else { break }
                    steps.append(.record(reader.fields.value, reader.fields.location))
                } else {
                    guard let record = try reader.nextRecord() else { break }
                    steps.append(.record(record.value, record.location))
                }
            } catch let error as JSONError {
                let skipped = (try? reader.skipFailedRecord()) == true
                steps.append(.failure(error, skipped: skipped))
                if !skipped { break }
            } catch {
                steps.append(.otherFailure("\(error)"))
                break
            }
        }
        return steps
    }

    private func expectSameReading(_ bytes: [UInt8], layout: JSONRecordLayout = .automatic, maxDepth: Int = 512,
                                   maxValueBytes: Int = 1 << 20, bufferSizes: [Int] = [1, 7, 64 * 1024], _ comment: String) {
        for bufferSize in bufferSizes {
            let values = steps(bytes, layout: layout, maxDepth: maxDepth, maxValueBytes: maxValueBytes, bufferSize: bufferSize, asFields: false)
            let fields = steps(bytes, layout: layout, maxDepth: maxDepth, maxValueBytes: maxValueBytes, bufferSize: bufferSize, asFields: true)
            #expect(fields == values, "\(comment), buffer \(bufferSize)")
        }
    }

    static let documents: [(String, JSONRecordLayout, String)] = [
        ("plain NDJSON", .lines, #"{"a": "x", "b": 12, "c": -1.5e3, "d": true, "e": false, "f": null}"# + "\n" + #"{"b": 0, "a": ""}"#),
        ("escapes and Unicode", .lines, #"{"k\u00e9y": "tab\there \"q\" \\ \/ \ud83d\ude00 中文", "ключ": "значение"}"#),
        ("nested values among plain ones", .lines,
         #"{"id": 1, "tags": ["a", {"b": [1, 2, {"c": null}]}], "owner": {"name": "x"}, "empty": {}, "none": []}"#),
        ("duplicate keys kept in order", .lines, #"{"a": 1, "a": "two", "b": 3, "a": null}"#),
        ("records that are not objects", .lines, "[1, 2]\n\"text\"\n42\nnull\n{}\ntrue"),
        ("an array of records", .automatic, #"[{"a": 1}, 2, {"b": [3]}, {}]"#),
        ("records under a key", .nested(keyPath: ["data", "items"]), #"{"meta": {"n": 2}, "data": {"items": [{"a": 1}, {"a": 2}]}}"#),
        ("one object", .automatic, #"  {"only": "one", "n": [1]}  "#),
        ("a malformed line between good ones", .lines, "{\"a\": 1}\n{\"a\": }\n{\"a\": 3}\n{\"a\" 4}\n{\"a\": 5,}\n{\"a\": 6}"),
        ("a bad escape and bad UTF-8", .lines, "{\"a\": \"\\x\"}\n{\"a\": \"\u{FF}\"}\n{\"a\": \"ok\"}"),
        ("keys that are not strings", .lines, "{a: 1}\n{1: 2}\n{\"a\": 1}"),
        ("unterminated object", .lines, "{\"a\": 1"),
        ("a value where a key goes and a key without a value", .automatic, #"[{"a": 1, }, {"a"}]"#),
        ("CR-only line ends", .automatic, "{\"a\": 1}\r{\"a\": 2}\r"),
        ("leading zeros and bad literals", .lines, "{\"n\": 01}\n{\"t\": tru}\n{\"n\": -}\n{\"ok\": 1}"),
        ("a value after a lone carriage return", .lines, "\r2\rXXXXXXXXXXXX"),
        ("lone carriage returns after objects", .lines, "{\"a\": 1}  \r {\"a\": 2}\r\n"),
    ]

    @Test("documents of every layout, good and broken, read alike", arguments: documents.indices)
    func documentsReadAlike(index: Int) {
        let (name, layout, text) = Self.documents[index]
        expectSameReading(Array(text.utf8), layout: layout, name)
    }

    /// Found by the json fuzz target comparing fields read through a 3-byte window with values
    /// read through a 5-byte one: a carriage return that had left the window was not seen, and
    /// the same line failed as "unexpected 'X'" instead of "ends with a carriage return alone".
    @Test("a reader's records and errors do not depend on its window's size", arguments: documents.indices)
    func windowSizeChangesNothing(index: Int) {
        let (name, layout, text) = Self.documents[index]
        let reference = steps(Array(text.utf8), layout: layout, maxDepth: 512, maxValueBytes: 1 << 20, bufferSize: 64 * 1024, asFields: false)
        for bufferSize in [1, 2, 3, 5, 7] {
            #expect(steps(Array(text.utf8), layout: layout, maxDepth: 512, maxValueBytes: 1 << 20, bufferSize: bufferSize, asFields: false)
                    == reference, "\(name), buffer \(bufferSize)")
        }
    }

    @Test("values past the limit are read past alike, in keys and values, strings and numbers")
    func oversizedValuesReadAlike() {
        let long = String(repeating: "x", count: 40)
        let digits = String(repeating: "9", count: 40)
        let text = """
            {"a": "\(long)", "b": 1}
            {"\(long)": 1, "b": 2}
            {"a": \(digits), "b": 3}
            {"a": ["\(long)"], "b": 4}
            {"a": "short", "b": 5}
            """
        expectSameReading(Array(text.utf8), layout: .lines, maxValueBytes: 20, bufferSizes: [7, 64], "NDJSON")
        expectSameReading(Array(("[" + text.split(separator: "\n").joined(separator: ",") + "]").utf8), maxValueBytes: 20,
                          bufferSizes: [7, 64], "array")
    }

    @Test("nesting deeper than the limit fails alike, at the record's object or inside it")
    func depthLimitReadsAlike() {
        for maxDepth in 1...5 {
            expectSameReading(Array(#"[{"a": {"b": [1]}}, {"c": 2}]"#.utf8), maxDepth: maxDepth, "array, depth \(maxDepth)")
            expectSameReading(Array("{\"a\": {\"b\": [1]}}\n{\"c\": 2}".utf8), layout: .lines, maxDepth: maxDepth, "lines, depth \(maxDepth)")
        }
        var reader = JSONReader(source: MemoryByteSource(Array(#"[{"a": {"b": [1]}}]"#.utf8)), maxDepth: 2)
        #expect(throws: JSONError.depthLimitExceeded(limit: 2, at: JSONPosition(source: "<memory>", line: 1, column: 8, byteOffset: 7))) {
            _ = try reader.nextFields()
        }
    }

    @Test("a record's plain members are reachable as bytes, its nested ones as values")
    func membersAsBytes() throws {
        var reader = JSONReader(source: MemoryByteSource(Array(#"{"name": "a\"b", "n": -0.5, "list": [1], "ok": true}"#.utf8)))
        #expect(try reader.nextFields())
        let fields = reader.fields
        #expect(fields.count == 4)
        #expect(fields.key(at: 0) == "name")
        #expect(fields.withValue(at: 0) { Array($0) } == Array(#"a"b"#.utf8))
        #expect(fields.kind(at: 1) == .number(isInteger: false))
        #expect(fields.withValue(at: 1) { String(decoding: $0, as: UTF8.self) } == "-0.5")
        #expect(fields.kind(at: 2) == .nested(0))
        #expect(fields.value(at: 2) == .array([.number(JSONNumber(1))]))
        #expect(fields.kind(at: 3) == .bool(true))
        #expect(fields.nonObject == nil)
        #expect(try !reader.nextFields())
    }

    @Test("the JSONTestSuite's documents read alike as fields and as values",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func conformanceSuiteReadsAlike() throws {
        let folder = JSONTestSupport.testSuite + "/test_parsing"
        let names = TestPaths.files(under: folder) { $0.hasSuffix(".json") }
        #expect(names.count > 300)
        for path in names {
            let bytes = Array(try #require(FileManager.default.contents(atPath: path)))
            expectSameReading(bytes, layout: .single, bufferSizes: [3, 64 * 1024], path)
            expectSameReading(bytes, layout: .automatic, bufferSizes: [64 * 1024], path)
        }
    }
}
