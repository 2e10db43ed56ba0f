/// An order-independent digest of a multiset of short rows of keys (a relationship's pairs, an
/// index's entries, a table's rows over the same columns): how many, and two 64-bit sums of each
/// row's hash under two seeds. Two readings of the same rows in different orders (a table scan by
/// rowid, an index in key order, a merge of lists by source) give the same digest; a row lost,
/// added or changed (a pair moved to another destination, which leaves every count as it was)
/// changes it, but for an accidental collision of about 2^-128.
///
/// It compares two readings of one store within one run, against damage, not against someone
/// crafting rows to collide; fingerprints that are kept or compared with other stores use
/// SHA-256 (FerryVerify's `Fingerprint`). Hashing a row costs a few multiplications, so a check
/// can read a relationship's pairs twice and still cost little more than the reads.
public struct KeyRowDigest: Sendable, Equatable {
    /// Rows added.
    public private(set) var count: Int64 = 0
    private var sumA: UInt64 = 0
    private var sumB: UInt64 = 0

    /// The digest of nothing.
    public init() {}

    /// Adds one pair of keys, source first.
    public mutating func add(_ first: Int64, _ second: Int64) {
        var row = RowHash()
        row.add(first)
        row.add(second)
        add(row)
    }

    /// Adds the current row of `statement`, its first `columns` result columns: integers by
    /// value, NULL, reals and text or blob bytes each told apart by their storage class.
    mutating func add(_ statement: SQLiteStatement, columns: Int32) {
        var row = RowHash()
        for column in 0..<columns {
            let value = statement.value(at: column)
            switch value.storageClass {
            case .integer:
                row.add(value.int64)
            case .null:
                row.tag(.null)
            case .real:
                row.tag(.real)
                row.add(Int64(bitPattern: value.double.bitPattern))
            case .text, .blob:
                row.tag(value.storageClass)
                value.withBlob { bytes in row.add(bytes) }
            }
        }
        add(row)
    }

    private mutating func add(_ row: RowHash) {
        sumA &+= row.a
        sumB &+= row.b
        count += 1
    }

    /// One row's hash: two lanes, each value folded in through SplitMix64's finalizer.
    private struct RowHash {
        var a: UInt64 = 0x243F_6A88_85A3_08D3
        var b: UInt64 = 0x1319_8A2E_0370_7344

        mutating func add(_ value: Int64) {
            let bits = UInt64(bitPattern: value)
            a = Self.mix(a ^ bits)
            b = Self.mix(b ^ bits)
        }

        /// Marks the storage class of a value that is not an integer: tags are kept apart from
        /// integers by the lengths and positions they add.
        mutating func tag(_ storageClass: StorageClass) {
            a = Self.mix(a &+ UInt64(storageClass.rawValue) &* 0x9E37_79B9_7F4A_7C15)
            b = Self.mix(b &+ UInt64(storageClass.rawValue) &* 0xC2B2_AE3D_27D4_EB4F)
        }

        /// Folds in bytes eight at a time, then their length.
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var offset = 0
            while offset < bytes.count {
                var word: UInt64 = 0
                for index in offset..<min(offset + 8, bytes.count) { word |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
                add(Int64(bitPattern: word))
                offset += 8
            }
            add(Int64(bytes.count))
        }

        @inline(__always)
        static func mix(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
