@testable import FerryFormats
import Testing

/// Only a reader that refuses the record reads past a long value: parsing a whole text
/// (`JSONValue(parsing:)`) never gets a null in a long value's place.
struct JSONScannerLimitTests {
    @Test func aScannerThatDoesNotReadPastLongValuesThrowsAtThem() throws {
        let text = Array("[\"\(String(repeating: "v", count: 40))\"]".utf8)
        var strict = JSONScanner(source: MemoryByteSource(text), maxDepth: 8, maxTokenBytes: 16, bufferSize: 8)
        #expect(throws: JSONError.valueTooLarge(limit: 16, at: JSONPosition(source: "<memory>", line: 1, column: 2, byteOffset: 1))) {
            try strict.parseValue(depth: 0)
        }
        var lenient = JSONScanner(source: MemoryByteSource(text), maxDepth: 8, maxTokenBytes: 16, bufferSize: 8)
        lenient.readsPastLongTokens = true
        #expect(try lenient.parseValue(depth: 0) == .array([.null]))
        #expect(lenient.oversizedAt?.column == 2)
    }
}
