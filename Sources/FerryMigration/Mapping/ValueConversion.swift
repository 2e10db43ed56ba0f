import FerryModel

/// The type changes inference applies on its own, and how values cross them.
///
/// Lossless: integer widening, integer → Decimal (the value; a store keeps a Decimal as a real,
/// and the writer rejects one no real holds, `StoredDecimal`), Boolean → integer, any type → String (numbers
/// as their text, dates as ISO 8601, UUIDs as text), URI ⇄ String text, Binary ⇄ Transformable.
/// Checked (a value that does not fit rejects its record, or becomes nil under a lenient policy):
/// integer narrowing (range), integer → Double/Float (exactly representable), Double/Float →
/// integer (integral and in range), 0/1 → Boolean, String → any other type by the import's text
/// rules (but a number into a Date, whose epoch is not knowable). Rounded: Decimal → Double/Float and Double → Float (nearest value; a value that would
/// underflow to 0, or a whole number the type does not hold, is checked as an imported one is). Date ⇄ number and
/// the rest are not inferred: the epoch or meaning is not knowable, so they need a written rule
/// (until one is written, inference converts them all the same: every value fails, rejecting its
/// record, and only nil passes).
public enum ValueConversion {
    public enum Kind: String, Sendable {
        case lossless, checked, rounded
    }

    /// How `from` converts to `to`, or nil when inference cannot convert it.
    public static func kind(from: AttributeType, to: AttributeType) -> Kind? {
        if from == to { return .lossless }
        let integers: [AttributeType] = [.integer16, .integer32, .integer64]
        if let source = integers.firstIndex(of: from), let destination = integers.firstIndex(of: to) {
            return source <= destination ? .lossless : .checked
        }
        switch (from, to) {
        case _ where integers.contains(from) && to == .decimal: return .lossless
        case _ where integers.contains(from) && (to == .double || to == .float): return .checked
        case _ where (from == .double || from == .float) && integers.contains(to): return .checked
        case (.float, .double), (.double, .decimal), (.float, .decimal): return .lossless
        case (.double, .float), (.decimal, .double), (.decimal, .float): return .rounded
        case _ where from == .boolean && integers.contains(to): return .lossless
        case _ where integers.contains(from) && to == .boolean: return .checked
        case (.binary, .transformable), (.transformable, .binary): return .lossless
        case (.uri, .string), (.string, .uri): return to == .string ? .lossless : .checked
        case (_, .string) where from != .binary && from != .transformable: return .lossless
        case (.string, _) where to != .binary && to != .transformable: return .checked
        default: return nil
        }
    }

    /// Converts one value; nil stays nil.
    public static func convert(_ value: AttributeValue, from: AttributeType, to: AttributeType,
                               options: CoercionOptions = .init()) -> Result<AttributeValue, CoercionFailure> {
        if value == .null || from == to { return .success(value) }
        switch (value, to) {
        case (.binary, .string):
            // Bytes have no text of their own (a written rule says which: `text(x)` gives base64).
            return .failure(CoercionFailure("a Binary value (\(byteCount(of: value)) bytes) cannot become String; a written rule can say how (text(…) gives base64)"))
        case let (.date(seconds), .string):
            return dateText(seconds).map { .string($0) }
        case (_, .string):
            return .success(.string(text(of: value)))
        case let (.string(text), .date) where ISO8601Date.parse(text) == nil && TextCoercion.isNumber(text.trimmingASCIISpaces()):
            // Text that is a number is a number: which epoch it counts from is not knowable, as
            // for a number attribute that becomes a Date (it was read as Unix seconds: Core
            // Data's own seconds since 2001 moved back 31 years).
            return .failure(CoercionFailure("'\(TextCoercion.clipped(text))' is a number, and which epoch it counts from is not knowable: "
                + "a written rule names it (unixtime(x) for seconds since 1970, epoch2001(x) for Core Data's seconds since 2001, "
                + "unixtime(decimal(x) / 1000) for milliseconds)"))
        case let (.string(text), _):
            return TextCoercion.value(text, as: to, options: options)
        case let (.integer(number), .integer16), let (.integer(number), .integer32), let (.integer(number), .integer64):
            guard let range = to.integerRange, range.contains(number) else {
                return .failure(CoercionFailure("\(number) is out of range for \(to.xcodeName)"))
            }
            return .success(.integer(number))
        case let (.integer(number), .decimal):
            return .success(.decimal(String(number)))
        case let (.integer(number), .double), let (.integer(number), .float):
            let converted = Double(number)
            guard Int64(exactly: converted) == number, to == .double || Float(exactly: converted) != nil else {
                return .failure(CoercionFailure("\(number) has no exact \(to.xcodeName) value"))
            }
            return .success(.double(converted))
        case let (.double(number), .integer16), let (.double(number), .integer32), let (.double(number), .integer64):
            guard let integer = Int64(exactly: number), to.integerRange?.contains(integer) == true else {
                return .failure(CoercionFailure("\(number) is not a whole number in the range of \(to.xcodeName)"))
            }
            return .success(.integer(integer))
        case let (.double(number), .decimal):
            return DecimalNotation.plain(number).map { .success(.decimal($0)) } ?? .failure(CoercionFailure("\(number) is not a decimal number"))
        case let (.double(number), .float):
            // The rules of an imported value: a fraction's rounding is no change, a value that
            // underflows to 0 or a whole number the Float does not hold is (`TextCoercion.floating`).
            guard number.isFinite else { return .failure(CoercionFailure("\(number) is out of range for Float")) }
            return TextCoercion.floating(number.description, as: .float)
        case (.double, .double):
            return .success(value)
        case let (.decimal(text), .double), let (.decimal(text), .float):
            return TextCoercion.floating(text, as: to)
        case let (.bool(flag), _) where to.isInteger:
            return .success(to == .boolean ? .bool(flag) : .integer(flag ? 1 : 0))
        case let (.integer(number), .boolean):
            guard number == 0 || number == 1 else { return .failure(CoercionFailure("\(number) is not a boolean (0 or 1)")) }
            return .success(.bool(number == 1))
        case (.binary, .transformable), (.binary, .binary):
            return .success(value)
        default:
            return .failure(CoercionFailure("\(from.withArticle) value cannot become \(to.xcodeName)"))
        }
    }

    /// The attribute type a value naturally has (integers as Integer 64).
    public static func naturalType(of value: AttributeValue) -> AttributeType {
        switch value {
        case .null, .string: .string
        case .integer: .integer64
        case .double: .double
        case .decimal: .decimal
        case .bool: .boolean
        case .date: .date
        case .binary: .binary
        case .uuid: .uuid
        case .uri: .uri
        }
    }

    private static func byteCount(of value: AttributeValue) -> Int {
        if case .binary(let bytes) = value { bytes.count } else { 0 }
    }

    /// The ISO 8601 text of a date; a failure for one no such text holds (a store's REAL can be
    /// any number), whose seconds as a number would read back as no date at all.
    static func dateText(_ seconds: Double) -> Result<String, CoercionFailure> {
        guard let text = ISO8601Date.format(seconds) else {
            return .failure(CoercionFailure("a Date of \(seconds) seconds since 2001 has no ISO 8601 text (its year is past ±999999)"))
        }
        return .success(text)
    }

    /// The text form of a value (`ferry`'s export spelling: ISO 8601 dates, upper-case UUIDs), as
    /// a reject names it.
    static func text(of value: AttributeValue) -> String {
        switch value {
        case .null: ""
        case .integer(let number): String(number)
        case .double(let number): number.description
        case .decimal(let text), .string(let text), .uri(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .date(let seconds): ISO8601Date.format(seconds) ?? seconds.description
        case .binary(let bytes): "<\(bytes.count) bytes>"
        case .uuid(let uuid): uuid.description
        }
    }
}
