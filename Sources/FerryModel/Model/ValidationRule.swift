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
        ValidationRule(predicate: patternPrefix + quoted(regex) + "\"", warning: .code(patternMismatchCode))
    }

    /// The regular expression of a rule `pattern(_:)` makes; nil for any other rule.
    public var pattern: String? {
        let scalars = predicate.unicodeScalars, prefix = Self.patternPrefix.unicodeScalars
        guard warning == .code(Self.patternMismatchCode), scalars.starts(with: prefix), scalars.last == "\"",
              scalars.count > prefix.count else { return nil }
        var regex = String.UnicodeScalarView(), escaped = false
        for scalar in scalars.dropFirst(prefix.count).dropLast() {
            if escaped {
                guard let plain = Self.unescaped[scalar] else { return nil }
                regex.append(plain)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                return nil
            } else {
                regex.append(scalar)
            }
        }
        return escaped ? nil : String(regex)
    }

    private static let patternPrefix = "SELF MATCHES \""
    private static let escapes: [Unicode.Scalar: String] = ["\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\r": "\\r", "\t": "\\t"]
    private static let unescaped: [Unicode.Scalar: Unicode.Scalar] = ["\\": "\\", "\"": "\"", "n": "\n", "r": "\r", "t": "\t"]

    /// `text` as the inside of a predicate's string literal.
    private static func quoted(_ text: String) -> String {
        text.unicodeScalars.reduce(into: "") { result, scalar in result += escapes[scalar] ?? String(scalar) }
    }
}
