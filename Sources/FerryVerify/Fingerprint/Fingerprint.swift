import FerryModel

/// An order-independent fingerprint of a multiset of records (or of relationship pairs): how
/// many there are, and the sum modulo 2^256 of the SHA-256 of each one's canonical encoding.
///
/// Why a sum: it does not depend on the order records arrive in (a store streams by `Z_PK`, a
/// source file in its own order), it can be computed in one pass in constant memory, and two
/// partial fingerprints add up. Unlike XOR, a sum keeps multiplicity: a record written twice
/// changes it (XOR would cancel the pair). Why it is enough: each term is a SHA-256 digest, so an
/// accidental difference (a lost, duplicated or changed record) leaves the sum unchanged with
/// probability about 2^-256. It is a check against accidents, not against someone crafting
/// records to collide (sums of hashes admit generalized-birthday attacks far below 2^128).
public struct Fingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Records (or pairs) added.
    public private(set) var count: Int64
    /// The 256-bit sum as four 64-bit limbs, least significant first.
    private var limbs: [UInt64]

    /// The fingerprint of nothing.
    public init() {
        count = 0
        limbs = [0, 0, 0, 0]
    }

    /// Adds one record's values of `attributes` (names in `CanonicalEncoding.ordered` order).
    public mutating func add(_ record: [String: AttributeValue], attributes: [String]) {
        var bytes: [UInt8] = []
        CanonicalEncoding.append(record, attributes: attributes, to: &bytes)
        add(encoded: bytes)
    }

    /// Adds one relationship pair, each end given by its key values (`EdgeKey` order).
    public mutating func add(source: [AttributeValue], destination: [AttributeValue]) {
        var bytes: [UInt8] = []
        CanonicalEncoding.append(values: source, to: &bytes)
        CanonicalEncoding.append(values: destination, to: &bytes)
        add(encoded: bytes)
    }

    /// Adds one element given as its canonical encoding.
    public mutating func add(encoded bytes: [UInt8]) {
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update($0) }
        let digest = hasher.finalize()
        var carry = false
        for limb in 0..<4 {
            var word: UInt64 = 0
            for byte in 0..<8 { word |= UInt64(digest[limb * 8 + byte]) << (8 * UInt64(byte)) }
            let (partial, overflow1) = limbs[limb].addingReportingOverflow(word)
            let (sum, overflow2) = partial.addingReportingOverflow(carry ? 1 : 0)
            limbs[limb] = sum
            carry = overflow1 || overflow2
        }
        count += 1
    }

    /// Combines two fingerprints of disjoint parts.
    public mutating func merge(_ other: Fingerprint) {
        var carry = false
        for limb in 0..<4 {
            let (partial, overflow1) = limbs[limb].addingReportingOverflow(other.limbs[limb])
            let (sum, overflow2) = partial.addingReportingOverflow(carry ? 1 : 0)
            limbs[limb] = sum
            carry = overflow1 || overflow2
        }
        count += other.count
    }

    /// The sum as 64 hex digits, most significant first.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for limb in limbs.reversed() {
            for shift in stride(from: 60, through: 0, by: -4) { text.append(digits[Int((limb >> UInt64(shift)) & 0xF)]) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { "\(count) × \(hex)" }

    private enum CodingKeys: String, CodingKey { case count, digest }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int64.self, forKey: .count)
        let text = Array(try container.decode(String.self, forKey: .digest).utf8)
        guard text.count == 64 else {
            throw DecodingError.dataCorruptedError(forKey: .digest, in: container, debugDescription: "not 64 hex digits")
        }
        var parsed: [UInt64] = []
        for limb in 0..<4 {
            var word: UInt64 = 0
            for byte in text[(48 - limb * 16)..<(64 - limb * 16)] {
                guard let nibble = Self.nibble(byte) else {
                    throw DecodingError.dataCorruptedError(forKey: .digest, in: container, debugDescription: "not hex")
                }
                word = word << 4 | nibble
            }
            parsed.append(word)
        }
        limbs = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(hex, forKey: .digest)
    }

    private static func nibble(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }
}
