import FerryModel

/// What Core Data's validation holds one attribute's values to when it saves an object: the
/// model's bounds (`AttributeBounds`) and its validation rules (`ValidationRule`), such as Xcode's
/// Reg. Ex. (`SELF MATCHES "…"`) or a code-built model's `length >= 3 AND length <= 50`.
///
/// A rule is evaluated as `NSPredicate` evaluates it on the value, with the key paths Core Data's
/// own rules use: `SELF` (the value), `length` (a string's length in UTF-16 code units, as
/// `NSString` counts it) and `timeIntervalSinceReferenceDate` (a date's seconds since 2001). A nil
/// value is not validated here: Core Data holds it to the attribute's optionality only. A rule
/// Ferry cannot evaluate (a key path or syntax it does not know) is listed in `unevaluated`.
public final class AttributeValidation {
    public let bounds: AttributeBounds?
    /// Regular-expression rules (`ValidationRule.pattern`), matched directly: a fifth of the cost
    /// of the same `MATCHES` through the evaluator, compiled the way it compiles them.
    private let patterns: [(rule: ValidationRule, regex: Regex<AnyRegexOutput>)]
    private let rules: [(rule: ValidationRule, evaluator: PredicateEvaluator)]
    /// The rules Ferry cannot evaluate, with the reason; they are not checked.
    public let unevaluated: [(rule: ValidationRule, reason: String)]

    /// The validation of `attribute`; nil when the model gives it neither bounds nor rules.
    public init?(_ attribute: Attribute) {
        bounds = AttributeBounds(attribute)
        var patterns: [(ValidationRule, Regex<AnyRegexOutput>)] = []
        var rules: [(ValidationRule, PredicateEvaluator)] = []
        var unevaluated: [(ValidationRule, String)] = []
        for rule in attribute.validationRules {
            do {
                if let pattern = rule.pattern {
                    patterns.append((rule, try RegexCache().regex(pattern, caseInsensitive: false)))
                } else {
                    let predicate = try FetchPredicate(format: rule.predicate)
                    rules.append((rule, try PredicateEvaluator(predicate, attributes: Self.keyPaths, entity: attribute.name)))
                }
            } catch {
                unevaluated.append((rule, "\(error)"))
            }
        }
        guard bounds != nil || !attribute.validationRules.isEmpty else { return nil }
        self.patterns = patterns
        self.rules = rules
        self.unevaluated = unevaluated
    }

    /// Why `value` fails the attribute's validation, naming the bound or rule; nil when it passes
    /// (or is nil). A rule whose evaluation fails on this value (a `MATCHES` pattern the regular
    /// expression engine refuses) does not reject it.
    public func problem(of value: AttributeValue) -> String? {
        if case .null = value { return nil }
        if let problem = bounds?.problem(of: value) { return problem }
        if case .string(let text) = value {
            for (rule, regex) in patterns where text.wholeMatch(of: regex) == nil {
                return Self.failure(of: rule, value: value)
            }
        }
        for (rule, evaluator) in rules where (try? evaluator.matches { Self.keyPath($0, of: value) }) == false {
            return Self.failure(of: rule, value: value)
        }
        return nil
    }

    private static let keyPaths: Set<String> = ["SELF", "self", "length", "timeIntervalSinceReferenceDate"]

    private static func keyPath(_ name: String, of value: AttributeValue) -> AttributeValue? {
        switch (name, value) {
        case ("SELF", _), ("self", _): value
        case ("length", .string(let text)): .integer(Int64(text.utf16.count))
        case ("timeIntervalSinceReferenceDate", .date(let seconds)): .double(seconds)
        default: nil
        }
    }

    private static func failure(of rule: ValidationRule, value: AttributeValue) -> String {
        let shown = shortText(of: value)
        if let regex = rule.pattern { return "\(shown) does not match the model's regular expression \(regex)" }
        switch rule.warning {
        case .message(let text): return "\(shown) fails the model's validation rule '\(rule.predicate)': \(text)"
        case .code(let code): return "\(shown) fails the model's validation rule '\(rule.predicate)' (Cocoa validation error \(code))"
        }
    }

    /// The value as a message shows it: text quoted and cut at 60 characters.
    private static func shortText(of value: AttributeValue) -> String {
        switch value {
        case .string(let text): "'" + (text.count > 60 ? text.prefix(60) + "…" : text) + "'"
        case .integer(let number): String(number)
        case .double(let number): String(number)
        case .decimal(let text): text
        default: "the value"
        }
    }
}
