/// `numeric` in PostgreSQL's binary format: digit count, weight (of the first base-10000 digit,
/// 0 for the units), sign, display scale (digits after the point), then base-10000 digits.
/// Converted to and from plain decimal text (`-12.5`, `0.001`, no exponent), exactly.
public enum PostgresNumeric {
    private static let positive: UInt16 = 0x0000
    private static let negative: UInt16 = 0x4000
    private static let notANumber: UInt16 = 0xC000

    /// The binary form of plain decimal text (`[-]digits[.digits]`); nil for anything else.
    public static func encode(_ text: String) -> [UInt8]? {
        var bytes = Substring(text).utf8[...]
        let isNegative = bytes.first == UInt8(ascii: "-")
        if isNegative { bytes = bytes.dropFirst() }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let whole = Array(parts[0])
        let fraction = parts.count == 2 ? Array(parts[1]) : []
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        guard !whole.isEmpty, whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit), parts.count == 2 ? !fraction.isEmpty : true,
              fraction.count <= 16383 else { return nil }
        let wholePadding = (4 - whole.count % 4) % 4
        let fractionPadding = (4 - fraction.count % 4) % 4
        let digits = Array(repeating: UInt8(ascii: "0"), count: wholePadding) + whole + fraction
            + Array(repeating: UInt8(ascii: "0"), count: fractionPadding)
        var groups = stride(from: 0, to: digits.count, by: 4).map { start in
            digits[start..<start + 4].reduce(Int16(0)) { $0 * 10 + Int16($1 - 0x30) }
        }
        var weight = Int16((whole.count + wholePadding) / 4 - 1)
        while groups.first == 0 {
            groups.removeFirst()
            weight -= 1
        }
        while groups.last == 0 { groups.removeLast() }
        if groups.isEmpty { weight = 0 }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(8 + 2 * groups.count)
        PostgresBinary.append(Int16(groups.count), to: &buffer)
        PostgresBinary.append(weight, to: &buffer)
        PostgresBinary.append(isNegative && !groups.isEmpty ? negative : positive, to: &buffer)
        PostgresBinary.append(Int16(fraction.count), to: &buffer)
        for group in groups { PostgresBinary.append(group, to: &buffer) }
        return buffer
    }

    /// The decimal text of a binary `numeric`, as PostgreSQL prints it (all `dscale` digits after
    /// the point); nil for NaN and infinities.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(PostgresError) -> String? {
        guard bytes.count >= 8 else { throw .value(reason: "a numeric field of \(bytes.count) bytes") }
        func word(_ index: Int) -> UInt16 { PostgresBinary.integer(UnsafeRawBufferPointer(rebasing: bytes[index * 2..<index * 2 + 2]), as: UInt16.self) }
        let count = Int(word(0)), weight = Int(Int16(bitPattern: word(1))), sign = word(2), scale = Int(word(3))
        guard sign == positive || sign == negative else { return nil }
        guard bytes.count == 8 + 2 * count else { throw .value(reason: "a numeric field of \(bytes.count) bytes for \(count) digits") }
        let groups = (0..<count).map { Int(word(4 + $0)) }
        func group(_ position: Int) -> Int {
            let index = weight - position
            return index >= 0 && index < groups.count ? groups[index] : 0
        }
        var whole = ""
        for position in stride(from: max(weight, 0), through: 0, by: -1) {
            let value = group(position)
            whole += whole.isEmpty ? String(value) : Self.fourDigits(value)
        }
        if whole.isEmpty || whole.allSatisfy({ $0 == "0" }) { whole = "0" }
        var fraction = ""
        var position = -1
        while fraction.count < scale {
            fraction += Self.fourDigits(group(position))
            position -= 1
        }
        fraction = String(fraction.prefix(scale))
        let isZero = groups.allSatisfy { $0 == 0 }
        return (sign == negative && !isZero ? "-" : "") + whole + (scale > 0 ? "." + fraction : "")
    }

    private static func fourDigits(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: 4 - text.count) + text
    }
}
