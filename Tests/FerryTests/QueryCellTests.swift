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

    @Test("--var values take their type; quoted text stays a string")
    func variables() {
        #expect(PredicateVariableText.value("42") == .integer(42))
        #expect(PredicateVariableText.value("2.5") == .real(2.5))
        #expect(PredicateVariableText.value("YES") == .bool(true))
        #expect(PredicateVariableText.value("nil") == .null)
        #expect(PredicateVariableText.value("'42'") == .string("42"))
        #expect(PredicateVariableText.value("x'; DROP TABLE Z") == .string("x'; DROP TABLE Z"))
    }
}
