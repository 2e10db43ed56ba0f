/// A rule Core Data checks a property's value against when it validates an object: a predicate,
/// evaluated with the value as `SELF`, and the warning it reports when the value fails it
/// (`NSValidationPredicates` and `NSValidationWarnings`, modelcache-format.md §4.3).
///
/// Models built in code carry any rule (CoreDataPlus `Book.title`: `length >= 3 AND length <= 50`
/// warning "Title must have a length between 3 and 50 chars."); Apple's own stores hold rules such
/// as `SELF >= 0` with the warning code 1620, Cocoa's NSValidationNumberTooSmallError (NoteStore
/// `ICAccount.serverSideUpdateTaskFailureCount`, RMAdminStore-Local `CoreUser.passcodeEntryAttemptCount`).
public struct ValidationRule: Sendable, Equatable, Codable {
    /// What Core Data reports when a value fails the rule.
    public enum Warning: Sendable, Equatable, Codable {
        /// A message of the model's author.
        case message(String)
        /// A Cocoa error code (`NSValidation…Error`).
        case code(Int)
    }

    /// The predicate in format syntax.
    public var predicate: String
    public var warning: Warning

    public init(predicate: String, warning: Warning) {
        self.predicate = predicate
        self.warning = warning
    }

    /// Cocoa's NSValidationStringPatternMatchingError, the warning of a regular-expression rule.
    public static let patternMismatchCode = 1680

    /// The rule Xcode's Reg. Ex. field (`regularExpressionString`) stands for: the whole string
    /// matches `regex`, `SELF MATCHES "…"` with the warning NSValidationStringPatternMatchingError.
    /// (How `momc` archives the field is not known from a real file; this is the rule's meaning.)
    public static func pattern(_ regex: String) -> ValidationRule {
        ValidationRule(predicate: patternPrefix + PredicateStringLiteral.quoted(regex), warning: .code(patternMismatchCode))
    }

    /// The regular expression of a rule `pattern(_:)` makes; nil for any other rule.
    public var pattern: String? {
        guard warning == .code(Self.patternMismatchCode), predicate.hasPrefix(Self.patternPrefix) else { return nil }
        return PredicateStringLiteral.unquoted(predicate.dropFirst(Self.patternPrefix.count))
    }

    private static let patternPrefix = "SELF MATCHES "
}
