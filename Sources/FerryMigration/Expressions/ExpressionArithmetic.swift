import FerryModel

/// `+ - * /` and unary minus on values.
///
/// - integer with integer stays an integer for `+ - *` (overflow is a failure);
/// - integers and decimals together are exact decimals for `+ - *`;
/// - `/` of integers and decimals is an exact decimal, rounded to 38 significant digits when the
///   quotient does not terminate (`7 / 2` is 3.5, `1 / 3` is 0.333…);
/// - a double on either side makes the result a double; a result that is not finite is a failure;
/// - `+` with a string on either side joins texts (the other side as `text()` renders it);
/// - a date plus or minus a number of seconds is a date (within the years 0 to 9999, as every
///   date an expression makes); a date minus a date is seconds (double);
/// - dividing by zero is a failure; nil on either side gives nil.
enum ExpressionArithmetic {
    static func apply(_ op: ExpressionOperator, _ lhs: AttributeValue, _ rhs: AttributeValue) throws(ExpressionFailure) -> AttributeValue {
        if lhs == .null || rhs == .null { return .null }
        if op == .add, isText(lhs) || isText(rhs) {
            return .string(try ExpressionConversions.text(lhs) + ExpressionConversions.text(rhs))
        }
        if let dated = try dateArithmetic(op, lhs, rhs) { return dated }
        guard let left = try ExpressionNumber(lhs), let right = try ExpressionNumber(rhs) else {
            throw ExpressionFailure("cannot apply '\(op.rawValue)' to \(ExpressionValues.describe(lhs)) and \(ExpressionValues.describe(rhs))")
        }
        return try numeric(op, left, right).value
    }

    static func negate(_ value: AttributeValue) throws(ExpressionFailure) -> AttributeValue {
        switch try ExpressionNumber(value) {
        case nil where value == .null: return .null
        case nil: throw ExpressionFailure("cannot negate \(ExpressionValues.describe(value))")
        case let .integer(number)?:
            guard number != .min else { throw ExpressionFailure("-(\(number)) overflows Integer 64") }
            return .integer(-number)
        case let .decimal(decimal)?: return .decimal((-decimal).text)
        case let .double(number)?: return .double(-number)
        }
    }

    private static func isText(_ value: AttributeValue) -> Bool {
        if case .string = value { return true }
        return false
    }

    private static func numeric(_ op: ExpressionOperator, _ left: ExpressionNumber, _ right: ExpressionNumber) throws(ExpressionFailure) -> ExpressionNumber {
        if case let (.integer(a), .integer(b)) = (left, right), op != .divide {
            let (result, overflow) = switch op {
            case .add: a.addingReportingOverflow(b)
            case .subtract: a.subtractingReportingOverflow(b)
            default: a.multipliedReportingOverflow(by: b)
            }
            guard !overflow else { throw ExpressionFailure("\(a) \(op.rawValue) \(b) overflows Integer 64") }
            return .integer(result)
        }
        if let a = left.exact, let b = right.exact {
            switch op {
            case .add: return .decimal(a + b)
            case .subtract: return .decimal(a - b)
            case .multiply: return .decimal(a * b)
            default:
                guard let quotient = a.divided(by: b) else { throw divisionByZero(left) }
                return .decimal(quotient)
            }
        }
        let (a, b) = (left.doubleValue, right.doubleValue)
        if op == .divide, b == 0 { throw divisionByZero(left) }
        let result = switch op {
        case .add: a + b
        case .subtract: a - b
        case .multiply: a * b
        default: a / b
        }
        guard result.isFinite else { throw ExpressionFailure("\(a) \(op.rawValue) \(b) is out of range for Double") }
        return .double(result)
    }

    private static func divisionByZero(_ dividend: ExpressionNumber) -> ExpressionFailure {
        ExpressionFailure("division of \(ExpressionValues.describe(dividend.value)) by zero")
    }

    /// Date ± seconds and date − date; nil when neither side is a date.
    private static func dateArithmetic(_ op: ExpressionOperator, _ lhs: AttributeValue, _ rhs: AttributeValue) throws(ExpressionFailure) -> AttributeValue? {
        switch (lhs, rhs) {
        case let (.date(a), .date(b)) where op == .subtract:
            guard (a - b).isFinite else { throw ExpressionFailure("\(a) - \(b) seconds is out of range for Double") }
            return .double(a - b)
        case let (.date(a), other) where op == .add || op == .subtract:
            if let seconds = try ExpressionNumber(other) {
                return try ExpressionConversions.date(referenceSeconds: op == .add ? a + seconds.doubleValue : a - seconds.doubleValue)
            }
        case let (other, .date(b)) where op == .add:
            if let seconds = try ExpressionNumber(other) { return try ExpressionConversions.date(referenceSeconds: b + seconds.doubleValue) }
        case (.date, _), (_, .date):
            throw ExpressionFailure("cannot apply '\(op.rawValue)' to \(ExpressionValues.describe(lhs)) and \(ExpressionValues.describe(rhs))")
        default: break
        }
        return nil
    }
}
