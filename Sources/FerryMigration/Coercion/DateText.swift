import FerryFormats

/// Reads ISO 8601 dates and date-times into seconds since 2001-01-01 00:00:00 UTC.
public enum DateText {
    /// Seconds from the Unix epoch (1970) to Core Data's reference date (2001).
    public static let unixToReferenceOffset: Double = 978_307_200

    /// Accepts `yyyy-MM-dd` (midnight UTC), and `yyyy-MM-ddTHH:mm[:ss[.fraction]]` with `Z`, a
    /// `±HH:mm` / `±HHmm` offset, or no zone (UTC). A space may stand for the `T`.
    public static func referenceSeconds(iso8601 text: String) -> Double? {
        var text = text
        return text.withUTF8 { referenceSeconds(iso8601: UnsafeRawBufferPointer($0)) }
    }

    /// ``referenceSeconds(iso8601:)-(String)`` over UTF-8 bytes, without making a String.
    public static func referenceSeconds(iso8601 b: UnsafeRawBufferPointer) -> Double? {
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
              (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        var seconds = Double(CivilDate.days(year: year, month: month, day: day)) * 86_400
        guard b.count > 10 else { return seconds - unixToReferenceOffset }
        guard b.count >= 16, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), b[13] == UInt8(ascii: ":"),
              let hour = number(b, 11, 2), let minute = number(b, 14, 2), hour < 24, minute < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        var index = 16
        if index < b.count, b[index] == UInt8(ascii: ":") {
            guard let second = number(b, index + 1, 2), second < 61 else { return nil }
            seconds += Double(second)
            index += 3
            if index < b.count, b[index] == UInt8(ascii: ".") || b[index] == UInt8(ascii: ",") {
                var scale = 0.1
                index += 1
                let start = index
                while index < b.count, (48...57).contains(b[index]) {
                    seconds += Double(b[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
        }
        if index == b.count { return seconds - unixToReferenceOffset }
        if b[index] == UInt8(ascii: "Z"), index == b.count - 1 { return seconds - unixToReferenceOffset }
        guard b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-"), let offsetHours = number(b, index + 1, 2) else { return nil }
        var offsetMinutes = 0
        switch b.count - index {
        case 3: break
        case 5: guard let value = number(b, index + 3, 2) else { return nil }; offsetMinutes = value
        case 6: guard b[index + 3] == UInt8(ascii: ":"), let value = number(b, index + 4, 2) else { return nil }; offsetMinutes = value
        default: return nil
        }
        guard offsetHours < 24, offsetMinutes < 60 else { return nil }
        let offset = Double(offsetHours * 3600 + offsetMinutes * 60) * (b[index] == UInt8(ascii: "-") ? -1 : 1)
        return seconds - offset - unixToReferenceOffset
    }

    private static func number(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int? {
        guard start >= 0, start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }
}
