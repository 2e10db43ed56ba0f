/// A typed attribute value, as a record carries it between readers, mappings and writers.
///
/// Dates are seconds since 2001-01-01 00:00:00 UTC (Core Data's reference date); decimals keep
/// their exact decimal text so no binary rounding happens on the way.
public enum AttributeValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case decimal(String)
    case string(String)
    case bool(Bool)
    case date(Double)
    case binary([UInt8])
    case uuid(UUIDBytes)
    case uri(String)

    public var isNull: Bool { self == .null }
}

/// A UUID as its 16 bytes, in the order Core Data stores them.
public struct UUIDBytes: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Wraps exactly 16 bytes; nil for any other count.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses the canonical text form (8-4-4-4-12 hex digits, either case).
    public init?(string: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        for (index, byte) in string.utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = Self.nibble(byte) else { return nil }
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard string.utf8.count == 36, bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The canonical upper-case text form.
    public var description: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
