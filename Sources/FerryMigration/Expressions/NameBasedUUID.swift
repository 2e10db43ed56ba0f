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
        var hasher = SHA256()
        hasher.update(namespace)
        for argument in arguments {
            let (tag, payload) = encoding(argument)
            hasher.update([tag])
            hasher.update((0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> ($0 * 8)) })
            hasher.update(payload)
        }
        var bytes = Array(hasher.finalize().prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUIDBytes(bytes)
    }

    private static func encoding(_ value: AttributeValue) -> (tag: UInt8, payload: [UInt8]) {
        switch value {
        case .null: (0, [])
        case let .integer(number): (1, Array(String(number).utf8))
        case let .double(number): (1, Array((DecimalNotation.plain(number) ?? String(number)).utf8))
        case let .decimal(text): (1, Array((ExactDecimal(text)?.text ?? text).utf8))
        case let .string(text): (2, Array(text.utf8))
        case let .bool(flag): (3, [flag ? 1 : 0])
        case let .date(seconds): (4, Array((DecimalNotation.plain(seconds) ?? String(seconds)).utf8))
        case let .binary(bytes): (5, bytes)
        case let .uuid(uuid): (6, uuid.bytes)
        case let .uri(text): (7, Array(text.utf8))
        }
    }
}
