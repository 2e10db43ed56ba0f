/// Finds the first of four byte values (repeated values allowed) in a run of bytes, eight bytes
/// at a time: a word-wide test for a zero byte in the word XORed with each value. The CSV
/// scanner's loops over a field's bytes use it (an unquoted field ends at LF, CR or the
/// delimiter; a quoted one stops at LF, CR, the quote or the escape byte), where a lookup per
/// byte cost six instructions a byte, most of a CSV row's reading.
struct ByteSetScan {
    private let values: (UInt8, UInt8, UInt8, UInt8)
    /// Each value repeated in every byte of a word.
    private let words: (UInt64, UInt64, UInt64, UInt64)
    /// Each value repeated in every lane of a vector.
    private let vectors: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>)

    init(_ first: UInt8, _ second: UInt8, _ third: UInt8, _ fourth: UInt8) {
        values = (first, second, third, fourth)
        let ones: UInt64 = 0x0101_0101_0101_0101
        words = (UInt64(first) &* ones, UInt64(second) &* ones, UInt64(third) &* ones, UInt64(fourth) &* ones)
        vectors = (SIMD16(repeating: first), SIMD16(repeating: second), SIMD16(repeating: third), SIMD16(repeating: fourth))
    }

    /// The index of the first byte of `bytes[start..<end]` that is one of the values, or `end`.
    @inline(__always)
    func firstIndex(in bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        // Sixteen bytes at a time compared with each value (vector compares); the first matching
        // lane is read off the comparison itself (a short field, most of a CSV's, ends in the
        // first block: going on to the word loop cost it twice the instructions).
        while index + 16 <= end {
            let block = UnsafeRawPointer(bytes + index).loadUnaligned(as: SIMD16<UInt8>.self)
            let matches = (block .== vectors.0) .| (block .== vectors.1) .| (block .== vectors.2) .| (block .== vectors.3)
            if any(matches) {
                // Each lane of the mask is all ones or all zeros: as two little-endian words, the
                // lowest set bit is in the first matching lane.
                let lanes = unsafeBitCast(matches, to: SIMD2<UInt64>.self)
                let low = UInt64(littleEndian: lanes[0])
                return low != 0 ? index + low.trailingZeroBitCount >> 3 : index + 8 + UInt64(littleEndian: lanes[1]).trailingZeroBitCount >> 3
            }
            index += 16
        }
        while index + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            let found = Self.zeroBytes(word ^ words.0) | Self.zeroBytes(word ^ words.1)
                | Self.zeroBytes(word ^ words.2) | Self.zeroBytes(word ^ words.3)
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < end {
            let byte = bytes[index]
            if byte == values.0 || byte == values.1 || byte == values.2 || byte == values.3 { return index }
            index += 1
        }
        return end
    }

    /// The high bit of each byte of `word` that is zero is set. Bytes above a zero byte may be
    /// marked too (the subtraction borrows upward), never bytes below it: the lowest mark, the
    /// one `firstIndex` reads, is exact.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }
}
