import FerryFormats
import FoundationEssentials
import Testing

/// Quotes that break RFC 4180, text after a closing quote (`"a"x`) and a quote inside an unquoted
/// field (`a"b`, ` "a"`): strict by default (the row says which field, for its reader to reject),
/// read as written under the lenient rule.
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
        #expect(rows.map(\.quoteBreak?.field) == [1, nil, 2, nil])
        #expect(try rows.map { try $0.strings() } == [["ax", "b"], ["ok", "fine"], ["c", "d "], ["e\"q\"", "f"]])
        #expect(throws: CSVError.textAfterQuote(source: "q.csv", line: 1, field: 1)) { try rows[0].check() }
        #expect(throws: CSVError.textAfterQuote(source: "q.csv", line: 3, field: 2)) { try rows[2].check() }
        #expect(throws: Never.self) { try rows[1].check() }
        #expect(throws: Never.self) { try rows[3].check() }
    }

    @Test("lenient: the text joins the field and nothing is flagged", arguments: [1, 64])
    func lenient(bufferSize: Int) throws {
        let rows = try rows(.lenient, bufferSize: bufferSize)
        #expect(rows.allSatisfy { $0.quoteBreak == nil })
        #expect(try rows[0].strings() == ["ax", "b"])
    }

    @Test("strict: a quote inside an unquoted field (a space before an opening quote) is named with its line and field",
          arguments: [1, 2, 5, 64])
    func quoteInUnquotedField(bufferSize: Int) throws {
        let text = "1, \"Smith\", \"x\"\n2,5'10\",y\n3,\"ok\",z\n4,\"a\" \"b\",w\n"
        for rule in CSVQuoteRule.allCases {
            var reader = try CSVReader(source: MemoryByteSource(Array(text.utf8), name: "s.csv"),
                                       dialect: CSVDialect(hasHeader: false, quoteRule: rule), bufferSize: bufferSize)
            var rows: [CSVRow] = []
            while let row = try reader.nextRow() { rows.append(row) }
            // The bytes read the same under both rules.
            #expect(try rows.map { try $0.strings() }
                == [["1", " \"Smith\"", " \"x\""], ["2", "5'10\"", "y"], ["3", "ok", "z"], ["4", "a \"b\"", "w"]])
            if rule == .lenient {
                #expect(rows.allSatisfy { $0.quoteBreak == nil })
                continue
            }
            #expect(rows.map(\.quoteBreak) == [.quoteInUnquotedField(source: "s.csv", line: 1, field: 2),
                                                 .quoteInUnquotedField(source: "s.csv", line: 2, field: 2), nil,
                                                 .textAfterQuote(source: "s.csv", line: 4, field: 2)])
            #expect(throws: CSVError.quoteInUnquotedField(source: "s.csv", line: 1, field: 2)) { try rows[0].check() }
        }
        #expect(CSVError.quoteInUnquotedField(source: "s.csv", line: 1, field: 2).description
            == "s.csv:1: field 2 has a quote but does not start with one (as in a\"b, or a space before \"a\")")
        #expect(throws: CSVError.quoteInUnquotedField(source: "h.csv", line: 1, field: 2)) {
            _ = try CSVReader(source: MemoryByteSource(Array("id, \"name\"\n".utf8), name: "h.csv"))
        }
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

    /// The conformance suites' CSV files whose rows break the rule when read as RFC 4180 (text
    /// after a closing quote, or a quote inside an unquoted field): under the strict default these
    /// rows become rejects when imported (their bytes read as before). Only rust-csv's strange.csv
    /// does, whose own dialect (`;`, backslash escapes) reads cleanly.
    @Test("which corpus files break RFC 4180's quoting", .enabled(if: CSVTestSupport.corpusAvailable, "needs ../shared/corpus"))
    func corpusFiles() throws {
        var breaking: [String] = []
        for folder in [CSVTestSupport.spectrum + "/csvs", CSVTestSupport.rustExamples] {
            let names = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".csv") }.sorted()
            #expect(!names.isEmpty)
            for name in names {
                var reader = try CSVReader(source: FileByteSource(path: folder + "/" + name), dialect: CSVDialect(hasHeader: false))
                while let row = try reader.nextRow() {
                    if row.quoteBreak != nil { breaking.append("\(name):\(row.line)") }
                }
            }
        }
        #expect(breaking == [1, 2, 5, 6, 7].map { "strange.csv:\($0)" }, "\(breaking)")
        let ownDialect = CSVDialect(delimiter: UInt8(ascii: ";"), escape: UInt8(ascii: "\\"), hasHeader: false, comment: UInt8(ascii: "#"))
        var strange = try CSVReader(source: FileByteSource(path: CSVTestSupport.rustExamples + "/strange.csv"), dialect: ownDialect)
        while let row = try strange.nextRow() { #expect(row.quoteBreak == nil, "line \(row.line)") }
    }
}
