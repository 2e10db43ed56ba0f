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

    public var isNull: Bool { if case .null = self { true } else { false } }
}

/// Values are equal as a store keeps them: texts (strings, URIs, decimal text) by their UTF-8
/// bytes, as SQLite compares them, not by Swift's canonical equivalence, which took "é" as one
/// scalar and as "e" with a combining accent for one value (a tag of each spelling merged into
/// one record, a `lookup` key matching text a `where` filter said was other text). Doubles and
/// dates compare as numbers (0.0 equals -0.0; NaN equals nothing, itself included).
extension AttributeValue {
    public static func == (lhs: AttributeValue, rhs: AttributeValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.integer(a), .integer(b)): a == b
        case let (.double(a), .double(b)), let (.date(a), .date(b)): a == b
        case let (.decimal(a), .decimal(b)), let (.string(a), .string(b)), let (.uri(a), .uri(b)): Self.sameBytes(a, b)
        case let (.bool(a), .bool(b)): a == b
        case let (.binary(a), .binary(b)): a == b
        case let (.uuid(a), .uuid(b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case let .integer(number): hasher.combine(1); hasher.combine(number)
        case let .double(number): hasher.combine(2); hasher.combine(number)
        case let .decimal(text): hasher.combine(3); Self.hashBytes(text, into: &hasher)
        case let .string(text): hasher.combine(4); Self.hashBytes(text, into: &hasher)
        case let .bool(flag): hasher.combine(5); hasher.combine(flag)
        case let .date(seconds): hasher.combine(6); hasher.combine(seconds)
        case let .binary(bytes): hasher.combine(7); hasher.combine(bytes)
        case let .uuid(uuid): hasher.combine(8); hasher.combine(uuid)
        case let .uri(text): hasher.combine(9); Self.hashBytes(text, into: &hasher)
        }
    }

    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    private static func hashBytes(_ text: String, into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        if text.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }
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
