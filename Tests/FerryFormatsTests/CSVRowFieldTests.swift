import FerryFormats
import Testing

@Suite("CSV row fields as bytes and strings")
struct CSVRowFieldTests {
    private func firstRow(_ bytes: [UInt8], policy: CSVTextPolicy = .strictUTF8) throws -> CSVRow {
        var reader = try CSVReader(source: MemoryByteSource(bytes), dialect: CSVDialect(hasHeader: false), textPolicy: policy)
        return try #require(try reader.nextRow())
    }

    @Test("withField lends each field's unescaped bytes")
    func lentBytes() throws {
        let row = try firstRow(Array("12,\"a\"\"b\",,x y\n".utf8))
        #expect(row.withField(0) { Array($0) } == Array("12".utf8))
        #expect(row.withField(1) { Array($0) } == Array("a\"b".utf8))
        #expect(row.withField(2) { $0.count } == 0)
        #expect(row.withField(3) { Array($0) } == Array("x y".utf8))
    }

    @Test("strings: ASCII, UTF-8, and bytes that are not UTF-8 under each policy")
    func strings() throws {
        let bytes: [UInt8] = Array("plain,中文 é,".utf8) + [0x63, 0x61, 0x66, 0xE9] + [10]
        let strict = try firstRow(bytes)
        #expect(try strict.string(0) == "plain")
        #expect(try strict.string(1) == "中文 é")
        #expect(throws: CSVError.self) { try strict.string(2) }
        let latin1 = try firstRow(bytes, policy: .latin1Fallback)
        #expect(try latin1.string(2) == "café")
    }
}
