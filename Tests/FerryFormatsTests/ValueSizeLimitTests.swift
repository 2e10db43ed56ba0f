import FerryFormats
import Testing

/// A value larger than the readers' limit is refused with its place, and the readers do not
/// keep it: the default limit is 512 MiB, tests lower it.
struct ValueSizeLimitTests {
    @Test func aCSVFieldPastTheLimitMarksItsRowAndTheNextRowsReadAsUsual() throws {
        let long = String(repeating: "x", count: 40)
        let text = "a,b,c\n1,\(long),3\n4,\"\(String(repeating: "\"\"", count: 20))\",6\n7,8,9\n1234567890,abcdefghij,\"ab\ncdefghi\"\n"
        var reader = try CSVReader(source: MemoryByteSource(Array(text.utf8)), maxFieldBytes: 10, bufferSize: 4)
        var rows: [CSVRow] = []
        while let row = try reader.nextRow() { rows.append(row) }
        #expect(rows.map(\.line) == [2, 3, 4, 5])
        #expect(rows.map(\.oversizedField) == [1, 1, nil, nil])
        #expect(rows.map(\.count) == [3, 3, 3, 3])
        #expect(try rows[0].strings() == ["1", "", "3"])
        #expect(try rows[3].strings() == ["1234567890", "abcdefghij", "ab\ncdefghi"])
        #expect(throws: CSVError.fieldTooLarge(source: "<memory>", line: 2, field: 2, limit: 10)) { try rows[0].check() }
        #expect(throws: Never.self) { try rows[3].check() }
        // A header with a field past the limit stops the reader: its names cannot be known.
        #expect(throws: CSVError.fieldTooLarge(source: "<memory>", line: 1, field: 1, limit: 10)) {
            _ = try CSVReader(source: MemoryByteSource(Array("averyveryverylongname,b\n1,2\n".utf8)), maxFieldBytes: 10)
        }
    }

    @Test func aJSONValuePastTheLimitIsAnErrorAtItsStart() throws {
        let long = String(repeating: "y", count: 100)
        let document = "[{\"a\": 1},\n {\"a\": \"\(long)\"}]"
        var reader = JSONReader(source: MemoryByteSource(Array(document.utf8)), maxValueBytes: 50, bufferSize: 8)
        #expect(try reader.nextRecord() != nil)
        let error = try #require(throws: JSONError.self) { try reader.nextRecord() }
        #expect(error == .valueTooLarge(limit: 50, at: JSONPosition(source: "<memory>", line: 2, column: 8, byteOffset: 18)))
        #expect(error.description.contains("longer than 50 bytes"))
        #expect(try reader.skipMalformedLine() == false)
    }

    @Test func aWindowGrownForALongStringShrinksBackAndPositionsStayExact() throws {
        let long = String(repeating: "w", count: 1000)
        let document = "[{\"a\": \"\(long)\"},\n {\"b\": 1},\n {\"c\": tru}]"
        var reader = JSONReader(source: MemoryByteSource(Array(document.utf8)), bufferSize: 8)
        #expect(try reader.nextRecord()?.value == .object([(key: "a", value: .string(long))]))
        #expect(try reader.nextRecord()?.location.line == 2)
        let error = try #require(throws: JSONError.self) { try reader.nextRecord() }
        #expect(error.position.line == 3 && error.position.column == 8, "\(error)")
    }

    @Test func anNDJSONLineWithAValuePastTheLimitIsSkippedAndTheNextLinesRead() throws {
        let lines = "{\"a\": 1}\n{\"a\": \"\(String(repeating: "z", count: 1000))\", \"b\": 2}\n{\"a\": 3}\n"
        var reader = JSONReader(source: MemoryByteSource(Array(lines.utf8)), layout: .lines, maxValueBytes: 64, bufferSize: 16)
        #expect(try reader.nextRecord() != nil)
        #expect(throws: JSONError.valueTooLarge(limit: 64, at: JSONPosition(source: "<memory>", line: 2, column: 7, byteOffset: 15))) {
            try reader.nextRecord()
        }
        #expect(try reader.skipMalformedLine())
        #expect(try reader.nextRecord()?.location.line == 3)
        #expect(try reader.nextRecord() == nil)
    }
}
