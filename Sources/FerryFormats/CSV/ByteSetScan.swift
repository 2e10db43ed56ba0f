/// Finds the first of four byte values (repeated values allowed) in a run of bytes, eight bytes
/// at a time: a word-wide test for a zero byte in the word XORed with each value. The CSV
/// scanner's loops over a field's bytes use it (an unquoted field ends at LF, CR or the
/// delimiter; a quoted one stops at LF, CR, the quote or the escape byte), where a lookup per
/// byte cost six instructions a byte, most of a CSV row's reading.
struct ByteSetScan {
    private let values: (UInt8, UInt8, UInt8, UInt8)
    /// Each value repeated in every byte of a word.
    private let words: (UInt64, UInt64, UInt64, UInt64)

    init(_ first: UInt8, _ second: UInt8, _ third: UInt8, _ fourth: UInt8) {
        values = (first, second, third, fourth)
        let ones: UInt64 = 0x0101_0101_0101_0101
        words = (UInt64(first) &* ones, UInt64(second) &* ones, UInt64(third) &* ones, UInt64(fourth) &* ones)
    }

    /// The index of the first byte of `bytes[start..<end]` that is one of the values, or `end`.
    @inline(__always)
    func firstIndex(in bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
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
