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
        let windows = try firstRow(bytes, policy: .windows1252)
        #expect(try windows.string(2) == "café")
    }

    @Test("Windows-1252: every field decoded alike, valid UTF-8 or not; 0x80–0x9F as Windows has them, not control characters")
    func windows1252() throws {
        // Row 1 is not UTF-8, row 2's field happens to be: C3 A9 is "Ã©" in both (it was "é" in row 2).
        let bytes: [UInt8] = [0x93, 0x71, 0x94, 0x20, 0x80, 0x2C, 0xC3, 0xA9, 0x74, 0xE9, 10, 0xC3, 0xA9, 0x2C, 0x78, 10]
        var reader = try CSVReader(source: MemoryByteSource(bytes), dialect: CSVDialect(hasHeader: false), textPolicy: .windows1252)
        #expect(try reader.nextRow()?.strings() == ["“q” €", "Ã©té"])
        #expect(try reader.nextRow()?.strings() == ["Ã©", "x"])
        let high = (0x80...0x9F).map { UInt8($0) }
        let decoded = high.withUnsafeBytes { Windows1252.string($0) }
        #expect(decoded == "€\u{81}‚ƒ„…†‡ˆ‰Š‹Œ\u{8D}Ž\u{8F}\u{90}‘’“”•–—˜™š›œ\u{9D}žŸ")
        let rest = (0...0xFF).filter { !(0x80...0x9F).contains($0) }.map { UInt8($0) }
        #expect(rest.withUnsafeBytes { Windows1252.string($0) }.unicodeScalars.map(\.value) == rest.map { UInt32($0) })
    }
}
