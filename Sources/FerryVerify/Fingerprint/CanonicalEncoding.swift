import FerryModel

/// The byte form a record's chosen attribute values are hashed in, shared by every side that
/// computes a fingerprint (a store read back, source records mapped to the destination model),
/// so that equal values give equal bytes whichever reader produced them.
///
/// Attributes are taken in byte order of their names; each contributes its value: a type tag,
/// then the payload. Names are not repeated in every record: a fingerprint is only compared
/// with one over the same attribute list (`FingerprintEntry.attributes`). A keyed record
/// (`RecordKeying`) has its `Z_PK` before its values, counted as one more value. Integers and lengths are little-endian; doubles are
/// their IEEE bits with `-0` folded to `0` and every NaN to one pattern; text is UTF-8. Every
/// variable-length part is length-prefixed, so no two different inputs share an encoding.
public enum CanonicalEncoding {
    /// Appends the encoding of `record`'s values of `attributes` (missing ones count as NULL),
    /// after its `key` when it is keyed.
    /// - Parameter attributes: names in byte order (see `ordered(_:)`).
    public static func append(_ record: [String: AttributeValue], attributes: [String], key: Int64? = nil, to bytes: inout [UInt8]) {
        appendRecordStart(attributeCount: attributes.count, key: key, to: &bytes)
        for name in attributes { append(record[name] ?? .null, to: &bytes) }
    }

    /// Starts a record's encoding: the count of what follows, then the record's `Z_PK` when it is
    /// keyed (`RecordKeying`). The key counts as one more value, so over one attribute list a
    /// keyed record never encodes as an unkeyed one.
    public static func appendRecordStart(attributeCount: Int, key: Int64?, to bytes: inout [UInt8]) {
        guard let key else {
            appendLength(attributeCount, to: &bytes)
            return
        }
        appendLength(attributeCount + 1, to: &bytes)
        append(.integer(key), to: &bytes)
    }

    /// Appends a list of values (a key), count-prefixed.
    public static func append(values: [AttributeValue], to bytes: inout [UInt8]) {
        appendLength(values.count, to: &bytes)
        for value in values { append(value, to: &bytes) }
    }

    /// Appends the values of `values` at `indexes` (a missing one as NULL) as a record's (after its
    /// `key` when it is keyed): what `append(_:attributes:key:to:)` gives for a record holding them,
    /// without gathering them first.
    public static func append(values: [AttributeValue], at indexes: [Int], key: Int64? = nil, to bytes: inout [UInt8]) {
        appendRecordStart(attributeCount: indexes.count, key: key, to: &bytes)
        for index in indexes { append(index < values.count ? values[index] : .null, to: &bytes) }
    }

    /// Appends one value: a tag byte and its payload.
    public static func append(_ value: AttributeValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(Tag.null.rawValue)
        case .integer(let number):
            bytes.append(Tag.integer.rawValue)
            appendInteger(UInt64(bitPattern: number), to: &bytes)
        case .double(let number):
            bytes.append(Tag.double.rawValue)
            appendInteger(canonicalBits(number), to: &bytes)
        case .decimal(let text): appendText(text, tag: .decimal, to: &bytes)
        case .string(let text): appendText(text, tag: .string, to: &bytes)
        case .bool(let flag):
            bytes.append(Tag.bool.rawValue)
            bytes.append(flag ? 1 : 0)
        case .date(let seconds):
            bytes.append(Tag.date.rawValue)
            appendInteger(canonicalBits(seconds), to: &bytes)
        case .binary(let data): data.withUnsafeBytes { appendBinary($0, to: &bytes) }
        case .uuid(let uuid): uuid.bytes.withUnsafeBytes { appendUUID($0, to: &bytes) }
        case .uri(let text): appendText(text, tag: .uri, to: &bytes)
        }
    }

    // MARK: Values given as bytes (a store's columns, without making Strings or arrays)

    /// Which text value some UTF-8 bytes are.
    enum TextKind {
        case string, uri
        fileprivate var tag: Tag { self == .string ? .string : .uri }
    }

    /// Appends `.string` or `.uri` of the text whose UTF-8 bytes `utf8` holds, as they are: valid
    /// UTF-8 encodes as the String of it would (a String keeps its bytes), and bytes that are not
    /// UTF-8 keep a fingerprint of their own instead of that of the U+FFFD a String would put in
    /// their place (so a copy that repaired them does not compare equal).
    static func appendText(_ utf8: UnsafeRawBufferPointer, as kind: TextKind, to bytes: inout [UInt8]) {
        bytes.append(kind.tag.rawValue)
        appendLength(utf8.count, to: &bytes)
        bytes.append(contentsOf: utf8)
    }

    /// Appends `.binary` of these bytes.
    static func appendBinary(_ data: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        bytes.append(Tag.binary.rawValue)
        appendLength(data.count, to: &bytes)
        bytes.append(contentsOf: data)
    }

    /// Appends `.uuid` of 16 bytes.
    static func appendUUID(_ uuid: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        bytes.append(Tag.uuid.rawValue)
        bytes.append(contentsOf: uuid)
    }

    /// Attribute names in the order the encoding takes them (UTF-8 byte order), duplicates removed.
    public static func ordered(_ attributes: [String]) -> [String] {
        Set(attributes).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func canonicalBits(_ number: Double) -> UInt64 {
        if number.isNaN { return Double.nan.bitPattern }
        return number == 0 ? 0 : number.bitPattern
    }

    /// The tag byte of each kind of value.
    fileprivate enum Tag: UInt8 {
        case null = 0, integer, double, decimal, string, bool, date, binary, uuid, uri
    }

    private static func appendText(_ text: String, tag: Tag, to bytes: inout [UInt8]) {
        bytes.append(tag.rawValue)
        appendLength(text.utf8.count, to: &bytes)
        bytes += text.utf8
    }

    /// Appends a count or byte length (as a little-endian 64-bit integer).
    static func appendLength(_ count: Int, to bytes: inout [UInt8]) {
        appendInteger(UInt64(count), to: &bytes)
    }

    private static func appendInteger(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
