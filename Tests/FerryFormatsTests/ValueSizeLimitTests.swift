import FerryFormats
import Foundation
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

    @Test func aJSONValuePastTheLimitIsAnErrorAtItsStartAndTheNextRecordsRead() throws {
        let long = String(repeating: "y", count: 100)
        // Long strings (one with escaped quotes and backslashes), a long number and a long key, at
        // several depths; a window of 8 bytes makes every skip cross refills.
        let escaped = String(repeating: "\\\"\\\\", count: 30)
        let document = """
            [{"a": 1},
             {"a": "\(long)"},
             {"b": [1, {"c": "\(escaped)"}], "d": 2},
             {"e": \(String(repeating: "9", count: 80))},
             {"\(long)": 1},
             {"f": [3]}]
            """
        var reader = JSONReader(source: MemoryByteSource(Array(document.utf8)), maxValueBytes: 50, bufferSize: 8)
        #expect(try reader.nextRecord()?.value == .object([(key: "a", value: .number(JSONNumber(1)))]))
        let error = try #require(throws: JSONError.self) { try reader.nextRecord() }
        #expect(error == .valueTooLarge(limit: 50, at: JSONPosition(source: "<memory>", line: 2, column: 8, byteOffset: 18)))
        #expect(error.description.contains("longer than 50 bytes"))
        #expect(error.recordProblem == "a value longer than 50 bytes, the most a value may hold (column 8)")
        for line in 3...5 {
            #expect(try reader.skipFailedRecord())
            let next = try #require(throws: JSONError.self) { try reader.nextRecord() }
            #expect(next.position.line == line, "\(next)")
            guard case .valueTooLarge = next else { Issue.record("not a value past the limit: \(next)"); continue }
        }
        #expect(try reader.skipFailedRecord())
        let last = try #require(try reader.nextRecord())
        #expect(last.location.line == 6 && last.location.index == 5)
        #expect(try reader.nextRecord() == nil)
    }

    @Test func aLongValueThatNeverEndsOrBrokenJSONAroundOneStillEndsTheDocument() throws {
        let long = String(repeating: "y", count: 100)
        for document in ["[{\"a\": 1}, {\"a\": \"\(long)", "[{\"a\": \"\(long)\" \"b\": 2}, {\"a\": 1}]"] {
            var reader = JSONReader(source: MemoryByteSource(Array(document.utf8)), maxValueBytes: 50, bufferSize: 8)
            var failure: JSONError?
            while failure == nil {
                do { _ = try reader.nextRecord() } catch let error as JSONError { failure = error }
            }
            guard case .syntax = failure else { Issue.record("\(document): \(String(describing: failure))"); continue }
            #expect(try reader.skipFailedRecord() == false)
        }
    }

    /// What each layout reads after a record with a long value: `r` a record, `L` a record
    /// refused for its value and read past, `S` a malformed NDJSON line skipped, `E` an error
    /// that ends the document.
    @Test(arguments: [
        ("{\"a\": \"LONG\"}", JSONRecordLayout.automatic, "L"),
        ("{\"a\": \"LONG\"} x", .automatic, "E"),
        ("{\"a\": \"LONG\"}\n{\"b\": 1}\n", .automatic, "L r"),
        ("{\"a\": \"LONG\"} x\n{\"b\": 1}\n", .lines, "S r"),
        ("{\"a\": 1}\n{\"a\": \"LONG\"}\n{\"b\": 1}\n", .automatic, "r L r"),
        ("[\"LONG\", 2]", .automatic, "L r"),
        ("{\"a\": \"LONG\"}", .single, "L"),
    ])
    func everyLayoutGoesOnAfterALongValue(document: String, layout: JSONRecordLayout, expected: String) throws {
        let text = document.replacingOccurrences(of: "LONG", with: String(repeating: "q", count: 60))
        var reader = JSONReader(source: MemoryByteSource(Array(text.utf8)), layout: layout, maxValueBytes: 20, bufferSize: 7)
        var outcomes: [String] = []
        while outcomes.count < 10 {
            do {
                guard try reader.nextRecord() != nil else { break }
                outcomes.append("r")
            } catch let error as JSONError {
                let long: Bool = if case .valueTooLarge = error { true } else { false }
                guard try reader.skipFailedRecord() else {
                    outcomes.append("E")
                    break
                }
                outcomes.append(long ? "L" : "S")
            }
        }
        #expect(outcomes.joined(separator: " ") == expected)
    }

    /// A long string is read past as `parseString` would read it: a raw line feed in it is the
    /// same error (an NDJSON reader resumes at that line feed, so no line is lost or miscounted),
    /// and so is one in an array's string.
    @Test func readingPastALongStringStopsAtALineFeedInIt() throws {
        let unterminated = "{\"a\": \"" + String(repeating: "x", count: 40) + "\n{\"id\": 2}\n{\"id\": 3}\n{\"id\": 4}\n"
        var lines = JSONReader(source: MemoryByteSource(Array(unterminated.utf8)), layout: .lines, maxValueBytes: 16, bufferSize: 8)
        let error = try #require(throws: JSONError.self) { try lines.nextRecord() }
        #expect(error.position.line == 1 && error.problem.contains("control character"), "\(error)")
        #expect(try lines.skipFailedRecord())
        var read: [Int] = []
        while let record = try lines.nextRecord() { read.append(record.location.line) }
        #expect(read == [2, 3, 4])

        let broken = "[{\"a\": \"" + String(repeating: "x", count: 40) + "\nx\"},\n {\"id\": 2}]"
        var array = JSONReader(source: MemoryByteSource(Array(broken.utf8)), maxValueBytes: 16, bufferSize: 8)
        let arrayError = try #require(throws: JSONError.self) { try array.nextRecord() }
        #expect(arrayError.problem.contains("control character"), "\(arrayError)")
        #expect(try array.skipFailedRecord() == false)
    }

    @Test func aLongValueInsideARecordUnderAKeyPathIsThatRecordsReject() throws {
        let document = "{\"tasks\": [{\"a\": 1}, {\"a\": {\"b\": [\"" + String(repeating: "t", count: 40) + "\"]}}, {\"a\": 3}]}"
        var reader = JSONReader(source: MemoryByteSource(Array(document.utf8)), layout: .nested(keyPath: ["tasks"]), maxValueBytes: 16,
                                bufferSize: 8)
        #expect(try reader.nextRecord()?.location.index == 0)
        #expect(throws: JSONError.self) { try reader.nextRecord() }
        #expect(try reader.skipFailedRecord())
        #expect(try reader.nextRecord()?.location.index == 2)
        #expect(try reader.nextRecord() == nil)
    }

    /// Found by the `json` fuzz target: after a source error (then UTF-16 with an unpaired
    /// surrogate, now text of its own; here UTF-16 that ends inside a code unit) an NDJSON reader
    /// said it had skipped the line, and every later read failed the same way, so a loop going on
    /// after each skipped record never ended.
    @Test func aSourceErrorIsNotASkippableRecord() throws {
        let bytes: [UInt8] = [0xFF, 0xFE, 0x22]
        var reader = JSONReader(source: MemoryByteSource(bytes), layout: .lines, maxValueBytes: 16, bufferSize: 5)
        #expect(throws: (any Error).self) { try reader.nextRecord() }
        #expect(try reader.skipFailedRecord() == false)
    }

    @Test func longValuesBesideTheRecordsKeyAreReadPastUnseen() throws {
        let long = String(repeating: "m", count: 100)
        let document = "{\"meta\": \"\(long)\", \"records\": [{\"a\": 1}, {\"a\": 2}], \"tail\": [\"\(long)\"]}"
        var reader = JSONReader(source: MemoryByteSource(Array(document.utf8)), layout: .nested(keyPath: ["records"]), maxValueBytes: 50,
                                bufferSize: 8)
        #expect(try reader.nextRecord() != nil)
        #expect(try reader.nextRecord() != nil)
        #expect(try reader.nextRecord() == nil)
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
        #expect(try reader.skipFailedRecord())
        #expect(try reader.nextRecord()?.location.line == 3)
        #expect(try reader.nextRecord() == nil)
    }
}
