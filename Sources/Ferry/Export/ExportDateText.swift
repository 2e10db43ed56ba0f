import FerryFormats
import FerryModel

/// Dates as ISO 8601 UTC text with fractional seconds (`2024-03-01T12:30:05.25Z`), exact both
/// ways: the fraction is the shortest decimal that reads back as the stored double (at least
/// three digits are written), so parsing the text gives the same seconds since 2001 bit for bit.
enum ExportDateText {
    /// Seconds between 1970-01-01 and 2001-01-01.
    private static let referenceOffset: Int64 = 978_307_200

    /// The text of a date (seconds since 2001-01-01 UTC); nil outside the years 0000–9999 or
    /// for NaN and infinities.
    static func format(_ seconds: Double) -> String? {
        guard let plain = DecimalNotation.plain(seconds) else { return nil }
        let negative = plain.hasPrefix("-")
        let parts = plain.drop { $0 == "-" }.split(separator: ".", maxSplits: 1)
        guard let wholeText = parts.first, var whole = Int64(wholeText), whole < Int64.max / 2 else { return nil }
        var fraction = parts.count == 2 ? Array(parts[1].utf8) : []
        if negative {
            whole = -whole
            if !fraction.isEmpty {
                whole -= 1
                fraction = complement(fraction)
            }
        }
        let unix = whole + referenceOffset
        let days = floorDivide(unix, 86_400)
        let secondOfDay = unix - days * 86_400
        let (year, month, day) = CivilDate.date(days: Int(days))
        guard (0...9999).contains(year) else { return nil }
        while fraction.count < 3 { fraction.append(UInt8(ascii: "0")) }
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        let second = Int(secondOfDay)
        text += "T" + pad(second / 3600, 2) + ":" + pad(second / 60 % 60, 2) + ":" + pad(second % 60, 2)
        return text + "." + String(decoding: fraction, as: UTF8.self) + "Z"
    }

    /// Seconds since 2001-01-01 UTC of `YYYY-MM-DDTHH:MM:SS[.fraction]Z`; nil for anything else.
    static func parse(_ text: some Collection<UInt8>) -> Double? {
        let bytes = Array(text)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"),
              let year = number(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(bytes, 5, 2),
              bytes[7] == UInt8(ascii: "-"), let day = number(bytes, 8, 2), bytes[10] == UInt8(ascii: "T"),
              let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(bytes, 14, 2),
              bytes[16] == UInt8(ascii: ":"), let second = number(bytes, 17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = Array(bytes[19..<(bytes.count - 1)])
        if !fraction.isEmpty {
            guard fraction.first == UInt8(ascii: "."), fraction.count > 1 else { return nil }
            fraction.removeFirst()
            guard fraction.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        }
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        let days = Int64(CivilDate.days(year: Int(year), month: Int(month), day: Int(day)))
        let whole = days * 86_400 + hour * 3600 + minute * 60 + second - referenceOffset
        guard !fraction.isEmpty else { return Double(whole) }
        if whole >= 0 { return Double("\(whole)." + String(decoding: fraction, as: UTF8.self)) }
        return Double("-\(-whole - 1)." + String(decoding: complement(fraction), as: UTF8.self))
    }

    /// `10^n - digits` for fraction digits that are not all zero, without trailing zeros: with
    /// the last non-zero digit d, that digit becomes 10 - d and every digit before it 9 - digit.
    private static func complement(_ digits: [UInt8]) -> [UInt8] {
        var result = digits
        while result.last == UInt8(ascii: "0") { result.removeLast() }
        for index in result.indices {
            let digit = result[index] - 0x30
            result[index] = 0x30 + (index == result.count - 1 ? 10 - digit : 9 - digit)
        }
        return result
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
