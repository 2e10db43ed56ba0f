import FerryMigration
import FerryModel
import Testing

/// A record and run-time variables for evaluating expressions in tests.
struct ExpressionRecord: ExpressionContext {
    var attributes: [String: AttributeValue] = [:]
    var variables: [String: String] = [:]

    func value(of attribute: String) -> AttributeValue? { attributes[attribute] }
    func variable(_ name: String) -> String? { variables[name] }
}

enum ExpressionHarness {
    /// The value of `text` for the record, recording an issue when it does not parse or fails.
    static func value(_ text: String, _ attributes: [String: AttributeValue] = [:], zone: String? = nil,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) -> AttributeValue? {
        do {
            let expression = try MappingExpression(parsing: text, line: 1, column: 1)
            let record = ExpressionRecord(attributes: attributes, variables: zone.map { ["zone": $0] } ?? [:])
            switch expression.evaluate(record) {
            case let .success(value): return value
            case let .failure(failure):
                Issue.record("\(text) failed: \(failure)", sourceLocation: sourceLocation)
                return nil
            }
        } catch {
            Issue.record("\(text) does not parse: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The failure reason of `text` for the record, or nil when it gives a value (or does not parse).
    static func failure(_ text: String, _ attributes: [String: AttributeValue] = [:], variables: [String: String] = [:]) -> String? {
        guard let expression = try? MappingExpression(parsing: text, line: 1, column: 1),
              case let .failure(failure) = expression.evaluate(ExpressionRecord(attributes: attributes, variables: variables)) else { return nil }
        return failure.reason
    }

    /// The syntax error of `text` placed at line 7, column 13 of a mapping file.
    static func syntaxError(_ text: String) -> ExpressionSyntaxError? {
        do {
            _ = try MappingExpression(parsing: text, line: 7, column: 13)
            return nil
        } catch {
            return error
        }
    }

    /// Seconds since 2001 of an ISO 8601 text, for expected dates.
    static func date(_ iso: String) -> AttributeValue {
        ISO8601Date.parse(iso).map { .date($0) } ?? .null
    }
}
