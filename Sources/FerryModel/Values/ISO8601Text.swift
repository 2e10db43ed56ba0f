import FerryFormats

/// Writes dates (seconds since 2001-01-01 00:00:00 UTC, Core Data's reference date) as ISO 8601
/// text in UTC: `2014-01-02T03:04:05Z`, with a fraction of up to six digits when there is one
/// (`…05.25Z`).
public enum ISO8601Text {
    /// Seconds from the Unix epoch (1970) to the reference date (2001).
    public static let unixToReferenceOffset: Double = 978_307_200

    public static func string(referenceSeconds seconds: Double) -> String {
        guard seconds.isFinite else { return seconds.description }
        let unix = seconds + unixToReferenceOffset
        var whole = unix.rounded(.down)
        var micros = Int(((unix - whole) * 1_000_000).rounded())
        if micros == 1_000_000 {
            whole += 1
            micros = 0
        }
        let total = Int64(whole)
        let days = Int(total >= 0 ? total / 86_400 : (total - 86_399) / 86_400)
        let secondOfDay = Int(total - Int64(days) * 86_400)
        let (year, month, day) = CivilDate.date(days: days)
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if micros > 0 {
            var fraction = pad(micros, 6)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
