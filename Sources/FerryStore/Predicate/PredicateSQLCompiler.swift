import FerryModel

/// Compiles a predicate to an SQL condition over the rows of a `SQLQueryScope`.
///
/// Semantics follow `NSPredicate`'s two-valued logic: a comparison with a NULL attribute is false,
/// except `!=`, which is true (`IS NOT`); `NOT p` is true when `p` is false or NULL
/// (`(p) IS NOT 1`); `ALL` is true for an empty relationship and false when any destination
/// compares false or NULL.
struct PredicateSQLCompiler {
    /// SQLite's default `SQLITE_MAX_LIKE_PATTERN_LENGTH`: a longer GLOB pattern fails when it runs.
    static let maxLikePatternBytes = 50_000

    let scope: SQLQueryScope
    let variables: [String: PredicateValue]

    func compile(_ predicate: FetchPredicate) throws(FetchPredicateError) -> SQLFragment {
        switch predicate {
        case .constant(let value): return SQLFragment(value ? "1" : "0")
        case .not(let inner): return "(" + (try compile(inner)) + ") IS NOT 1"
        case .and(let parts), .or(let parts):
            guard !parts.isEmpty else { return SQLFragment(predicate == .and([]) ? "1" : "0") }
            var compiled: [SQLFragment] = []
            for part in parts { compiled.append(try compile(part)) }
            return SQLFragment.joined(compiled, separator: predicate == .and(parts) ? "AND" : "OR")
        case .comparison(let comparison): return try compile(comparison)
        }
    }

    // MARK: Comparisons

    private func compile(_ original: Comparison) throws(FetchPredicateError) -> SQLFragment {
        var comparison = original
        if case .keyPath = comparison.left {} else if case .keyPath = comparison.right {
            guard let flipped = comparison.comparisonOperator.flipped else {
                throw .unsupported("the left side of \(comparison.comparisonOperator.rawValue) must be a key path: \(original)")
            }
            comparison = Comparison(quantifier: comparison.quantifier, comparison.right, flipped,
                                    options: comparison.options, comparison.left)
        }
        guard case .keyPath(let components) = comparison.left else {
            throw .unsupported("a comparison needs a key path: \(original)")
        }
        let keyPath = components.joined(separator: ".")
        let resolver = scope.resolver
        let steps = try resolver.steps(components, from: scope.root.entity)
        guard let manyIndex = steps.firstIndex(where: { if case .toMany = $0 { true } else { false } }),
              case let .toMany(relationship, owner) = steps[manyIndex] else {
            if let quantifier = comparison.quantifier {
                throw .unsupported("\(quantifier.rawValue) needs a to-many key path, \(keyPath) is not one")
            }
            return try compare(try resolver.scalar(steps[...], at: scope.root, joins: scope.joins, keyPath: keyPath),
                               comparison, keyPath: keyPath)
        }
        let owningPlace = try resolver.follow(steps[..<manyIndex], from: scope.root, joins: scope.joins, keyPath: keyPath)
        let isCount = manyIndex == steps.count - 2 && { if case .count = steps[steps.count - 1] { true } else { false } }()
        if isCount {
            if let quantifier = comparison.quantifier {
                throw .unsupported("\(quantifier.rawValue) cannot be used with @count: \(original)")
            }
            let source = try resolver.toMany(relationship, declaredBy: owner, from: owningPlace, aliases: scope.aliases,
                                             countOnly: true, keyPath: keyPath)
            let count = "(SELECT count(*) FROM \(source.from) WHERE \(source.link))"
            return try compare(.column(count, .integer64), comparison, keyPath: keyPath)
        }
        guard let quantifier = comparison.quantifier else {
            throw .unsupported("\(keyPath) goes through the to-many relationship \(relationship.name): use ANY, ALL or NONE")
        }
        guard manyIndex < steps.count - 1 else {
            throw .unsupported("\(quantifier.rawValue) \(keyPath): compare a key of the destination (\(keyPath).key)")
        }
        let source = try resolver.toMany(relationship, declaredBy: owner, from: owningPlace, aliases: scope.aliases,
                                         countOnly: false, keyPath: keyPath)
        let innerJoins = SQLJoins(aliases: scope.aliases)
        let term = try resolver.scalar(steps[(manyIndex + 1)...], at: source.destination, joins: innerJoins, keyPath: keyPath)
        let condition = try compare(term, comparison, keyPath: keyPath)
        let subquery = "SELECT 1 FROM \(source.from)\(innerJoins.text) WHERE \(source.link) AND ("
        switch quantifier {
        case .any: return "EXISTS (\(subquery)" + condition + "))"
        case .none: return "NOT EXISTS (\(subquery)" + condition + "))"
        case .all: return "NOT EXISTS (\(subquery)" + condition + ") IS NOT 1)"
        }
    }

    /// The condition `term operator right` for a key path term.
    private func compare(_ term: KeyPathTerm, _ comparison: Comparison, keyPath: String) throws(FetchPredicateError) -> SQLFragment {
        let op = comparison.comparisonOperator
        switch term {
        case .reference(let column):
            guard try value(of: comparison.right) == .null, op == .equal || op == .notEqual else {
                throw .typeMismatch(keyPath: keyPath, reason: "a to-one relationship can only be compared with nil (== nil, != nil)")
            }
            return SQLFragment("\(column) \(op == .equal ? "IS NULL" : "IS NOT NULL")")
        case .column(let expression, let type):
            try comparison.checkText(type, keyPath: keyPath)
            if case .keyPath(let components) = comparison.right {
                return try compareKeys(expression, type, comparison, rightComponents: components, keyPath: keyPath)
            }
            return try compareValue(expression, type, comparison, keyPath: keyPath)
        }
    }

    private func compareValue(_ expression: String, _ type: AttributeType, _ comparison: Comparison,
                              keyPath: String) throws(FetchPredicateError) -> SQLFragment {
        let op = comparison.comparisonOperator
        let options = comparison.options
        let right = try value(of: comparison.right)
        let subject = folded(expression, options)
        func convert(_ value: PredicateValue) throws(FetchPredicateError) -> StoreValue {
            try PredicateValueConversion.storeValue(value, for: type, keyPath: keyPath, options: options)
        }
        switch op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            if case .list = right { throw .typeMismatch(keyPath: keyPath, reason: "a list needs IN or BETWEEN, not \(op.rawValue)") }
            if right == .null {
                guard op == .equal || op == .notEqual else {
                    throw .typeMismatch(keyPath: keyPath, reason: "nil can only be compared with == or !=")
                }
                return SQLFragment("\(expression) \(op == .equal ? "IS NULL" : "IS NOT NULL")")
            }
            return SQLFragment("\(subject) \(op.sqlOperator) ?", [try convert(right)])
        case .between:
            guard case .list(let bounds) = right, bounds.count == 2, !bounds.contains(.null) else {
                throw .typeMismatch(keyPath: keyPath, reason: "BETWEEN needs two values: {low, high}")
            }
            return SQLFragment("\(subject) BETWEEN ? AND ?", [try convert(bounds[0]), try convert(bounds[1])])
        case .in:
            guard case .list(let elements) = right else {
                throw .typeMismatch(keyPath: keyPath, reason: "IN needs a list: {a, b, …} or a list variable")
            }
            var values: [StoreValue] = []
            for element in elements { values.append(try convert(element)) }
            return "\(subject) IN (" + SQLFragment.placeholders(values) + ")"
        case .beginsWith, .endsWith, .contains, .like, .matches:
            let text: String
            switch right {
            case .string(let string), .text(let string): text = string
            default: throw .typeMismatch(keyPath: keyPath, reason: "\(op.rawValue) needs a string, not \(right)")
            }
            switch op {
            case .like:
                let pattern = try LikePattern(text, options: options).globPattern
                guard pattern.utf8.count <= Self.maxLikePatternBytes else {
                    throw .unsupported("a LIKE pattern of \(pattern.utf8.count) bytes: SQLite takes at most \(Self.maxLikePatternBytes)")
                }
                return SQLFragment("\(subject) GLOB ?", [.text(pattern)])
            case .matches:
                do {
                    _ = try RegexCache().regex(text, caseInsensitive: false)
                } catch {
                    throw .invalidPattern(pattern: text, reason: "\(error)")
                }
                return SQLFragment("ferry_matches(\(expression), ?, \(options.rawValue))", [.text(text)])
            default:
                let function = op == .beginsWith ? "ferry_begins_with" : op == .endsWith ? "ferry_ends_with" : "ferry_contains"
                return SQLFragment("\(function)(\(subject), ?)", [.text(StringFolding.fold(text, options))])
            }
        }
    }

    /// `key operator key`: both scalar key paths of the same type family, plain comparisons only.
    private func compareKeys(_ expression: String, _ type: AttributeType, _ comparison: Comparison,
                             rightComponents: [String], keyPath: String) throws(FetchPredicateError) -> SQLFragment {
        let op = comparison.comparisonOperator
        let rightPath = rightComponents.joined(separator: ".")
        let steps = try scope.resolver.steps(rightComponents, from: scope.root.entity)
        guard case .column(let other, let otherType) = try scope.resolver.scalar(steps[...], at: scope.root, joins: scope.joins,
                                                                                 keyPath: rightPath) else {
            throw .unsupported("\(rightPath): a relationship cannot be compared with a key")
        }
        guard let family = PredicateValueConversion.family(of: type), family == PredicateValueConversion.family(of: otherType) else {
            throw .typeMismatch(keyPath: keyPath, reason: "\(type.withArticle) cannot be compared with \(rightPath) (\(otherType.xcodeName))")
        }
        guard !op.isStringOperator, op != .in, op != .between else {
            throw .unsupported("\(op.rawValue) between two key paths")
        }
        return SQLFragment("\(folded(expression, comparison.options)) \(op.sqlOperator) \(folded(other, comparison.options))")
    }

    /// `expression` wrapped in `ferry_fold` when options ask for folding.
    private func folded(_ expression: String, _ options: ComparisonOptions) -> String {
        options.isEmpty ? expression : "ferry_fold(\(expression), \(options.rawValue))"
    }

    /// The value of a non-key-path operand, variables substituted.
    private func value(of operand: PredicateOperand) throws(FetchPredicateError) -> PredicateValue {
        switch operand {
        case .value(let value): return value
        case .variable(let name):
            guard let value = variables[name] else { throw .missingVariable(name) }
            return value
        case .aggregate(let elements):
            var values: [PredicateValue] = []
            for element in elements {
                let value = try value(of: element)
                if case .list = value { throw .unsupported("a list inside a list: \(operand)") }
                values.append(value)
            }
            return .list(values)
        case .keyPath(let components):
            throw .unsupported("key path \(components.joined(separator: ".")) where a value is needed")
        }
    }
}

extension ComparisonOperator {
    /// The operator with its sides swapped (`5 < x` is `x > 5`); nil when it cannot be swapped.
    var flipped: ComparisonOperator? {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: nil
        }
    }

    /// The SQL of a plain comparison; `!=` is `IS NOT` so that NULL differs from every value.
    var sqlOperator: String {
        switch self {
        case .notEqual: "IS NOT"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        default: "="
        }
    }
}
