/// Decimal numbers as plain text, the form `AttributeValue.decimal` carries: optional `-`, no
/// exponent, no leading zeros before the point, no trailing zeros after it (`-12.50` → `-12.5`,
/// `1e-05` → `0.00001`, `-0` → `0`).
public enum DecimalNotation {
    /// The plain form of a decimal literal (`[+-]digits[.digits][e[+-]digits]`, an exponent of at
    /// most 400 either way), or nil.
    public static func plain(_ literal: some Collection<UInt8>) -> String? {
        if let plain = literal.withContiguousStorageIfAvailable(plain(bytes:)) { return plain }
        return Array(literal).withUnsafeBufferPointer(plain(bytes:))
    }

    /// `plain` of contiguous bytes: the parts found in one pass, the digits written in another
    /// straight into the string (a migration converting a text column to Decimal spent a seventh
    /// of its time here when it split, copied and joined arrays).
    private static func plain(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 0, end = bytes.count
        var negative = false
        if start < end, bytes[start] == minus || bytes[start] == plus {
            negative = bytes[start] == minus
            start += 1
        }
        var exponent = 0
        if let marker = (start..<end).first(where: { bytes[$0] | 0x20 == UInt8(ascii: "e") }) {
            guard let value = Self.exponent(bytes, from: marker + 1) else { return nil }
            exponent = value
            end = marker
        }
        var integralEnd = start
        while integralEnd < end, isDigit(bytes[integralEnd]) { integralEnd += 1 }
        var fractionStart = end
        if integralEnd < end {
            guard bytes[integralEnd] == dot else { return nil }
            fractionStart = integralEnd + 1
            guard (fractionStart..<end).allSatisfy({ isDigit(bytes[$0]) }) else { return nil }
        }
        let integralCount = integralEnd - start
        let count = integralCount + (end - fractionStart)
        guard count > 0 else { return nil }
        // The digits of the integral part and then the fraction's, `point` of them before the
        // point, padded with zeros on either side to hold it.
        let point = integralCount + exponent
        let leadingZeros = max(0, 1 - point)
        let before = max(point, 1)
        let length = max(count, point) + leadingZeros
        func digit(_ index: Int) -> UInt8 {
            let position = index - leadingZeros
            guard position >= 0, position < count else { return zero }
            return position < integralCount ? bytes[start + position] : bytes[fractionStart + position - integralCount]
        }
        var wholeStart = 0
        while wholeStart < before - 1, digit(wholeStart) == zero { wholeStart += 1 }
        var decimalsEnd = length
        while decimalsEnd > before, digit(decimalsEnd - 1) == zero { decimalsEnd -= 1 }
        let isZero = before - wholeStart == 1 && digit(wholeStart) == zero && decimalsEnd == before
        let signed = negative && !isZero
        return String(unsafeUninitializedCapacity: decimalsEnd - wholeStart + 2) { buffer in
            var written = 0
            if signed {
                buffer[0] = minus
                written = 1
            }
            for index in wholeStart..<before {
                buffer[written] = digit(index)
                written += 1
            }
            if decimalsEnd > before {
                buffer[written] = dot
                written += 1
                for index in before..<decimalsEnd {
                    buffer[written] = digit(index)
                    written += 1
                }
            }
            return written
        }
    }

    /// The exponent written from `start` on: an optional sign and digits, within -400...400.
    private static func exponent(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        var negative = false
        if index < bytes.count, bytes[index] == minus || bytes[index] == plus {
            negative = bytes[index] == minus
            index += 1
        }
        guard index < bytes.count else { return nil }
        var value = 0
        while index < bytes.count {
            guard isDigit(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] - zero)
            guard value <= 400 else { return nil }
            index += 1
        }
        return negative ? -value : value
    }

    private static let minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+"), dot = UInt8(ascii: "."), zero = UInt8(ascii: "0")

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= UInt8(ascii: "9") }

    /// The decimal a Core Data store gives back for the plain decimal `plain`: a store keeps a
    /// Decimal as a real (SQLite's DECIMAL column; `StoreValue`), so digits beyond what a Double
    /// holds are gone. Nil when no finite real holds it.
    public static func stored(_ plain: String) -> String? {
        guard let number = Double(plain), number.isFinite else { return nil }
        return self.plain(number)
    }

    /// A Decimal column's integer: a whole real that SQLite's numeric affinity stored as an
    /// integer, written as the real it is (2^60 is 1152921504606847000, as `plain(_: Double)`
    /// writes it, not 1152921504606846976, which a store's real could not keep as written); nil
    /// when no real holds the integer exactly.
    public static func plain(storedInteger integer: Int64) -> String? {
        Double(exactly: integer).flatMap(plain)
    }

    /// The shortest decimal that reads back as `value`, in plain form; nil for NaN and infinities.
    public static func plain(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        return plain(value.description.utf8)
    }
}
