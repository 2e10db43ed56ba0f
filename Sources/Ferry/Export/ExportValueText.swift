import FerryFormats
import FerryModel

/// The text of an attribute value in an export: integers in decimal, reals as the shortest text
/// that reads back the same (`NaN`, `Infinity`, `-Infinity` for the rest), decimals as their
/// exact text, Booleans `true`/`false`, dates as ISO 8601 UTC with fractional seconds, binary as
/// base64, UUIDs in their 8-4-4-4-12 form. NULL has no text.
enum ExportValueText {
    static func text(_ value: AttributeValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): String(number)
        case .double(let number): real(number)
        case .decimal(let text), .string(let text), .uri(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .date(let seconds): ISO8601Date.format(seconds) ?? real(seconds)
        case .binary(let bytes): PropertyListBase64.text(bytes)
        case .uuid(let uuid): uuid.description
        }
    }

    static func real(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return number.description
    }
}
