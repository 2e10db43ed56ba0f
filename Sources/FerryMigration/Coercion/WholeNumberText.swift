/// The exact decimal text of floating-point values, to tell a whole number a Double or Float
/// holds from one it only comes near (`9007199254740993` reads back as `9007199254740992`).
enum WholeNumberText {
    /// The exact decimal digits of an integral, finite `value` (`-` before a negative one, none
    /// before zero): the form `DecimalNotation.plain` gives a whole number.
    static func digits(of value: Double) -> String {
        let magnitude = value.magnitude
        let sign = value < 0 ? "-" : ""
        if magnitude < 0x1p63 { return sign + String(UInt64(magnitude)) }
        // significand × 2^exponent, multiplied out in decimal (little-endian digits).
        var decimal = Array(String(UInt64(magnitude.significandBitPattern | (1 << 52))).utf8.reversed().map { $0 - 48 })
        for _ in 0..<(Int(magnitude.exponent) - 52) {
            var carry: UInt8 = 0
            for index in decimal.indices {
                let doubled = decimal[index] * 2 + carry
                decimal[index] = doubled % 10
                carry = doubled / 10
            }
            if carry > 0 { decimal.append(carry) }
        }
        return sign + String(decoding: decimal.reversed().map { $0 + 48 }, as: UTF8.self)
    }

    /// Whether the whole number `stored` is the plain decimal `plain` changed at most by its
    /// fraction's rounding: `plain` itself when it is whole, else its whole part or the next
    /// whole number away from zero (`123456789.5` may read back as 123456789 or 123456790, not
    /// as the Float's 123456792).
    static func isWithinRounding(_ stored: Double, of plain: String) -> Bool {
        let exact = digits(of: stored)
        guard let point = plain.firstIndex(of: ".") else { return exact == plain }
        let whole = String(plain[..<point])
        return exact == whole || exact == awayFromZero(whole)
    }

    /// The whole number after `whole` (plain digits, `-` before a negative one), away from zero.
    private static func awayFromZero(_ whole: String) -> String {
        let negative = whole.hasPrefix("-")
        var digits = Array((negative ? whole.dropFirst() : whole[...]).utf8)
        var index = digits.count - 1
        while index >= 0, digits[index] == UInt8(ascii: "9") {
            digits[index] = UInt8(ascii: "0")
            index -= 1
        }
        if index >= 0 { digits[index] += 1 } else { digits.insert(UInt8(ascii: "1"), at: 0) }
        return (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
    }

    /// Whether a number's text has a digit other than 0 before any exponent: a value that must
    /// not read back as zero.
    static func hasNonzeroDigit(_ text: String) -> Bool {
        for byte in text.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
            if (49...57).contains(byte) { return true }
        }
        return false
    }
}
