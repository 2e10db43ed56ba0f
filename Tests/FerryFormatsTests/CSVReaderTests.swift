import FerryFormats
import Testing

/// The reader on inputs made here: line endings, quoting, encodings, errors, buffer sizes.
struct CSVReaderTests {
    static let noHeader = CSVDialect(hasHeader: false)
    static let bufferSizes = [1, 2, 3, 7, 64, 256 * 1024]

    @Test(arguments: bufferSizes)
    func lineEndingsCRLFLFAndCRAlone(bufferSize: Int) throws {
        let expected = [["a", "b"], ["1", "2"], ["3", "4"], ["5", "6"]]
        for text in ["a,b\r\n1,2\r\n3,4\r\n5,6\r\n", "a,b\n1,2\n3,4\n5,6", "a,b\r1,2\r3,4\r5,6\r", "a,b\r\n1,2\n3,4\r5,6"] {
            #expect(try CSVTestSupport.strings(text, bufferSize: bufferSize) == expected, "\(text.debugDescription)")
        }
    }

    @Test func crOnlyLineNumbers() throws {
        let rows = try CSVTestSupport.rows(Array("a\r\"b\rc\"\rd\r".utf8))
        #expect(rows.map(\.line) == [1, 2, 4])
        #expect(rows[1].fields == [Array("b\rc".utf8)])
    }

    @Test(arguments: bufferSizes)
    func lineNumbersCountBreaksInsideQuotesAndSkippedLines(bufferSize: Int) throws {
        let text = "h1,h2\r\n\"x\r\ny\",1\r\n\r\n\"p\nq\rr\",2\n\nlast,3"
        var reader = try CSVReader(source: MemoryByteSource(Array(text.utf8)), bufferSize: bufferSize)
        let rows = try CSVTestSupport.rows(&reader)
        #expect(rows.map(\.line) == [2, 5, 9])
        #expect(rows[0].fields[0] == Array("x\r\ny".utf8))
        #expect(rows[1].fields[0] == Array("p\nq\rr".utf8))
    }

    @Test func quotingRules() throws {
        let rows = try CSVTestSupport.strings(#""a""b",5'10",x"y"z,"q"tail,"",,"#)
        #expect(rows == [["a\"b", "5'10\"", "x\"y\"z", "qtail", "", "", ""]])
    }

    @Test func wasQuotedTellsEmptyStringFromEmptyField() throws {
        let rows = try CSVTestSupport.rows(Array(#""",,"x",y"#.utf8))
        #expect(rows == [CSVTestSupport.Row(
            line: 1, fields: [[], [], Array("x".utf8), Array("y".utf8)], quoted: [true, false, true, false])])
    }

    @Test func trailingDelimiterMakesAnEmptyLastField() throws {
        #expect(try CSVTestSupport.strings("a,b,\n1,2,") == [["a", "b", ""], ["1", "2", ""]])
    }

    @Test func commentsAreSkippedOnlyAtRowStart() throws {
        let dialect = CSVDialect(hasHeader: false, comment: UInt8(ascii: "#"))
        let rows = try CSVTestSupport.strings("#c\r\na,#b\n# another\n\"#q\",1", dialect: dialect)
        #expect(rows == [["a", "#b"], ["#q", "1"]])
    }

    @Test func headerIsRead() throws {
        var reader = try CSVReader(source: MemoryByteSource(Array("name,age\nAda,36\n".utf8)))
        let header = reader.header
        #expect(header == ["name", "age"])
        #expect(try CSVTestSupport.strings(&reader) == [["Ada", "36"]])
    }

    @Test func emptyInputHasNoHeaderAndNoRows() throws {
        var reader = try CSVReader(source: MemoryByteSource([]))
        let header = reader.header
        #expect(header == nil)
        #expect(try reader.nextRow() == nil)
    }

    @Test(arguments: [1, 2, 7, 64])
    func fieldLargerThanTheBuffer(bufferSize: Int) throws {
        let big = String(repeating: "0123456789", count: 500)
        let text = "\(big),\"\(big)\"\"\(big)\"\n\(big)"
        let rows = try CSVTestSupport.strings(text, bufferSize: bufferSize)
        #expect(rows == [[big, big + "\"" + big], [big]])
    }

    @Test func unterminatedQuoteReportsTheLineWhereTheFieldBegan() throws {
        var reader = try CSVReader(source: MemoryByteSource(Array("a,b\n1,2\n3,\"open\nmore\nlines".utf8), name: "t.csv"))
        #expect(try reader.nextRow()?.line == 2)
        #expect(throws: CSVError.unterminatedQuote(source: "t.csv", line: 3)) {
            try reader.nextRow()
        }
        #expect(CSVError.unterminatedQuote(source: "t.csv", line: 3).description.contains("t.csv:3"))
    }

    @Test(arguments: [1, 2, 3, 64])
    func utf8BOMIsSkipped(bufferSize: Int) throws {
        var reader = try CSVReader(
            source: MemoryByteSource([0xEF, 0xBB, 0xBF] + Array("id,név\n1,é\n".utf8)), bufferSize: bufferSize)
        let header = reader.header
        #expect(header == ["id", "név"])
        #expect(try CSVTestSupport.strings(&reader) == [["1", "é"]])
    }

    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        let bom: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        return bom + text.utf16.flatMap { unit -> [UInt8] in
            let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
            return bigEndian ? [high, low] : [low, high]
        }
    }

    @Test(arguments: [false, true])
    func utf16WithBOMIsTranscoded(bigEndian: Bool) throws {
        let text = "name,emoji\r\n\"Zoë, \"\"Z\"\"\",🦊\r\n日本,x\r\n"
        let expected = [["Zoë, \"Z\"", "🦊"], ["日本", "x"]]
        for bufferSize in [1, 2, 3, 7, 64] {
            var reader = try CSVReader(
                source: MemoryByteSource(Self.utf16(text, bigEndian: bigEndian)), bufferSize: bufferSize)
            let header = reader.header
            #expect(header == ["name", "emoji"])
            #expect(try CSVTestSupport.strings(&reader) == expected, "buffer size \(bufferSize)")
        }
    }

    @Test func utf16ChunkedTranscodingSplitsSurrogatePairsAndCodeUnits() throws {
        let text = String(repeating: "a🦊é,", count: 40)
        for chunkSize in [4, 5, 6, 7] {
            var source = UTF8TranscodingByteSource(MemoryByteSource(Self.utf16(text, bigEndian: false)), chunkSize: chunkSize)
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 3)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
                if count == 0 { break }
                bytes += chunk[..<count]
            }
            #expect(bytes == Array(text.utf8), "chunk size \(chunkSize)")
            #expect(source.encoding == .utf16LittleEndian)
        }
    }

    /// A lone surrogate refused the whole file with a byte offset; the same fault in a UTF-8
    /// file is a field that is not UTF-8, a reject of its row with its line.
    @Test func loneSurrogateIsAFieldThatIsNotUTF8() throws {
        // Row 1 "a"; row 2 "x" then a lone low surrogate (DC00); row 3 "b" (UTF-16 LE, LF ends).
        let bytes: [UInt8] = [0xFF, 0xFE, 0x61, 0x00, 0x0A, 0x00, 0x78, 0x00, 0x00, 0xDC, 0x0A, 0x00, 0x62, 0x00, 0x0A, 0x00]
        var reader = try CSVReader(source: MemoryByteSource(bytes), dialect: Self.noHeader)
        #expect(try reader.nextRow()?.string(0) == "a")
        let second = try #require(try reader.nextRow())
        #expect(second.line == 2)
        #expect(throws: CSVError.self) { _ = try second.string(0) }
        #expect(try reader.nextRow()?.string(0) == "b")
        let truncated: [UInt8] = [0xFE, 0xFF, 0x00, 0x61, 0x00]
        #expect(throws: ByteSourceError.truncatedUTF16(source: "<memory>", byteOffset: 4)) {
            var reader = try CSVReader(source: MemoryByteSource(truncated), dialect: Self.noHeader)
            _ = try reader.nextRow()
        }
    }

    @Test func invalidUTF8NamesLineAndField() throws {
        var reader = try CSVReader(source: MemoryByteSource(Array("a,b\n\"x\ny\",".utf8) + [0xE9]), dialect: Self.noHeader)
        #expect(try reader.nextRow()?.strings() == ["a", "b"])
        let row = try #require(try reader.nextRow())
        #expect(row.withField(1) { Array($0) } == [0xE9])
        #expect(throws: CSVError.invalidUTF8(source: "<memory>", line: 2, field: 2)) { try row.string(1) }
        #expect(try row.string(0) == "x\ny")
    }

    @Test func windows1252DecodesEveryFieldUnlessAByteOrderMarkSaysUnicode() throws {
        var reader = try CSVReader(
            source: MemoryByteSource(Array("é,".utf8) + [0xE9]), dialect: Self.noHeader, textPolicy: .windows1252)
        #expect(try reader.nextRow()?.strings() == ["Ã©", "é"])
        var marked = try CSVReader(
            source: MemoryByteSource([0xEF, 0xBB, 0xBF] + Array("é,x".utf8)), dialect: Self.noHeader, textPolicy: .windows1252)
        #expect(try marked.nextRow()?.strings() == ["é", "x"])
    }

    @Test func missingFileIsATypedError() {
        #expect(throws: ByteSourceError.self) { try FileByteSource(path: "/nonexistent/ferry/file.csv") }
        do {
            _ = try FileByteSource(path: "/nonexistent/ferry/file.csv")
        } catch {
            #expect("\(error)".hasPrefix("/nonexistent/ferry/file.csv: cannot open"))
        }
    }
}
