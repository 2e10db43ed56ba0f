import FerryMigration
import Testing

/// Hostile mapping expressions: nesting and chains past the limits are syntax errors at the
/// token that passes them, never a stack overflow; at the limits they parse, evaluate, print and
/// type-check.
@Suite("mapping expression limits")
struct ExpressionLimitTests {
    @Test("10,000 nested parentheses, nots, minus signs or if … else are refused where the limit is passed")
    func nesting() throws {
        let limit = MappingExpression.maxNesting
        let cases: [(text: String, column: Int)] = [
            (String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000), 13 + limit),
            (String(repeating: "not ", count: 10_000) + "a", 13 + 4 * (limit - 1)),
            (String(repeating: "- ", count: 10_000) + "a", 13 + 2 * (limit - 1)),
            (String(repeating: "a if b else ", count: 10_000) + "a", 13 + 12 * limit),
            (String(repeating: "trim(", count: 10_000) + "a" + String(repeating: ")", count: 10_000), 13 + 5 * limit),
        ]
        for (text, column) in cases {
            let error = try #require(ExpressionHarness.syntaxError(text))
            #expect(error.line == 7 && error.column == column && error.message.contains("nests deeper than \(limit) levels"), "\(error)")
        }
        let deepest = String(repeating: "(", count: limit - 1) + "a + 1" + String(repeating: ")", count: limit - 1)
        #expect(ExpressionHarness.value(deepest, ["a": .integer(1)]) == .integer(2))
    }

    @Test("signs in a row print without parentheses, so the printed text parses back within the limit (found by fuzzing)")
    func signsPrintFlat() throws {
        let text = "a - " + String(repeating: "-", count: MappingExpression.maxNesting - 2) + "a"
        let expression = try MappingExpression(parsing: text, line: 1, column: 1)
        #expect(expression.description == "a - " + Array(repeating: "-", count: MappingExpression.maxNesting - 2).joined(separator: " ") + "a")
        #expect(try MappingExpression(parsing: expression.description, line: 1, column: 1).description == expression.description)
        #expect(try MappingExpression(parsing: "-(-a) * -(-3) - -(1 + a)", line: 1, column: 1).description == "- -a * - -3 - -(1 + a)")
        #expect(ExpressionHarness.value("- -a * - -3 - -(1 + a)", ["a": .integer(2)]) == .integer(9))
        // A sign before a number in parentheses is an operation, not a negative number: `-(0)` stays one.
        let numbers = try MappingExpression(parsing: "-(0) - -(2.5) - - -0 - -7", line: 1, column: 1).description
        #expect(numbers == "-(0) - -(2.5) - -(0) - -7")
        #expect(try MappingExpression(parsing: numbers, line: 1, column: 1).description == numbers)
    }

    @Test("a 100,000-term sum is refused at the operator past the limit; 256 terms evaluate, print and type-check")
    func chains() throws {
        let limit = MappingExpression.maxDepth
        let long = Array(repeating: "a", count: 100_000).joined(separator: " + ")
        let error = try #require(ExpressionHarness.syntaxError(long))
        #expect(error.column == 13 + 4 * limit - 2 && error.message.contains("more than \(limit) operations deep"), "\(error)")
        let atLimit = Array(repeating: "a", count: limit).joined(separator: " + ")
        #expect(ExpressionHarness.value(atLimit, ["a": .integer(2)]) == .integer(Int64(2 * limit)))
        let expression = try MappingExpression(parsing: atLimit, line: 1, column: 1)
        #expect(expression.description == atLimit)
        #expect(try expression.resultType(attributes: ["a": .integer64]) == .integer64)
        // Grouped, the same number of terms is shallow.
        let grouped = (0..<8).map { _ in "(" + Array(repeating: "a", count: limit / 4).joined(separator: " + ") + ")" }.joined(separator: " + ")
        #expect(ExpressionHarness.value(grouped, ["a": .integer(1)]) == .integer(Int64(2 * limit)))
    }
}
