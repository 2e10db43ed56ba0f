import FerryFormats
import FoundationEssentials
import Testing

/// Text after a closing quote (`"a"x`): strict by default (the row says which field, for its
/// reader to reject), joined to the field under the lenient rule.
struct CSVQuoteRuleTests {
    private static let text = "\"a\"x,b\n\"ok\",\"fine\"\nc,\"d\" \n\"e\"\"q\"\"\",f\n"

    private func rows(_ rule: CSVQuoteRule, bufferSize: Int) throws -> [CSVRow] {
        var reader = try CSVReader(source: MemoryByteSource(Array(Self.text.utf8), name: "q.csv"),
                                   dialect: CSVDialect(hasHeader: false, quoteRule: rule), bufferSize: bufferSize)
        var rows: [CSVRow] = []
        while let row = try reader.nextRow() { rows.append(row) }
        return rows
    }

    @Test("strict: the first field with text after its quote is named, the row still reads as before", arguments: [1, 2, 3, 64])
    func strict(bufferSize: Int) throws {
        let rows = try rows(.strict, bufferSize: bufferSize)
        #expect(rows.map(\.textAfterQuote) == [0, nil, 1, nil])
        #expect(try rows.map { try $0.strings() } == [["ax", "b"], ["ok", "fine"], ["c", "d "], ["e\"q\"", "f"]])
        #expect(throws: CSVError.textAfterQuote(source: "q.csv", line: 1, field: 1)) { try rows[0].check() }
        #expect(throws: CSVError.textAfterQuote(source: "q.csv", line: 3, field: 2)) { try rows[2].check() }
        #expect(throws: Never.self) { try rows[1].check() }
        #expect(throws: Never.self) { try rows[3].check() }
    }

    @Test("lenient: the text joins the field and nothing is flagged", arguments: [1, 64])
    func lenient(bufferSize: Int) throws {
        let rows = try rows(.lenient, bufferSize: bufferSize)
        #expect(rows.allSatisfy { $0.textAfterQuote == nil })
        #expect(try rows[0].strings() == ["ax", "b"])
    }

    @Test("a header that breaks the rule cannot be read strictly")
    func header() throws {
        let bytes = Array("\"id\"x,name\n1,a\n".utf8)
        #expect(throws: CSVError.textAfterQuote(source: "h.csv", line: 1, field: 1)) {
            _ = try CSVReader(source: MemoryByteSource(bytes, name: "h.csv"))
        }
        let lenient = try CSVReader(source: MemoryByteSource(bytes), dialect: CSVDialect(quoteRule: .lenient))
        #expect(lenient.header == ["idx", "name"])
    }

    /// The conformance suites' CSV files whose rows break the rule when read as RFC 4180: under
    /// the strict default these rows become rejects when imported (their bytes read as before).
    /// Only rust-csv's strange.csv does, whose own dialect (`;`, backslash escapes) reads cleanly.
    @Test("which corpus files hold text after a closing quote", .enabled(if: CSVTestSupport.corpusAvailable, "needs ../shared/corpus"))
    func corpusFiles() throws {
        var breaking: [String] = []
        for folder in [CSVTestSupport.spectrum + "/csvs", CSVTestSupport.rustExamples] {
            let names = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".csv") }.sorted()
            #expect(!names.isEmpty)
            for name in names {
                var reader = try CSVReader(source: FileByteSource(path: folder + "/" + name), dialect: CSVDialect(hasHeader: false))
                while let row = try reader.nextRow() {
                    if row.textAfterQuote != nil { breaking.append("\(name):\(row.line)") }
                }
            }
        }
        #expect(breaking == [1, 2, 5, 6, 7].map { "strange.csv:\($0)" }, "\(breaking)")
        let ownDialect = CSVDialect(delimiter: UInt8(ascii: ";"), escape: UInt8(ascii: "\\"), hasHeader: false, comment: UInt8(ascii: "#"))
        var strange = try CSVReader(source: FileByteSource(path: CSVTestSupport.rustExamples + "/strange.csv"), dialect: ownDialect)
        while let row = try strange.nextRow() { #expect(row.textAfterQuote == nil, "line \(row.line)") }
    }
}
