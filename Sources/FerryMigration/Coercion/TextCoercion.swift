import FerryModel
import FerryFormats

/// Turns the text of a field into a value of an attribute's type.
///
/// Rules: integers are optional sign and decimal digits, range-checked for the type; booleans
/// are `1`/`0`, `true`/`false`, `yes`/`no` in any case; floating point is a finite decimal or
/// exponent number that the attribute's type holds up to a fraction's rounding (not a whole number
/// past its precision, nor a value that would read back as 0); decimals keep their exact text, and only those a store keeps unchanged are
/// taken (`StoredDecimal`); dates are ISO 8601 or a number on the
/// configured epoch; UUIDs are 8-4-4-4-12 hex; URIs need a scheme; binary and transformable
/// values are canonical base64 (line breaks allowed). Leading and trailing spaces are ignored for every type but String.
public enum TextCoercion {
    /// Converts UTF-8 text. The caller decides about empty fields first (see `CoercionOptions.EmptyField`).
    public static func value(_ text: String, as type: AttributeType, options: CoercionOptions = .init())
        -> Result<AttributeValue, CoercionFailure>
    {
        if type == .string { return .success(.string(text)) }
        var trimmed = text.trimmingASCIISpaces()
        switch type {
        case .integer16, .integer32, .integer64:
            return integer(trimmed, as: type)
        case .boolean:
            return trimmed.withUTF8 { boolean(UnsafeRawBufferPointer($0)) }.map { .success(.bool($0)) }
                ?? .failure(CoercionFailure("'\(clipped(trimmed))' is not a boolean (1/0, true/false, yes/no)"))
        case .double, .float:
            return floating(trimmed, as: type)
        case .decimal:
            guard let plain = DecimalNotation.plain(trimmed.utf8) else {
                return .failure(CoercionFailure("'\(clipped(text))' is not a decimal number"))
            }
            return StoredDecimal.problem(plain).map { .failure(CoercionFailure($0)) } ?? .success(.decimal(plain))
        case .date:
            return date(trimmed, epoch: options.numericDateEpoch)
        case .uuid:
            return UUIDBytes(string: trimmed).map { .success(.uuid($0)) }
                ?? .failure(CoercionFailure("'\(clipped(text))' is not a UUID (8-4-4-4-12 hex digits)"))
        case .uri:
            return isAbsoluteURI(trimmed) ? .success(.uri(trimmed))
                : .failure(CoercionFailure("'\(clipped(text))' is not an absolute URI"))
        case .binary, .transformable:
            return trimmed.withUTF8 { base64(UnsafeRawBufferPointer($0)) }.map { .success(.binary($0)) }
                ?? .failure(CoercionFailure("not valid base64 (\(trimmed.utf8.count) characters; complete padding, no spaces inside, "
                    + "and the unused bits of the last character zero, so that the text comes back as given)"))
        case .string:
            return .success(.string(text))
        case .undefined, .objectID, .composite:
            return .failure(CoercionFailure("attributes of type \(type.xcodeName) cannot be imported"))
        }
    }

    /// Converts a field straight from its UTF-8 bytes, for the types that need no String on the
    /// way: integers, booleans, ISO 8601 dates, binary and transformable (base64).
    ///
    /// Returns nil when this entry does not take the value: other types, other date forms, and
    /// every text that is not valid for the type. Then ``value(_:as:options:)`` with the field's
    /// text gives the value or the failure; whatever this entry accepts, that one accepts too,
    /// with the same result.
    public static func value(utf8 bytes: UnsafeRawBufferPointer, as type: AttributeType) -> AttributeValue? {
        let trimmed = bytes.trimmingASCIISpaces()
        switch type {
        case .integer16, .integer32, .integer64:
            guard case .value(let number) = integer(trimmed), let range = type.integerRange, range.contains(number) else { return nil }
            return .integer(number)
        case .boolean:
            return boolean(trimmed).map(AttributeValue.bool)
        case .date:
            return ISO8601Date.parse(trimmed).map(AttributeValue.date)
        case .binary, .transformable:
            return base64(trimmed).map(AttributeValue.binary)
        default:
            return nil
        }
    }

    /// What decimal integer text holds.
    enum IntegerText {
        case value(Int64)
        /// Digits (with an optional sign) beyond the range of Int64.
        case overflow
        case invalid
    }

    /// One optional sign (`+` or `-`) and at least one decimal digit: `+-5` is no integer, as it
    /// is no Double or Decimal.
    static func integer(_ text: UnsafeRawBufferPointer) -> IntegerText {
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < text.count else { return .invalid }
        // Up to 18 digits cannot overflow: no checks per digit.
        if text.count - index <= 18 {
            var value: Int64 = 0
            while index < text.count {
                let digit = text[index] &- 48
                guard digit < 10 else { return .invalid }
                value = value &* 10 &+ Int64(digit)
                index += 1
            }
            return .value(negative ? -value : value)
        }
        // Accumulated negatively, so Int64.min fits.
        var value: Int64 = 0
        var overflow = false
        while index < text.count {
            let digit = text[index] &- 48
            guard digit < 10 else { return .invalid }
            if !overflow {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(Int64(digit))
                overflow = o1 || o2
                value = next
            }
            index += 1
        }
        if overflow { return .overflow }
        if negative { return .value(value) }
        guard value != .min else { return .overflow }
        return .value(-value)
    }

    static func integer(_ text: String, as type: AttributeType) -> Result<AttributeValue, CoercionFailure> {
        var bytes = text
        switch bytes.withUTF8({ integer(UnsafeRawBufferPointer($0)) }) {
        case .value(let value):
            guard let range = type.integerRange, range.contains(value) else {
                return .failure(CoercionFailure("\(value) is out of range for \(type.xcodeName)"))
            }
            return .success(.integer(value))
        case .overflow:
            return .failure(CoercionFailure("\(text) is out of range for \(type.xcodeName)"))
        case .invalid:
            return .failure(CoercionFailure("'\(clipped(text))' is not an integer"))
        }
    }

    /// `1`/`0`, `true`/`false`, `yes`/`no`, ASCII letters in any case.
    static func boolean(_ text: UnsafeRawBufferPointer) -> Bool? {
        func matches(_ word: StaticString) -> Bool {
            guard word.utf8CodeUnitCount == text.count else { return false }
            let letters = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for (byte, letter) in zip(text, letters) {
                let lowered = (65...90).contains(byte) ? byte | 0x20 : byte
                guard lowered == letter else { return false }
            }
            return true
        }
        if matches("1") || matches("true") || matches("yes") { return true }
        if matches("0") || matches("false") || matches("no") { return false }
        return nil
    }

    /// Canonical base64 (the text its bytes encode to, so an export gives it back as it was):
    /// complete padding, the unused bits of the last character zero; line breaks inside are
    /// skipped, and spaces or tabs inside make it no base64 (plain text is not taken for bytes).
    static func base64(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        PropertyListBase64.decode(contiguous: text, padding: .canonical)
    }

    /// Whether `text` reads as a number (a Double) by these rules.
    static func isNumber(_ text: String) -> Bool {
        if case .success = floating(text, as: .double) { return true }
        return false
    }

    static func floating(_ text: String, as type: AttributeType) -> Result<AttributeValue, CoercionFailure> {
        let isNumberSyntax = !text.isEmpty && text.utf8.allSatisfy {
            (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 || $0 == 69 || $0 == 101
        }
        guard isNumberSyntax, let value = Double(text) else {
            return .failure(CoercionFailure("'\(clipped(text))' is not a number"))
        }
        guard value.isFinite, type != .float || Float(value).isFinite else {
            return .failure(CoercionFailure("\(text) is out of range for \(type.xcodeName)"))
        }
        // What an app reads back may change the value given only by a fraction's rounding: a
        // number whose whole part it cannot hold (past 2^53 for a Double, 2^24 for a Float) or a
        // value that underflows to zero is not the value given. A Float attribute holds the
        // Float's value (what Core Data writes for it), not the text's Double.
        let stored = type == .float ? Double(Float(value)) : value
        if stored == 0, WholeNumberText.hasNonzeroDigit(text) {
            return .failure(CoercionFailure("\(text) is too small for \(type.withArticle): it would read back as 0"))
        }
        if type == .float, !isWithinFloatRounding(value) {
            return .failure(CoercionFailure("\(text) is too small for a Float to keep within rounding: it would read back as \(stored)"))
        }
        // A subnormal Double holds fewer bits: `2.5e-324` reads back as `5e-324`, twice it. Only
        // the text a subnormal prints as (what an export writes) names one for sure.
        if type != .float, stored != 0, stored.magnitude < Double.leastNormalMagnitude,
           DecimalNotation.plain(text.utf8) != DecimalNotation.plain(stored.description.utf8) {
            return .failure(CoercionFailure("\(text) is too small for a Double to keep within rounding: it would read back as \(stored)"))
        }
        if stored.magnitude >= (type == .float ? 0x1p24 : 0x1p53), let plain = DecimalNotation.plain(text.utf8),
           !WholeNumberText.isWithinRounding(stored, of: plain),
           // One whose shortest text (the type's, or a Double's: an export's) is the number reads back as it.
           DecimalNotation.plain(shortest(stored, as: type).utf8) != plain, DecimalNotation.plain(stored.description.utf8) != plain {
            return .failure(CoercionFailure("\(text) has no exact \(type.xcodeName) value: it would read back as \(WholeNumberText.digits(of: stored))"))
        }
        return .success(.double(stored))
    }

    /// Whether the Float nearest `value` differs from it by no more than a Float's rounding (half
    /// a unit in the last of its 24 bits, relative to the value): always, in the Float's normal
    /// range; not for most values below 2^-126, which a subnormal Float holds with fewer bits
    /// (`1e-45` reads back as `1.4e-45`, 40% more). The one rule wherever a Double becomes a
    /// Float: text, a Double attribute whose type changes, a written expression's result.
    static func isWithinFloatRounding(_ value: Double) -> Bool {
        (Double(Float(value)) - value).magnitude <= value.magnitude * 0x1p-24
    }

    /// The shortest text that reads back as `value` in the attribute's own type (a Float's for a
    /// Float attribute: `3.4028235e38`, the largest Float, is its own value).
    private static func shortest(_ value: Double, as type: AttributeType) -> String {
        type == .float ? Float(value).description : value.description
    }

    static func date(_ text: String, epoch: CoercionOptions.NumericDateEpoch) -> Result<AttributeValue, CoercionFailure> {
        if let seconds = ISO8601Date.parse(text) { return .success(.date(seconds)) }
        let numeric = floating(text, as: .double)
        if case let .success(.double(number)) = numeric {
            switch epoch {
            case .unixSeconds, .unixMilliseconds:
                // A legacy Unix time past the years ISO 8601 writes (0–9999) is a misread one:
                // milliseconds read as seconds (1388538000000 is the year 45970).
                let seconds = epoch == .unixSeconds ? number : number / 1000
                guard ISO8601Date.hasFourDigitYear(seconds - ReferenceDate.unixOffset) else {
                    let unit = epoch == .unixSeconds ? "seconds" : "milliseconds"
                    let hint = epoch == .unixSeconds && seconds.magnitude > 1e11 ? ": if it counts milliseconds, give --date-epoch unix-ms" : ""
                    return .failure(CoercionFailure("'\(clipped(text))' as \(unit) since 1970 is outside the years 0 to 9999\(hint)"))
                }
                return .success(.date(seconds - ReferenceDate.unixOffset))
            case .referenceSeconds: return .success(.date(number))
            }
        }
        if ISO8601Date.hasSecondSixty(text) {
            return .failure(CoercionFailure("'\(clipped(text))' has second 60 (a leap second): a date cannot hold it"))
        }
        let counted = switch epoch {
        case .unixSeconds: "seconds since 1970"
        case .unixMilliseconds: "milliseconds since 1970 (--date-epoch unix-ms)"
        case .referenceSeconds: "seconds since 2001 (--date-epoch reference)"
        }
        // A number no Double holds exactly says so, not that it is no number.
        if case let .failure(failure) = numeric, !failure.reason.hasSuffix("is not a number") {
            return .failure(CoercionFailure("not a date as \(counted): \(failure.reason)"))
        }
        return .failure(CoercionFailure("'\(clipped(text))' is not a date (ISO 8601, or a number of \(counted))"))
    }

    /// `scheme:rest` where the scheme is a letter followed by letters, digits, `+`, `-` or `.`,
    /// the rest has no space or control character, every `%` starts an escape of two hex digits,
    /// and an authority that opens an IP literal (`//[`) closes it: text that no URL parser
    /// takes (`http://[::1`, `a:%zz`) would read back as no URL at all.
    static func isAbsoluteURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else { return false }
        let scheme = text[..<colon].utf8
        guard let first = scheme.first, (65...90).contains(first) || (97...122).contains(first) else { return false }
        let allowed = scheme.allSatisfy { (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 }
        guard allowed, !text.utf8.contains(where: { $0 <= 32 || $0 == 127 }) else { return false }
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
            guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return false }
        }
        let rest = text[text.index(after: colon)...]
        if rest.hasPrefix("//[") {
            let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            guard let close = authority.firstIndex(of: "]") else { return false }
            let port = authority[authority.index(after: close)...]
            return port.isEmpty || (port.first == ":" && port.dropFirst().allSatisfy { $0.isASCII && $0.isNumber })
        }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    /// Long values are cut in messages so one bad blob does not flood the reject log.
    public static func clipped(_ text: String) -> String {
        // At most 60 bytes of UTF-8 are at most 60 characters: no need to count them.
        text.utf8.count <= 60 || text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes without leading and trailing ASCII spaces and tabs.
    func trimmingASCIISpaces() -> UnsafeRawBufferPointer {
        var start = 0, end = count
        while start < end, self[start] == 32 || self[start] == 9 { start += 1 }
        while end > start, self[end - 1] == 32 || self[end - 1] == 9 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: self[start..<end])
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces and tabs.
    func trimmingASCIISpaces() -> String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { $0 != 32 && $0 != 9 }) else { return "" }
        let last = bytes.lastIndex(where: { $0 != 32 && $0 != 9 }) ?? first
        if first == bytes.startIndex && last == bytes.index(before: bytes.endIndex) { return self }
        return String(self[first...last])
    }
}
