@testable import Ferry
import FerryStore
import Testing

@Suite("query cells")
struct QueryCellTests {
    private func iso(_ seconds: Double) -> String {
        var out: [UInt8] = []
        ISODateBytes.append(referenceSeconds: seconds, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test("dates are ISO 8601 UTC, with milliseconds only when not whole seconds")
    func dates() {
        #expect(iso(0) == "2001-01-01T00:00:00Z")
        #expect(iso(86_400.5) == "2001-01-02T00:00:00.500Z")
        #expect(iso(-978_307_200) == "1970-01-01T00:00:00Z")
        #expect(iso(-978_307_201) == "1969-12-31T23:59:59Z")
        #expect(iso(736_246_800) == "2024-05-01T09:00:00Z")
        #expect(iso(.infinity) == "inf")
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
