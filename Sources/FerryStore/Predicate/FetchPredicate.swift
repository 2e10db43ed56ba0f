/// A predicate over the objects of one entity, in the subset of `NSPredicate`'s format syntax that
/// Core Data runs in SQL. Parse one with `FetchPredicate(format:)`; `description` prints it back in
/// the same syntax (parsing the printed text gives the same predicate).
public indirect enum FetchPredicate: Sendable, Equatable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    /// `NOT p` / `!p`.
    case not(FetchPredicate)
    /// `p AND q AND …` / `&&`, flattened.
    case and([FetchPredicate])
    /// `p OR q OR …` / `||`, flattened.
    case or([FetchPredicate])
    case comparison(Comparison)

    /// The deepest nesting of parentheses, `NOT`s and `{lists}` a format string may have. SQLite's
    /// parser gives up on conditions nested a few dozen levels deep (each level costs it two or
    /// three), so the limit keeps every predicate that parses runnable.
    public static let maxNesting = 24

    /// The most comparisons (and `TRUEPREDICATE`/`FALSEPREDICATE`s) a format string may hold.
    /// SQLite evaluates `a OR b OR …` as a tree one level deeper per term and refuses trees deeper
    /// than 1,000; a long list of values is one comparison: `key IN {a, b, …}`.
    public static let maxComparisons = 500
}

/// One comparison: `[quantifier] left operator[options] right`.
public struct Comparison: Sendable, Equatable {
    /// `ANY`/`SOME`, `ALL` or `NONE` in front of a to-many key path; nil for none.
    public var quantifier: Quantifier?
    public var left: PredicateOperand
    public var comparisonOperator: ComparisonOperator
    public var options: ComparisonOptions
    public var right: PredicateOperand

    public init(quantifier: Quantifier? = nil, _ left: PredicateOperand, _ comparisonOperator: ComparisonOperator,
                options: ComparisonOptions = [], _ right: PredicateOperand) {
        self.quantifier = quantifier
        self.left = left
        self.comparisonOperator = comparisonOperator
        self.options = options
        self.right = right
    }
}

/// How a comparison over a to-many key path combines the destinations' results.
public enum Quantifier: String, Sendable, Equatable, CaseIterable {
    /// At least one destination matches (`ANY`, `SOME`).
    case any = "ANY"
    /// Every destination matches; true when there are none (`ALL`).
    case all = "ALL"
    /// No destination matches (`NONE`).
    case none = "NONE"
}

/// The comparison operators, spelled as `description` prints them.
public enum ComparisonOperator: String, Sendable, Equatable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// `x BETWEEN {low, high}`, both ends included.
    case between = "BETWEEN"
    /// `x IN {a, b, …}` or `x IN $LIST`.
    case `in` = "IN"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    /// Wildcards `*` (any run of characters) and `?` (one character); a backslash makes the next
    /// character literal (`\*`); everything else is literal (`LikePattern`).
    case like = "LIKE"
    /// A regular expression that must match the whole string.
    case matches = "MATCHES"

    /// Whether the operator works on text only.
    var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: true
        default: false
        }
    }
}

/// The `[c]`, `[d]`, `[cd]` modifiers of string comparisons.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: case-insensitive.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
}
