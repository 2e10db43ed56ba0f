import FerryModel
import FoundationEssentials

/// Turns the text of a field into a value of an attribute's type.
///
/// Rules: integers are optional sign and decimal digits, range-checked for the type; booleans
/// are `1`/`0`, `true`/`false`, `yes`/`no` in any case; floating point is a finite decimal or
/// exponent number; decimals keep their exact text; dates are ISO 8601 or a number on the
/// configured epoch; UUIDs are 8-4-4-4-12 hex; URIs need a scheme; binary and transformable
/// values are base64 (line breaks allowed). Leading and trailing spaces are ignored for every type but String.
public enum TextCoercion {
    /// Converts UTF-8 text. The caller decides about empty fields first (see `CoercionOptions.EmptyField`).
    public static func value(_ text: String, as type: AttributeType, options: CoercionOptions = .init())
        -> Result<AttributeValue, CoercionFailure>
    {
        if type == .string { return .success(.string(text)) }
        let trimmed = text.trimmingASCIISpaces()
        switch type {
        case .integer16, .integer32, .integer64:
            return integer(trimmed, as: type)
        case .boolean:
            return boolean(trimmed)
        case .double, .float:
            return floating(trimmed, as: type)
        case .decimal:
            return DecimalNotation.plain(trimmed.utf8).map { .success(.decimal($0)) }
                ?? .failure(CoercionFailure("'\(clipped(text))' is not a decimal number"))
        case .date:
            return date(trimmed, epoch: options.numericDateEpoch)
        case .uuid:
            return UUIDBytes(string: trimmed).map { .success(.uuid($0)) }
                ?? .failure(CoercionFailure("'\(clipped(text))' is not a UUID (8-4-4-4-12 hex digits)"))
        case .uri:
            return isAbsoluteURI(trimmed) ? .success(.uri(trimmed))
                : .failure(CoercionFailure("'\(clipped(text))' is not an absolute URI"))
        case .binary, .transformable:
            let compact = String(decoding: trimmed.utf8.filter { $0 != 10 && $0 != 13 && $0 != 32 && $0 != 9 }, as: UTF8.self)
            return Data(base64Encoded: compact).map { .success(.binary([UInt8]($0))) }
                ?? .failure(CoercionFailure("not valid base64 (\(trimmed.utf8.count) characters)"))
        case .string:
            return .success(.string(text))
        case .undefined, .objectID, .composite:
            return .failure(CoercionFailure("attributes of type \(type.xcodeName) cannot be imported"))
        }
    }

    static func integer(_ text: String, as type: AttributeType) -> Result<AttributeValue, CoercionFailure> {
        guard let value = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text) else {
            let isNumeric = !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) || $0 == 45 || $0 == 43 }
            return .failure(CoercionFailure(isNumeric ? "\(text) is out of range for \(type.xcodeName)"
                                                      : "'\(clipped(text))' is not an integer"))
        }
        guard let range = type.integerRange, range.contains(value) else {
            return .failure(CoercionFailure("\(value) is out of range for \(type.xcodeName)"))
        }
        return .success(.integer(value))
    }

    static func boolean(_ text: String) -> Result<AttributeValue, CoercionFailure> {
        switch text.lowercased() {
        case "1", "true", "yes": .success(.bool(true))
        case "0", "false", "no": .success(.bool(false))
        default: .failure(CoercionFailure("'\(clipped(text))' is not a boolean (1/0, true/false, yes/no)"))
        }
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
        return .success(.double(value))
    }

    static func date(_ text: String, epoch: CoercionOptions.NumericDateEpoch) -> Result<AttributeValue, CoercionFailure> {
        if let seconds = DateText.referenceSeconds(iso8601: text) { return .success(.date(seconds)) }
        if case let .success(.double(number)) = floating(text, as: .double) {
            switch epoch {
            case .unixSeconds: return .success(.date(number - DateText.unixToReferenceOffset))
            case .unixMilliseconds: return .success(.date(number / 1000 - DateText.unixToReferenceOffset))
            case .referenceSeconds: return .success(.date(number))
            }
        }
        return .failure(CoercionFailure("'\(clipped(text))' is not a date (ISO 8601, or a number of seconds since 1970)"))
    }

    /// `scheme:rest` where the scheme is a letter followed by letters, digits, `+`, `-` or `.`.
    static func isAbsoluteURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else { return false }
        let scheme = text[..<colon].utf8
        guard let first = scheme.first, (65...90).contains(first) || (97...122).contains(first) else { return false }
        let allowed = scheme.allSatisfy { (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 }
        return allowed && !text.utf8.contains { $0 <= 32 }
    }

    /// Long values are cut in messages so one bad blob does not flood the reject log.
    static func clipped(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(57)) + "..." : text
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
