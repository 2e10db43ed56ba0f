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
    private var limb0: UInt64 = 0, limb1: UInt64 = 0, limb2: UInt64 = 0, limb3: UInt64 = 0

    /// The fingerprint of nothing.
    public init() {
        count = 0
    }

    /// Adds one record's values of `attributes` (names in `CanonicalEncoding.ordered` order),
    /// tied to its `key` when it is keyed (`RecordKeying`).
    public mutating func add(_ record: [String: AttributeValue], attributes: [String], key: Int64? = nil) {
        var bytes: [UInt8] = []
        CanonicalEncoding.append(record, attributes: attributes, key: key, to: &bytes)
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
        bytes.withUnsafeBytes { add(encoded: $0) }
    }

    /// Adds one element given as its canonical encoding, without allocating.
    public mutating func add(encoded bytes: UnsafeRawBufferPointer) {
        add(Term(encoded: bytes))
    }

    /// One element's share of the sum: the SHA-256 of its canonical encoding, read as a 256-bit
    /// number. Kept by whoever may have to take the element out again (`remove(_:)`).
    public struct Term: Sendable, Equatable {
        fileprivate let word0: UInt64, word1: UInt64, word2: UInt64, word3: UInt64

        /// The term of the element with this canonical encoding (the digest as four
        /// little-endian 64-bit words, least significant first).
        public init(encoded bytes: UnsafeRawBufferPointer) {
            (word0, word1, word2, word3) = withUnsafeTemporaryAllocation(byteCount: SHA256.byteCount, alignment: 8) { digest in
                SHA256.hash(bytes, into: digest)
                return (UInt64(littleEndian: digest.load(fromByteOffset: 0, as: UInt64.self)),
                        UInt64(littleEndian: digest.load(fromByteOffset: 8, as: UInt64.self)),
                        UInt64(littleEndian: digest.load(fromByteOffset: 16, as: UInt64.self)),
                        UInt64(littleEndian: digest.load(fromByteOffset: 24, as: UInt64.self)))
            }
        }
    }

    /// Adds one element by its term.
    public mutating func add(_ term: Term) {
        add(term.word0, term.word1, term.word2, term.word3)
        count += 1
    }

    /// Takes out one element added before (its term added to the sum's negation: two's complement).
    public mutating func remove(_ term: Term) {
        let (negated0, carry0) = (~term.word0).addingReportingOverflow(1)
        let (negated1, carry1) = (~term.word1).addingReportingOverflow(carry0 ? 1 : 0)
        let (negated2, carry2) = (~term.word2).addingReportingOverflow(carry1 ? 1 : 0)
        let negated3 = (~term.word3) &+ (carry2 ? 1 : 0)
        add(negated0, negated1, negated2, negated3)
        count -= 1
    }

    /// Combines two fingerprints of disjoint parts.
    public mutating func merge(_ other: Fingerprint) {
        add(other.limb0, other.limb1, other.limb2, other.limb3)
        count += other.count
    }

    /// Adds a 256-bit number (limbs least significant first) to the sum, modulo 2^256.
    private mutating func add(_ word0: UInt64, _ word1: UInt64, _ word2: UInt64, _ word3: UInt64) {
        var carry: UInt64 = 0
        (limb0, carry) = Self.sum(limb0, word0, carry)
        (limb1, carry) = Self.sum(limb1, word1, carry)
        (limb2, carry) = Self.sum(limb2, word2, carry)
        (limb3, _) = Self.sum(limb3, word3, carry)
    }

    /// `a + b + carry` and the carry out (0 or 1).
    @inline(__always)
    private static func sum(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let (partial, overflow1) = a.addingReportingOverflow(b)
        let (total, overflow2) = partial.addingReportingOverflow(carry)
        return (total, overflow1 || overflow2 ? 1 : 0)
    }

    /// The sum as 64 hex digits, most significant first.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for limb in [limb3, limb2, limb1, limb0] {
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
        (limb0, limb1, limb2, limb3) = (parsed[0], parsed[1], parsed[2], parsed[3])
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
