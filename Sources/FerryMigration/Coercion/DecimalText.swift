/// Exact decimal numbers as text: validated and normalised, never passed through binary floating point.
enum DecimalText {
    /// The canonical form of a decimal literal (`-12.50` → `-12.5`, `+007` → `7`, `1e3` → `1000`),
    /// or nil when the text is not a decimal number.
    static func canonical(_ text: String) -> String? {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var exponent = 0
        if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            guard let value = Int(String(decoding: bytes[(e + 1)...], as: UTF8.self)), abs(value) <= 400 else { return nil }
            exponent = value
            bytes = bytes[..<e]
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 2 else { return nil }
        let integral = parts[0]
        let fraction = parts.count == 2 ? parts[1] : []
        let isDigit = { (byte: UInt8) in (48...57).contains(byte) }
        guard !(integral.isEmpty && fraction.isEmpty), integral.allSatisfy(isDigit), fraction.allSatisfy(isDigit) else { return nil }
        var digits = Array(integral) + Array(fraction)
        var point = integral.count + exponent
        while point > digits.count { digits.append(UInt8(ascii: "0")) }
        while point < 1 { digits.insert(UInt8(ascii: "0"), at: 0); point += 1 }
        var whole = Array(digits[..<point])
        var decimals = Array(digits[point...])
        while whole.count > 1, whole.first == UInt8(ascii: "0") { whole.removeFirst() }
        while decimals.last == UInt8(ascii: "0") { decimals.removeLast() }
        let isZero = whole == [UInt8(ascii: "0")] && decimals.isEmpty
        var result = (negative && !isZero) ? "-" : ""
        result += String(decoding: whole, as: UTF8.self)
        if !decimals.isEmpty { result += "." + String(decoding: decimals, as: UTF8.self) }
        return result
    }
}
