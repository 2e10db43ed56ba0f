@testable import Ferry
import FerryModel
import FerryStore
import Testing

@Suite("query cells")
struct QueryCellTests {
    @Test("dates are ISO 8601 UTC with the exact fraction, the same text as export and predicates read")
    func dates() {
        #expect(ISO8601Date.format(0) == "2001-01-01T00:00:00.000Z")
        #expect(ISO8601Date.format(86_400.5) == "2001-01-02T00:00:00.500Z")
        #expect(ISO8601Date.format(-978_307_200) == "1970-01-01T00:00:00.000Z")
        #expect(ISO8601Date.format(-978_307_201) == "1969-12-31T23:59:59.000Z")
        #expect(ISO8601Date.format(736_246_800.123456) == "2024-05-01T09:00:00.123456Z")
        #expect(ISO8601Date.format(.infinity) == nil)
        for text in ["2024-05-01", "2024-05-01T09:00", "2024-05-01 09:00:00,25", "2024-05-01T17:00:00+08:00", "2024-05-01T17:00:00+0800"] {
            #expect(ISO8601Date.parse(text) != nil, "\(text)")
        }
        #expect(ISO8601Date.parse("2024-05-01T17:00:00+08:00") == ISO8601Date.parse("2024-05-01T09:00:00Z"))
        #expect(ISO8601Date.parse("2024-02-30") == nil)
    }

    @Test("--var values are their text as written, typed later by the attribute they are compared with")
    func variables() {
        let variables = PredicateVariableText.variables([("N", "Null"), ("Q", "'42'"), ("N", "YES")])
        #expect(variables == ["N": .text("YES"), "Q": .text("'42'")])
    }
}
