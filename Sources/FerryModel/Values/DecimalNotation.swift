/// Decimal numbers as plain text, the form `AttributeValue.decimal` carries: optional `-`, no
/// exponent, no leading zeros before the point, no trailing zeros after it (`-12.50` → `-12.5`,
/// `1e-05` → `0.00001`, `-0` → `0`).
public enum DecimalNotation {
    /// The plain form of a decimal literal (`[+-]digits[.digits][e[+-]digits]`), or nil.
    public static func plain(_ literal: some Collection<UInt8>) -> String? {
        var bytes = literal[...]
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var exponent = 0
        if let marker = bytes.firstIndex(where: { $0 | 0x20 == UInt8(ascii: "e") }) {
            guard let value = Int(String(decoding: bytes[bytes.index(after: marker)...], as: UTF8.self)),
                  (-400...400).contains(value) else { return nil }
            exponent = value
            bytes = bytes[..<marker]
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let integral = parts.first ?? bytes[bytes.startIndex..<bytes.startIndex]
        let fraction = parts.count == 2 ? parts[1] : bytes[bytes.endIndex...]
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        guard parts.count <= 2, !(integral.isEmpty && fraction.isEmpty),
              integral.allSatisfy(isDigit), fraction.allSatisfy(isDigit) else { return nil }
        var digits = Array(integral) + Array(fraction)
        var point = integral.count + exponent
        if point > digits.count { digits += repeatElement(UInt8(ascii: "0"), count: point - digits.count) }
        if point < 1 {
            digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: 1 - point), at: 0)
            point = 1
        }
        var whole = digits[..<point]
        var decimals = digits[point...]
        while whole.count > 1, whole.first == UInt8(ascii: "0") { whole = whole.dropFirst() }
        while decimals.last == UInt8(ascii: "0") { decimals = decimals.dropLast() }
        let isZero = whole.allSatisfy { $0 == UInt8(ascii: "0") } && decimals.isEmpty
        var result = negative && !isZero ? "-" : ""
        result += String(decoding: whole, as: UTF8.self)
        if !decimals.isEmpty { result += "." + String(decoding: decimals, as: UTF8.self) }
        return result
    }

    /// The decimal a Core Data store gives back for the plain decimal `plain`: a store keeps a
    /// Decimal as a real (SQLite's DECIMAL column; `StoreValue`), so digits beyond what a Double
    /// holds are gone. Nil when no finite real holds it.
    public static func stored(_ plain: String) -> String? {
        guard let number = Double(plain), number.isFinite else { return nil }
        return self.plain(number)
    }

    /// The shortest decimal that reads back as `value`, in plain form; nil for NaN and infinities.
    public static func plain(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        return plain(value.description.utf8)
    }
}
