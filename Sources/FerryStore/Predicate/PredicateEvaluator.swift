import FerryFormats
import FerryModel

/// Evaluates a predicate on one record in memory, with `NSPredicate`'s semantics, for records
/// that are not in a store (mapping source filters over file records).
///
/// Only key paths of one component (an attribute of the record) are available. A comparison with
/// nil is false except `== nil` (true when nil) and `!= nil`; numbers compare across integer and
/// real, booleans with 0/1, dates with dates or numbers (seconds since 2001); `[c]`/`[d]` fold as
/// the SQL side does; `LIKE` reads its pattern as `LikePattern` does (`*`, `?`, `\` escapes), as the
/// SQL side does; `MATCHES` is a whole-string regular expression.
/// Text compares by its UTF-8 bytes, as SQLite and Core Data's SQL store do, never by Swift's
/// canonical equivalence: `é` and `e` + U+0301 differ here as they do in `ferry query --where`.
public final class PredicateEvaluator {
    public let predicate: FetchPredicate
    private let regexes = RegexCache()
    private var likePatterns: [LikePatternKey: LikePattern] = [:]
    private let variables: [String: PredicateValue]

    /// Checks the predicate once: key paths must be single attributes of `attributes`, variables
    /// given. A key among `relationships` (the entity's) is refused as one a record filter cannot
    /// compare, not as a name the entity lacks.
    public init(_ predicate: FetchPredicate, attributes: Set<String>, entity: String, relationships: Set<String> = [],
                variables: [String: PredicateValue] = [:]) throws(FetchPredicateError) {
        self.predicate = predicate
        self.variables = variables
        do { try Self.check(predicate, attributes: attributes, entity: entity, variables: variables) } catch {
            if case let .unknownKey(key, _, _) = error, relationships.contains(key) {
                throw .unsupported("\(key) is a relationship of \(entity): a record filter compares attributes of the record only")
            }
            throw error
        }
    }

    /// The same with the attributes' types: a value compared with an attribute is held to the
    /// rules `ferry query --where` compiles it by (`PredicateValueConversion`), so the two agree
    /// on the same text. `fileType == "0"` matched 0 in SQL and nothing here (a mapping's `where`
    /// filtered every record out, exit 0); `name == 5` was refused there and false here.
    public convenience init(_ predicate: FetchPredicate, types: [String: AttributeType], entity: String, relationships: Set<String> = [],
                            variables: [String: PredicateValue] = [:]) throws(FetchPredicateError) {
        try self.init(try Self.typed(predicate, types: types), attributes: Set(types.keys), entity: entity, relationships: relationships,
                      variables: variables)
    }

    /// `predicate` with each value compared with an attribute (`==`, `!=`, `<`, `<=`, `>`, `>=`,
    /// `BETWEEN`, `IN`) checked against the attribute's type and written in the form the
    /// evaluator compares with the record's value, and each comparison held to the rule of what
    /// only text is compared by (`Comparison.checkText`), as the SQL compiler holds it.
    private static func typed(_ predicate: FetchPredicate, types: [String: AttributeType]) throws(FetchPredicateError) -> FetchPredicate {
        switch predicate {
        case .constant: return predicate
        case .not(let inner): return .not(try typed(inner, types: types))
        case .and(let parts): return .and(try parts.map { (part) throws(FetchPredicateError) in try typed(part, types: types) })
        case .or(let parts): return .or(try parts.map { (part) throws(FetchPredicateError) in try typed(part, types: types) })
        case .comparison(var comparison):
            for case .keyPath(let path) in [comparison.left, comparison.right] where path.count == 1 {
                if let type = types[path[0]] { try comparison.checkText(type, keyPath: path[0]) }
            }
            let ordered: Set<ComparisonOperator> = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .in]
            guard ordered.contains(comparison.comparisonOperator) else { return predicate }
            if case .keyPath(let path) = comparison.left, path.count == 1, let type = types[path[0]] {
                comparison.right = try literal(comparison.right, type: type, keyPath: path[0])
            } else if case .keyPath(let path) = comparison.right, path.count == 1, let type = types[path[0]] {
                comparison.left = try literal(comparison.left, type: type, keyPath: path[0])
            }
            return .comparison(comparison)
        }
    }

    /// A literal operand (or a list of them) as compared with an attribute of `type`.
    private static func literal(_ operand: PredicateOperand, type: AttributeType, keyPath: String) throws(FetchPredicateError) -> PredicateOperand {
        switch operand {
        case .value(let value): return .value(try literal(value, type: type, keyPath: keyPath))
        case .aggregate(let items):
            return .aggregate(try items.map { (item) throws(FetchPredicateError) in try literal(item, type: type, keyPath: keyPath) })
        default: return operand
        }
    }

    /// Strings keep their text: the evaluator folds them for `[c]`/`[d]` itself.
    private static func literal(_ value: PredicateValue, type: AttributeType, keyPath: String) throws(FetchPredicateError) -> PredicateValue {
        if case .list(let items) = value {
            return .list(try items.map { (item) throws(FetchPredicateError) in try literal(item, type: type, keyPath: keyPath) })
        }
        let stored = try PredicateValueConversion.storeValue(value, for: type, keyPath: keyPath, options: [])
        switch (type, stored) {
        case (.uuid, .blob(let bytes)): return UUIDBytes(bytes).map { .string($0.description) } ?? value
        case (.string, _), (.uri, _): return value
        case (_, .integer(let number)): return .integer(number)
        case (_, .real(let number)): return .real(number)
        default: return value
        }
    }

    /// Whether the record (attribute name → value) satisfies the predicate.
    public func matches(_ value: (String) -> AttributeValue?) throws(FetchPredicateError) -> Bool {
        try evaluate(predicate, value)
    }

    private func evaluate(_ predicate: FetchPredicate, _ record: (String) -> AttributeValue?) throws(FetchPredicateError) -> Bool {
        switch predicate {
        case .constant(let flag): return flag
        case .not(let inner): return try !evaluate(inner, record)
        case .and(let parts):
            for part in parts where try !evaluate(part, record) { return false }
            return true
        case .or(let parts):
            for part in parts where try evaluate(part, record) { return true }
            return false
        case .comparison(let comparison):
            return try compare(comparison, record)
        }
    }

    private func operand(_ operand: PredicateOperand, _ record: (String) -> AttributeValue?) -> PredicateValue {
        switch operand {
        case .keyPath(let path): return path.first.flatMap(record).map(Self.predicateValue) ?? .null
        case .value(let value): return value
        case .variable(let name): return variables[name] ?? .null
        case .aggregate(let items): return .list(items.map { self.operand($0, record) })
        }
    }

    private func compare(_ comparison: Comparison, _ record: (String) -> AttributeValue?) throws(FetchPredicateError) -> Bool {
        let left = operand(comparison.left, record)
        let right = operand(comparison.right, record)
        let options = comparison.options
        switch comparison.comparisonOperator {
        case .equal: return Self.equal(left, right, options)
        case .notEqual: return !Self.equal(left, right, options)
        case .less: return Self.order(left, right, options).map { $0 < 0 } ?? false
        case .lessOrEqual: return Self.order(left, right, options).map { $0 <= 0 } ?? false
        case .greater: return Self.order(left, right, options).map { $0 > 0 } ?? false
        case .greaterOrEqual: return Self.order(left, right, options).map { $0 >= 0 } ?? false
        case .between:
            guard case let .list(bounds) = right, bounds.count == 2,
                  let low = Self.order(left, bounds[0], options), let high = Self.order(left, bounds[1], options) else { return false }
            return low >= 0 && high <= 0
        case .in:
            guard case let .list(items) = right else { return Self.equal(left, right, options) }
            return items.contains { Self.equal(left, $0, options) }
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard case let .string(text) = left, case let .string(pattern) = right else { return false }
            let subject = StringFolding.fold(text, options)
            switch comparison.comparisonOperator {
            case .beginsWith: return subject.utf8.starts(with: StringFolding.fold(pattern, options).utf8)
            case .endsWith: return subject.utf8.reversed().starts(with: StringFolding.fold(pattern, options).utf8.reversed())
            case .contains:
                let needle = StringFolding.fold(pattern, options)
                return needle.isEmpty || Self.containsBytes(subject, needle)
            case .like: return try likePattern(pattern, options).matches(subject)
            default:
                do { return try regexes.matches(text, pattern: pattern, options: options) } catch {
                    throw .invalidPattern(pattern: pattern, reason: "\(error)")
                }
            }
        }
    }

    static func predicateValue(_ value: AttributeValue) -> PredicateValue {
        switch value {
        case .null: .null
        case .binary: .opaque
        case .integer(let number): .integer(number)
        case .double(let number): .real(number)
        case .decimal(let text): Double(text).map(PredicateValue.real) ?? .string(text)
        case .string(let text), .uri(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .date(let seconds): .date(seconds)
        case .uuid(let uuid): .string(uuid.description)
        }
    }

    private static func number(_ value: PredicateValue) -> Double? {
        switch value {
        case .integer(let number): Double(number)
        case .real(let number), .date(let number): number
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }

    private static func equal(_ left: PredicateValue, _ right: PredicateValue, _ options: ComparisonOptions) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.null, _), (_, .null), (.opaque, _), (_, .opaque): return false
        case let (.string(a), .string(b)): return StringFolding.fold(a, options).utf8.elementsEqual(StringFolding.fold(b, options).utf8)
        case let (.integer(a), .integer(b)): return a == b
        default:
            guard let a = number(left), let b = number(right) else { return false }
            return a == b
        }
    }

    /// -1, 0 or 1, or nil when the two cannot be ordered (nil, mixed kinds).
    private static func order(_ left: PredicateValue, _ right: PredicateValue, _ options: ComparisonOptions) -> Int? {
        switch (left, right) {
        case let (.string(a), .string(b)):
            let x = StringFolding.fold(a, options).utf8, y = StringFolding.fold(b, options).utf8
            return x.elementsEqual(y) ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
        case let (.integer(a), .integer(b)):
            return a == b ? 0 : (a < b ? -1 : 1)
        default:
            guard let a = number(left), let b = number(right) else { return nil }
            return a == b ? 0 : (a < b ? -1 : 1)
        }
    }

    /// Whether `needle`'s UTF-8 bytes occur in `text`'s (SQLite's `instr`).
    private static func containsBytes(_ text: String, _ needle: String) -> Bool {
        let haystack = Array(text.utf8), pattern = Array(needle.utf8)
        guard pattern.count <= haystack.count else { return false }
        return (0...(haystack.count - pattern.count)).contains { start in haystack[start..<(start + pattern.count)].elementsEqual(pattern) }
    }

    /// The pattern read once (`LikePattern`); a bad one throws where the filter is evaluated.
    private func likePattern(_ pattern: String, _ options: ComparisonOptions) throws(FetchPredicateError) -> LikePattern {
        let key = LikePatternKey(pattern: pattern, options: options.rawValue)
        if let read = likePatterns[key] { return read }
        let read = try LikePattern(pattern, options: options)
        likePatterns[key] = read
        return read
    }

    private static func check(_ predicate: FetchPredicate, attributes: Set<String>, entity: String,
                              variables: [String: PredicateValue]) throws(FetchPredicateError) {
        switch predicate {
        case .constant: return
        case .not(let inner): try check(inner, attributes: attributes, entity: entity, variables: variables)
        case .and(let parts), .or(let parts):
            for part in parts { try check(part, attributes: attributes, entity: entity, variables: variables) }
        case .comparison(let comparison):
            guard comparison.quantifier == nil else {
                throw .unsupported("ANY/ALL/NONE need relationships, which a record filter does not have")
            }
            for side in [comparison.left, comparison.right] {
                try checkOperand(side, attributes: attributes, entity: entity, variables: variables)
            }
            // A pattern known now is compiled now: a bad one fails the filter where it is written,
            // not each record.
            let pattern: PredicateValue? = switch comparison.right {
            case .value(let value): value
            case .variable(let name): variables[name]
            default: nil
            }
            if case let .string(text)? = pattern {
                switch comparison.comparisonOperator {
                case .matches: do { _ = try Regex(text) } catch { throw .invalidPattern(pattern: text, reason: "\(error)") }
                case .like: _ = try LikePattern(text, options: comparison.options)
                default: break
                }
            }
        }
    }

    private static func checkOperand(_ operand: PredicateOperand, attributes: Set<String>, entity: String,
                                     variables: [String: PredicateValue]) throws(FetchPredicateError) {
        switch operand {
        case .keyPath(let path):
            guard path.count == 1, let name = path.first else {
                throw .unsupported("key path \(path.joined(separator: ".")): a record filter compares attributes of the record only")
            }
            guard attributes.contains(name) else {
                throw .unknownKey(key: name, entity: entity, suggestion: NameSuggestion.closest(to: name, among: attributes.sorted()))
            }
        case .variable(let name):
            guard variables[name] != nil else { throw .missingVariable(name) }
        case .aggregate(let items):
            for item in items { try checkOperand(item, attributes: attributes, entity: entity, variables: variables) }
        case .value:
            return
        }
    }
}

/// A `LIKE` pattern and the folding it was read with.
private struct LikePatternKey: Hashable {
    let pattern: String
    let options: Int
}
