import FerryModel

/// The byte form a record's chosen attribute values are hashed in, shared by every side that
/// computes a fingerprint (a store read back, source records mapped to the destination model),
/// so that equal values give equal bytes whichever reader produced them.
///
/// Attributes are taken in byte order of their names; each contributes its value: a type tag,
/// then the payload. Names are not repeated in every record: a fingerprint is only compared
/// with one over the same attribute list (`FingerprintEntry.attributes`). Integers and lengths are little-endian; doubles are
/// their IEEE bits with `-0` folded to `0` and every NaN to one pattern; text is UTF-8. Every
/// variable-length part is length-prefixed, so no two different inputs share an encoding.
public enum CanonicalEncoding {
    /// Appends the encoding of `record`'s values of `attributes` (missing ones count as NULL).
    /// - Parameter attributes: names in byte order (see `ordered(_:)`).
    public static func append(_ record: [String: AttributeValue], attributes: [String], to bytes: inout [UInt8]) {
        appendLength(attributes.count, to: &bytes)
        for name in attributes { append(record[name] ?? .null, to: &bytes) }
    }

    /// Appends a list of values (a key), count-prefixed.
    public static func append(values: [AttributeValue], to bytes: inout [UInt8]) {
        appendLength(values.count, to: &bytes)
        for value in values { append(value, to: &bytes) }
    }

    /// Appends one value: a tag byte and its payload.
    public static func append(_ value: AttributeValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(0)
        case .integer(let number):
            bytes.append(1)
            appendInteger(UInt64(bitPattern: number), to: &bytes)
        case .double(let number):
            bytes.append(2)
            appendInteger(canonicalBits(number), to: &bytes)
        case .decimal(let text):
            bytes.append(3)
            appendText(text, to: &bytes)
        case .string(let text):
            bytes.append(4)
            appendText(text, to: &bytes)
        case .bool(let flag):
            bytes.append(5)
            bytes.append(flag ? 1 : 0)
        case .date(let seconds):
            bytes.append(6)
            appendInteger(canonicalBits(seconds), to: &bytes)
        case .binary(let data):
            bytes.append(7)
            appendLength(data.count, to: &bytes)
            bytes += data
        case .uuid(let uuid):
            bytes.append(8)
            bytes += uuid.bytes
        case .uri(let text):
            bytes.append(9)
            appendText(text, to: &bytes)
        }
    }

    /// Attribute names in the order the encoding takes them (UTF-8 byte order), duplicates removed.
    public static func ordered(_ attributes: [String]) -> [String] {
        Set(attributes).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func canonicalBits(_ number: Double) -> UInt64 {
        if number.isNaN { return Double.nan.bitPattern }
        return number == 0 ? 0 : number.bitPattern
    }

    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        appendLength(text.utf8.count, to: &bytes)
        bytes += text.utf8
    }

    private static func appendLength(_ count: Int, to bytes: inout [UInt8]) {
        appendInteger(UInt64(count), to: &bytes)
    }

    private static func appendInteger(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
