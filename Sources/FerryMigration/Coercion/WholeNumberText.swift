/// The text of a whole number (optional sign, decimal digits, no fraction or exponent), compared
/// exactly with a floating-point value: whether a Double or Float holds that very number, or only
/// its nearest neighbour (`9007199254740993` reads back as `9007199254740992`).
struct WholeNumberText {
    let negative: Bool
    /// The digits without leading zeros ("0" for zero).
    let digits: String

    /// Nil when `text` has a fraction, an exponent or anything but an optional sign and digits.
    init?(_ text: String) {
        var bytes = Substring(text).utf8[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        guard !bytes.isEmpty, bytes.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let significant = bytes.drop { $0 == UInt8(ascii: "0") }
        self.negative = negative
        digits = significant.isEmpty ? "0" : String(decoding: significant, as: UTF8.self)
    }

    /// Whether `value` is exactly this number (a zero's sign aside).
    func equals(_ value: Double) -> Bool {
        guard value.isFinite, value == value.rounded(.towardZero) else { return false }
        return Self.digits(of: value) == (negative && digits != "0" ? "-" : "") + digits
    }

    /// The exact decimal digits of an integral, finite `value` (`-` before a negative one).
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
