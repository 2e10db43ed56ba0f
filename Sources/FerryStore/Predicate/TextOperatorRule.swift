import FerryModel

extension Comparison {
    /// Refuses what only text can be compared by, for an attribute of `type` at `keyPath` on
    /// either side: `[c]` and `[d]`, and the string operators (`BEGINSWITH`, `ENDSWITH`,
    /// `CONTAINS`, `LIKE`, `MATCHES`), apply to String and URI attributes only. The SQL compiler
    /// and the in-memory evaluator hold a comparison to this one rule, so a filter `ferry query
    /// --where` refuses is refused in a mapping too (`fileType BEGINSWITH "1"` was false there for
    /// every record: a `where` that left out everything, exit 0).
    func checkText(_ type: AttributeType, keyPath: String) throws(FetchPredicateError) {
        guard type != .string, type != .uri else { return }
        if !options.isEmpty {
            throw .typeMismatch(keyPath: keyPath, reason: "[c] and [d] apply to strings, not to \(type.xcodeName)")
        }
        if comparisonOperator.isStringOperator {
            throw .typeMismatch(keyPath: keyPath, reason: "\(comparisonOperator.rawValue) applies to strings, not to \(type.xcodeName)")
        }
    }
}
