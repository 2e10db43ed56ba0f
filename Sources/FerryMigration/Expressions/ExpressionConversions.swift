import FerryFormats
import FerryModel

/// The conversion functions (`integer double decimal text bool round floor ceil date unixtime
/// epoch2001`). Text is read with the import's rules (`TextCoercion`); none of these sees nil,
/// which the evaluator passes through before calling them.
enum ExpressionConversions {
    static func integer(_ value: AttributeValue) throws(ExpressionFailure) -> AttributeValue {
        switch value {
        case .integer: return value
        case let .bool(flag): return .integer(flag ? 1 : 0)
        case let .string(text): return try coerced(text, as: .integer64)
        default:
            guard let number = try ExpressionNumber(value) else { throw cannotConvert(value, to: "an integer") }
            let whole = try rounded(value, .towardZero)
            guard number.order(.integer(whole)) == 0 else {
                throw ExpressionFailure("\(ExpressionValues.describe(value)) is not a whole number (use round, floor or ceil)")
            }
            return .integer(whole)
        }
    }

    static func double(_ value: AttributeValue) throws(ExpressionFailure) -> AttributeValue {
        switch value {
        case let .bool(flag): return .double(flag ? 1 : 0)
        case let .string(text): return try coerced(text, as: .double)
        default:
            guard let number = try ExpressionNumber(value) else { throw cannotConvert(value, to: "a double") }
            return .double(number.doubleValue)
        }
    }

    static func decimal(_ value: AttributeValue) throws(ExpressionFailure) -> AttributeValue {
        switch value {
        case let .bool(flag): return .decimal(flag ? "1" : "0")
        case let .string(text):
            // Exact, whatever a store would keep: an intermediate value is not stored, and the
            // writer refuses a Decimal attribute's value a store would change (`StoredDecimal`).
            // (`round(decimal("8796093022207.9999995") * 1048576)` fits an Integer 64 exactly, and
            // was refused for the digits of the text.)
            guard let plain = DecimalNotation.plain(text.trimmingASCIISpaces().utf8) else {
                throw ExpressionFailure("'\(TextCoercion.clipped(text))' is not a decimal number")
            }
            return .decimal(plain)
        case let .double(number):
            guard let plain = DecimalNotation.plain(number) else { throw cannotConvert(value, to: "a decimal") }
            return .decimal(plain)
        default:
            guard let number = try ExpressionNumber(value), let exact = number.exact else { throw cannotConvert(value, to: "a decimal") }
            return .decimal(exact.text)
        }
    }

    static func bool(_ value: AttributeValue) throws(ExpressionFailure) -> AttributeValue {
        switch value {
        case .bool: return value
        case let .string(text): return try coerced(text, as: .boolean)
        default:
            var notBoolean: ExpressionFailure { ExpressionFailure("\(ExpressionValues.describe(value)) is not a boolean (1 or 0)") }
            guard let number = try ExpressionNumber(value) else { throw notBoolean }
            switch (number.order(.integer(0)), number.order(.integer(1))) {
            case (0, _): return .bool(false)
            case (_, 0): return .bool(true)
            default: throw notBoolean
            }
        }
    }

    /// The text a value reads as: numbers in plain decimal form, dates in ISO 8601 (UTC, every
    /// digit of the seconds kept, as a date written to a String attribute reads: rounded to
    /// milliseconds, 23:59:59.9996 on New Year's Eve read as the next year), UUIDs in canonical
    /// upper case, binary data in base64.
    static func text(_ value: AttributeValue) throws(ExpressionFailure) -> String {
        switch value {
        case .null: throw ExpressionFailure("nil has no text")
        case let .string(text), let .uri(text), let .decimal(text): return text
        case let .integer(number): return String(number)
        case let .double(number): return DecimalNotation.plain(number) ?? String(number)
        case let .bool(flag): return flag ? "true" : "false"
        case let .date(seconds):
            switch ValueConversion.dateText(seconds) {
            case .success(let text): return text
            case .failure(let failure): throw ExpressionFailure(failure.reason)
            }
        case let .uuid(uuid): return uuid.description
        case let .binary(bytes): return PropertyListBase64.text(bytes)
        }
    }

    /// A number rounded to an integer: half away from zero (`round`), down (`floor`), up (`ceil`),
    /// toward zero (`integer`); exact on decimals.
    static func rounded(_ value: AttributeValue, _ rule: FloatingPointRoundingRule) throws(ExpressionFailure) -> Int64 {
        let result: Int64?
        switch try ExpressionNumber(value) {
        case nil: throw ExpressionFailure("needs a number, got \(ExpressionValues.describe(value))")
        case let .integer(number)?: result = number
        case let .decimal(decimal)?: result = decimal.integer(rounding: rule)
        case let .double(number)?: result = Int64(exactly: number.rounded(rule))
        }
        guard let result else { throw ExpressionFailure("\(ExpressionValues.describe(value)) is out of range for Integer 64") }
        return result
    }

    /// `date(x)`: ISO 8601 text, or a number of seconds since 1970.
    static func date(_ value: AttributeValue) throws(ExpressionFailure) -> AttributeValue {
        switch value {
        case .date: return value
        case let .string(text):
            guard let seconds = ISO8601Date.parse(text.trimmingASCIISpaces()) else {
                throw ExpressionFailure("'\(TextCoercion.clipped(text))' is not an ISO 8601 date (use date(x, \"pattern\") for other forms)")
            }
            return .date(seconds)
        default: return try seconds(value, since: ReferenceDate.unixOffset)
        }
    }

    /// A number of seconds (or text holding one) since an epoch `offset` seconds before 2001, as a
    /// date within the years 0 to 9999 (`date(referenceSeconds:)`).
    static func seconds(_ value: AttributeValue, since offset: Double) throws(ExpressionFailure) -> AttributeValue {
        let number: Double
        if case let .string(text) = value, case let .double(parsed) = try coerced(text, as: .double) {
            number = parsed
        } else if case let .integer(whole)? = try ExpressionNumber(value) {
            // A whole number of seconds past 2^53 has no exact date: it would become another second.
            let (since, overflow) = whole.subtractingReportingOverflow(Int64(offset))
            guard !overflow, let exact = Double(exactly: since) else {
                throw ExpressionFailure("\(whole) seconds is past what a date holds exactly (2^53 seconds)")
            }
            return try date(referenceSeconds: exact)
        } else if let numeric = try ExpressionNumber(value) {
            number = numeric.doubleValue
        } else {
            throw ExpressionFailure("needs a number of seconds, got \(ExpressionValues.describe(value))")
        }
        return try date(referenceSeconds: number - offset)
    }

    /// A date an expression makes, in seconds since 2001: within the years 0 to 9999, the years
    /// ISO 8601 writes and `import` reads a legacy number of seconds into. A number past them is a
    /// misread one (milliseconds taken for seconds: `unixtime(1388538000000)` would be the year
    /// 45970), or not finite; either is a failure, not a date.
    static func date(referenceSeconds seconds: Double) throws(ExpressionFailure) -> AttributeValue {
        guard ISO8601Date.hasFourDigitYear(seconds) else {
            let hint = seconds.magnitude > 1e11 ? " (if it counts milliseconds, divide it by 1000)" : ""
            throw ExpressionFailure("\(DecimalNotation.plain(seconds) ?? String(seconds)) seconds since 2001 is outside the years 0 to 9999\(hint)")
        }
        return .date(seconds)
    }

    private static func coerced(_ text: String, as type: AttributeType) throws(ExpressionFailure) -> AttributeValue {
        switch TextCoercion.value(text, as: type) {
        case let .success(value): return value
        case let .failure(failure): throw ExpressionFailure(failure.reason)
        }
    }

    private static func cannotConvert(_ value: AttributeValue, to target: String) -> ExpressionFailure {
        ExpressionFailure("cannot convert \(ExpressionValues.describe(value)) to \(target)")
    }
}
