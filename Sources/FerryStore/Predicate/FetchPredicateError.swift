/// Why a predicate or sort string cannot be parsed or compiled against a model.
public enum FetchPredicateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not valid predicate syntax: at 1-based `column` (in characters), `expected`
    /// was expected and `found` was there.
    case syntax(column: Int, expected: String, found: String)
    /// The model has no entity of this name, or the entity has no table in the layout.
    case unknownEntity(String)
    /// `key` (a key path component) is not an attribute or relationship of `entity`.
    /// A key names no attribute or relationship of the entity; `suggestion` is the closest one.
    case unknownKey(key: String, entity: String, suggestion: String? = nil)
    /// A value or operator does not fit the type at `keyPath`.
    case typeMismatch(keyPath: String, reason: String)
    /// `$name` has no value among the variables given.
    case missingVariable(String)
    /// A valid construct that cannot be run in SQL (for example a key path through two to-many
    /// relationships, or a comparison of two constants).
    case unsupported(String)
    /// A sort key that names no attribute a row can be ordered by (`reason` says why).
    case unsupportedSortKey(key: String, reason: String)
    /// A `MATCHES` pattern that is not a valid regular expression.
    case invalidPattern(pattern: String, reason: String)
    /// A `LIKE` pattern that cannot be read (`LikePattern`): one that ends in a lone backslash.
    case invalidLikePattern(pattern: String, reason: String)
    /// Parentheses, `NOT`s and `{lists}` nest deeper than `limit` (`FetchPredicate.maxNesting`)
    /// at 1-based `column`.
    case nestedTooDeep(column: Int, limit: Int)
    /// More than `limit` comparisons (`FetchPredicate.maxComparisons`); the first one too many
    /// starts at 1-based `column`.
    case tooManyComparisons(column: Int, limit: Int)
    /// More sort keys than `limit` (`FetchSort.maxKeys`).
    case tooManySortKeys(count: Int, limit: Int)
    /// A predicate whose lists and comparisons hold more values than SQLite binds in one
    /// statement (`PredicateCompiler.maxParameters`).
    case tooManyValues(count: Int, limit: Int)

    public var description: String {
        switch self {
        case let .syntax(column, expected, found):
            "predicate syntax error at column \(column): expected \(expected), found \(found)"
        case let .unknownEntity(name):
            "unknown entity \(name)"
        case let .unknownKey(key, entity, suggestion):
            "entity \(entity) has no attribute or relationship \"\(key)\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
        case let .typeMismatch(keyPath, reason):
            "\(keyPath): \(reason)"
        case let .missingVariable(name):
            "no value given for variable $\(name)"
        case let .unsupported(reason):
            "unsupported predicate: \(reason)"
        case let .unsupportedSortKey(key, reason):
            "cannot sort by \(key): \(reason)"
        case let .invalidPattern(pattern, reason):
            "invalid MATCHES pattern \"\(pattern)\": \(reason)"
        case let .invalidLikePattern(pattern, reason):
            "invalid LIKE pattern \"\(pattern)\": \(reason)"
        case let .nestedTooDeep(column, limit):
            "predicate nests deeper than \(limit) levels at column \(column) (parentheses, NOT and {lists} each add one)"
        case let .tooManyComparisons(column, limit):
            "predicate holds more than \(limit) comparisons (the one at column \(column) is one too many); compare one key with many values as key IN {a, b, …}"
        case let .tooManySortKeys(count, limit):
            "\(count) sort keys, at most \(limit) are allowed"
        case let .tooManyValues(count, limit):
            "predicate holds \(count) values, at most \(limit) are allowed (SQLite's default limit of values in one statement)"
        }
    }
}
