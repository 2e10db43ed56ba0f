import FerryFormats
import Testing

/// What the reader does with lines that hold no record, and with rows too wide to read.
struct CSVReaderLineRulesTests {
    static let bufferSizes = [1, 2, 3, 64, 256 * 1024]

    @Test(arguments: bufferSizes)
    func emptyAndCommentLinesAreSkippedAndCounted(bufferSize: Int) throws {
        let text = "# 導出 2014\r\n\r\n名前,値\r\n\r\n甲,1\n# 注\n\n乙,2\r\n\r\n"
        var reader = try CSVReader(source: MemoryByteSource(Array(text.utf8)), dialect: CSVDialect(comment: UInt8(ascii: "#")),
                                   bufferSize: bufferSize)
        let header = reader.header
        #expect(header == ["名前", "値"])
        #expect(reader.headerLine == 3)
        var lines: [Int] = []
        while let row = try reader.nextRow() { lines.append(row.line) }
        #expect(lines == [5, 8])
        // Before the header: a comment and an empty line; after it: 2 empty lines, a comment, an empty line.
        #expect(reader.skippedLines == 6)
    }

    @Test func aCommentAtTheEndWithoutALineBreakIsCounted() throws {
        var reader = try CSVReader(source: MemoryByteSource(Array("a,b\n1,2\n# end".utf8)), dialect: CSVDialect(comment: UInt8(ascii: "#")))
        #expect(try CSVTestSupport.strings(&reader) == [["1", "2"]])
        #expect(reader.skippedLines == 1)
    }

    @Test(arguments: bufferSizes)
    func anEmptyLineOfAOneColumnFileIsSkippedAQuotedEmptyFieldIsARow(bufferSize: Int) throws {
        let text = "\n备注\n第一\n\n第三\r\n\r\n\"\"\n\n"
        var reader = try CSVReader(source: MemoryByteSource(Array(text.utf8)), bufferSize: bufferSize)
        let header = reader.header
        #expect(header == ["备注"])
        let rows = try CSVTestSupport.rows(&reader)
        #expect(rows.map(\.line) == [3, 5, 7])
        #expect(rows.map(\.fields) == [[Array("第一".utf8)], [Array("第三".utf8)], [[]]])
        #expect(rows.map(\.quoted) == [[false], [false], [true]])
        // The empty lines before the header, after 第一, after 第三 and at the end.
        #expect(reader.skippedLines == 4)
    }

    @Test func withoutAHeaderEmptyLinesAreSkipped() throws {
        var reader = try CSVReader(source: MemoryByteSource(Array("x\n\ny\n".utf8)), dialect: CSVDialect(hasHeader: false))
        #expect(try CSVTestSupport.strings(&reader) == [["x"], ["y"]])
        #expect(reader.skippedLines == 1)
    }

    @Test(arguments: [1, 7, 64 * 1024])
    func aHeaderWiderThanTheLimitIsAnErrorWithItsLine(bufferSize: Int) {
        let text = "\n\n" + String(repeating: ",", count: 10_000) + "\n1\n"
        #expect(throws: CSVError.tooManyFields(source: "wide.csv", line: 3, limit: 10_000)) {
            _ = try CSVReader(source: MemoryByteSource(Array(text.utf8), name: "wide.csv"), bufferSize: bufferSize)
        }
    }

    @Test func aRowWiderThanTheLimitIsAnErrorWithItsLine() throws {
        let limit = 4
        let text = "a,b\n1,2\n\"x\ny\",\"\",3,4\n1,2,3,4,5\n"
        var reader = try CSVReader(source: MemoryByteSource(Array(text.utf8), name: "t.csv"), maxFields: limit)
        #expect(try reader.nextRow()?.count == 2)
        #expect(try reader.nextRow()?.count == 4)
        #expect(throws: CSVError.tooManyFields(source: "t.csv", line: 5, limit: limit)) { try reader.nextRow() }
        #expect(CSVError.tooManyFields(source: "t.csv", line: 5, limit: limit).description == "t.csv:5: the row has more than 4 fields")
    }

    @Test func exactlyTheLimitIsRead() throws {
        let header = (1...10_000).map { "c\($0)" }.joined(separator: ",")
        var reader = try CSVReader(source: MemoryByteSource(Array((header + "\n" + String(repeating: ",", count: 9_999)).utf8)))
        #expect(reader.header?.count == 10_000)
        #expect(try reader.nextRow()?.count == 10_000)
    }
}
