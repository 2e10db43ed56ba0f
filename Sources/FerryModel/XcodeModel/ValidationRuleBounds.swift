/// The validation rules of a number attribute that Xcode's `minValueString` and `maxValueString`
/// stand for: `SELF >= n` warning NSValidationNumberTooSmallError (1620), and `SELF <= n` warning
/// NSValidationNumberTooLargeError (1610). Apple's stores hold the first (NoteStore
/// `ICAccount.serverSideUpdateTaskFailureCount`, RMAdminStore-Local
/// `CoreUser.passcodeEntryAttemptCount`, both `SELF >= 0`); the second is inferred from Cocoa's
/// codes. The writer spells such rules as bounds, and a string's `SELF MATCHES "…"` rule
/// (`ValidationRule.pattern`) as `regularExpressionString`; any other rule has no XML spelling.
struct ValidationRuleBounds {
    private static let tooSmall = 1620
    private static let tooLarge = 1610

    /// The lower bound to write: the attribute's own, or one of its rules'.
    private(set) var minValueString: String?
    /// The upper bound to write: the attribute's own, or one of its rules'.
    private(set) var maxValueString: String?
    /// The regular expression to write (Xcode's Reg. Ex. of a String attribute).
    private(set) var regularExpressionString: String?
    /// The rules that are neither bounds nor the regular expression.
    private(set) var unspelled: [ValidationRule] = []

    init(_ attribute: Attribute) {
        minValueString = attribute.minValueString
        maxValueString = attribute.maxValueString
        let isNumber = attribute.type.isInteger && attribute.type != .boolean || [.decimal, .double, .float].contains(attribute.type)
        for rule in attribute.validationRules {
            if isNumber, minValueString == nil, let bound = Self.bound(rule, operator: ">=", code: Self.tooSmall) {
                minValueString = bound
            } else if isNumber, maxValueString == nil, let bound = Self.bound(rule, operator: "<=", code: Self.tooLarge) {
                maxValueString = bound
            } else if attribute.type == .string, regularExpressionString == nil, let regex = rule.pattern {
                regularExpressionString = regex
            } else {
                unspelled.append(rule)
            }
        }
    }

    /// The number of `SELF <operator> number` with the warning `code`, or nil for any other rule.
    private static func bound(_ rule: ValidationRule, operator comparison: String, code: Int) -> String? {
        let prefix = "SELF \(comparison) "
        guard rule.warning == .code(code), rule.predicate.hasPrefix(prefix) else { return nil }
        let number = String(rule.predicate.dropFirst(prefix.count))
        return Double(number) == nil ? nil : number
    }
}
