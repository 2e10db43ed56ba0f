import FerryModel

/// `uuid(a, b, ...)`: a UUID that depends only on the argument values, the same on every run and
/// every machine.
///
/// Recipe (version 1 of it; changing any step changes every id):
/// 1. Start from the 21 ASCII bytes `ferry-mapping-uuid-v1` (the namespace).
/// 2. Append each argument as one tag byte, its payload's length as 8 bytes big-endian, then the
///    payload. Tags and payloads: 0 nil (empty); 1 number, the plain decimal text of its value
///    (`DecimalNotation`: integer 1, double 1.0 and decimal 1.00 are all `1`); 2 string, its UTF-8
///    bytes as stored (no normalisation); 3 boolean, one byte 0 or 1; 4 date, the plain decimal
///    text of its seconds since 2001; 5 binary, its bytes; 6 UUID, its 16 bytes; 7 URI, its UTF-8 bytes.
///    The length prefix keeps ("ab", "c") apart from ("a", "bc"); the tag keeps 1 apart from "1"
///    and nil apart from "".
/// 3. Hash all of it with SHA-256 and keep the first 16 bytes.
/// 4. Set the version nibble (high half of byte 6) to 8, RFC 9562's custom version, and the
///    variant bits (top two of byte 8) to `10`.
enum NameBasedUUID {
    static let namespace = Array("ferry-mapping-uuid-v1".utf8)

    static func make(_ arguments: [AttributeValue]) -> UUIDBytes? {
        var message = namespace
        message.reserveCapacity(namespace.count + 64 * arguments.count)
        for argument in arguments { append(argument, to: &message) }
        var bytes = [UInt8](repeating: 0, count: 16)
        message.withUnsafeBytes { whole in bytes.withUnsafeMutableBytes { SHA256.hash(whole, into: $0) } }
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUIDBytes(bytes)
    }

    /// Appends a value's tag, its payload's length (8 bytes, big-endian) and the payload.
    private static func append(_ value: AttributeValue, to message: inout [UInt8]) {
        switch value {
        case .null: append(tag: 0, [UInt8](), to: &message)
        case let .integer(number): append(tag: 1, String(number).utf8, to: &message)
        case let .double(number): append(tag: 1, (DecimalNotation.plain(number) ?? String(number)).utf8, to: &message)
        case let .decimal(text): append(tag: 1, (ExactDecimal(text)?.text ?? text).utf8, to: &message)
        case let .string(text): append(tag: 2, text.utf8, to: &message)
        case let .bool(flag): append(tag: 3, CollectionOfOne<UInt8>(flag ? 1 : 0), to: &message)
        case let .date(seconds): append(tag: 4, (DecimalNotation.plain(seconds) ?? String(seconds)).utf8, to: &message)
        case let .binary(bytes): append(tag: 5, bytes, to: &message)
        case let .uuid(uuid): append(tag: 6, uuid.bytes, to: &message)
        case let .uri(text): append(tag: 7, text.utf8, to: &message)
        }
    }

    private static func append(tag: UInt8, _ payload: some Collection<UInt8>, to message: inout [UInt8]) {
        message.append(tag)
        let length = UInt64(payload.count)
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        message.append(contentsOf: payload)
    }
}
