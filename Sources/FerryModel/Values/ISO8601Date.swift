import FerryFormats

/// ISO 8601 text of dates (seconds since Core Data's reference date), the one reader and writer
/// every verb uses: values in files, mapping expressions, predicate literals, query and export
/// output, manifests.
///
/// Written in UTC with the shortest fraction that reads back as the very same double (at least
/// three digits): `2024-03-01T12:30:05.250Z`; a year outside 0000–9999 in ISO 8601's expanded
/// form, a sign and six digits (`+010000-01-01T00:00:00.000Z`, `-000001-12-31T…`), as
/// JavaScript's `toISOString` writes it. Read: the same, `yyyy-MM-dd` (midnight UTC) or
/// `yyyy-MM-ddTHH:mm[:ss[.fraction]]` (a space may stand for the `T`, a comma for the dot) with `Z`,
/// `±HH:mm`, `±HHmm`, `±HH` or no zone (UTC); seconds 00–59 (a leap second's `:60` is refused,
/// as Foundation's ISO 8601 reader refuses it); the fraction is read exactly, so the text
/// `format` writes parses to the same double bit for bit.
public enum ISO8601Date {
    /// The years written with four digits; the others take the expanded form.
    static let fourDigitYears = 0...9999
    /// The years the expanded form holds.
    static let expandedYears = -999_999...999_999
    /// Seconds since the reference date of 0000-01-01 and of 10000-01-01, midnight UTC.
    private static let fourDigitSeconds = (
        Double(Int64(CivilDate.days(year: 0, month: 1, day: 1)) * 86_400) - ReferenceDate.unixOffset,
        Double(Int64(CivilDate.days(year: 10_000, month: 1, day: 1)) * 86_400) - ReferenceDate.unixOffset)

    /// Whether a date falls in the years 0000–9999 (UTC), which every ISO 8601 reader takes.
    public static func hasFourDigitYear(_ seconds: Double) -> Bool {
        seconds >= fourDigitSeconds.0 && seconds < fourDigitSeconds.1
    }

    /// The text of a date; nil for NaN, infinities and years past ±999999.
    public static func format(_ seconds: Double) -> String? {
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
        let unix = whole + Int64(ReferenceDate.unixOffset)
        let days = floorDivide(unix, 86_400)
        let secondOfDay = Int(unix - days * 86_400)
        let (year, month, day) = CivilDate.date(days: Int(days))
        guard expandedYears.contains(year) else { return nil }
        while fraction.count < 3 { fraction.append(UInt8(ascii: "0")) }
        let yearText = fourDigitYears.contains(year) ? pad(year, 4) : (year < 0 ? "-" : "+") + pad(abs(year), 6)
        var text = yearText + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        return text + "." + String(decoding: fraction, as: UTF8.self) + "Z"
    }

    /// Seconds since the reference date of ISO 8601 text; nil for anything else.
    public static func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Whether `text` is a date and time whose seconds are `60` (a leap second), which `parse`
    /// refuses: said in its message.
    public static func hasSecondSixty(_ text: String) -> Bool {
        let b = Array(text.utf8)
        return b.count >= 19 && b[16] == UInt8(ascii: ":") && b[17] == UInt8(ascii: "6") && b[18] == UInt8(ascii: "0")
            && (b.count == 19 || !(48...57).contains(b[19])) && parse(String(decoding: b[0..<16], as: UTF8.self)) != nil
    }

    /// ``parse(_:)-(String)`` over UTF-8 bytes, without making a String.
    public static func parse(_ b: UnsafeRawBufferPointer) -> Double? {
        // `o`: how far the expanded form's sign and two more digits move what follows the year.
        let expanded = b.count > 0 && (b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"))
        let o = expanded ? 3 : 0
        guard b.count >= 10 + o, b[4 + o] == UInt8(ascii: "-"), b[7 + o] == UInt8(ascii: "-"),
              let digits = expanded ? number(b, 1, 6) : number(b, 0, 4), let month = number(b, 5 + o, 2), let day = number(b, 8 + o, 2),
              (1...12).contains(month) else { return nil }
        let year = expanded && b[0] == UInt8(ascii: "-") ? -digits : digits
        // `-000000` is no year.
        guard !(expanded && b[0] == UInt8(ascii: "-") && digits == 0),
              (1...CivilDate.daysIn(month: Int(month), year: Int(year))).contains(Int(day)) else { return nil }
        var whole = Int64(CivilDate.days(year: Int(year), month: Int(month), day: Int(day))) * 86_400
        var fraction: [UInt8] = []
        var index = 10 + o
        if b.count > 10 + o {
            guard b.count >= 16 + o, b[10 + o] == UInt8(ascii: "T") || b[10 + o] == UInt8(ascii: " "), b[13 + o] == UInt8(ascii: ":"),
                  let hour = number(b, 11 + o, 2), let minute = number(b, 14 + o, 2), hour < 24, minute < 60 else { return nil }
            whole += hour * 3600 + minute * 60
            index = 16 + o
            if index < b.count, b[index] == UInt8(ascii: ":") {
                // Second 60 (a leap second, or a minute rolled over) has no instant of its own:
                // a date would silently become the next minute's first second.
                guard let second = number(b, index + 1, 2), second < 60 else { return nil }
                whole += second
                index += 3
                if index < b.count, b[index] == UInt8(ascii: ".") || b[index] == UInt8(ascii: ",") {
                    index += 1
                    while index < b.count, (48...57).contains(b[index]) {
                        fraction.append(b[index])
                        index += 1
                    }
                    guard !fraction.isEmpty else { return nil }
                }
            }
        }
        guard let offset = zoneOffset(b, from: index) else { return nil }
        whole -= offset + Int64(ReferenceDate.unixOffset)
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        guard !fraction.isEmpty else { return Double(whole) }
        if whole >= 0 { return Double("\(whole)." + String(decoding: fraction, as: UTF8.self)) }
        return Double("-\(-whole - 1)." + String(decoding: complement(fraction), as: UTF8.self))
    }

    /// Seconds east of UTC of the zone at `index` (the end of the text: none, UTC).
    private static func zoneOffset(_ b: UnsafeRawBufferPointer, from index: Int) -> Int64? {
        if index == b.count || (index == b.count - 1 && b[index] == UInt8(ascii: "Z")) { return 0 }
        guard b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-"), let hours = number(b, index + 1, 2) else { return nil }
        var minutes: Int64 = 0
        switch b.count - index {
        case 3: break
        case 5: guard let value = number(b, index + 3, 2) else { return nil }; minutes = value
        case 6: guard b[index + 3] == UInt8(ascii: ":"), let value = number(b, index + 4, 2) else { return nil }; minutes = value
        default: return nil
        }
        guard hours < 24, minutes < 60 else { return nil }
        return (hours * 3600 + minutes * 60) * (b[index] == UInt8(ascii: "-") ? -1 : 1)
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

    private static func number(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int64? {
        guard start >= 0, start + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[start..<(start + count)] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 48)
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
