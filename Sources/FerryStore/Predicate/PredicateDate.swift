import FerryFormats
/// ISO 8601 dates in predicate `CAST(…, 'NSDate')` literals, as seconds since 2001-01-01 UTC.
enum PredicateDate {
    /// Seconds from the Unix epoch (1970) to Core Data's reference date (2001).
    static let unixToReferenceOffset: Double = 978_307_200

    /// Accepts `yyyy-MM-dd` (midnight UTC) and `yyyy-MM-ddTHH:mm:ss[.fraction]` followed by `Z`,
    /// `±HH:mm` or nothing (UTC).
    static func referenceSeconds(iso8601 text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
              (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else { return nil }
        var seconds = Double(CivilDate.days(year: year, month: month, day: day)) * 86_400
        guard b.count > 10 else { return seconds - unixToReferenceOffset }
        guard b.count >= 19, b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let hour = number(b, 11, 2), let minute = number(b, 14, 2), let second = number(b, 17, 2),
              hour < 24, minute < 60, second < 61 else { return nil }
        seconds += Double(hour * 3600 + minute * 60 + second)
        var index = 19
        if index < b.count, b[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var scale = 0.1
            while index < b.count, (48...57).contains(b[index]) {
                seconds += Double(b[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        if index == b.count || (index == b.count - 1 && b[index] == UInt8(ascii: "Z")) {
            return seconds - unixToReferenceOffset
        }
        guard b.count - index == 6, b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-"),
              b[index + 3] == UInt8(ascii: ":"), let hours = number(b, index + 1, 2), let minutes = number(b, index + 4, 2),
              hours < 24, minutes < 60 else { return nil }
        let offset = Double(hours * 3600 + minutes * 60) * (b[index] == UInt8(ascii: "-") ? -1 : 1)
        return seconds - offset - unixToReferenceOffset
    }

    /// The canonical text of a reference date, for printing (`2014-01-01T00:00:00Z`); nil when the
    /// date has a fraction of a second or lies outside years 1…9999 (printed as seconds instead).
    static func iso8601(referenceSeconds: Double) -> String? {
        let unix = referenceSeconds + unixToReferenceOffset
        guard unix.rounded() == unix, abs(unix) < 253_402_300_800 else { return nil }
        let total = Int(unix)
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = CivilDate.date(days: days)
        guard year >= 1, year <= 9999 else { return nil }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    private static func number(_ b: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= b.count else { return nil }
        var value = 0
        for byte in b[start..<start + count] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }
}
