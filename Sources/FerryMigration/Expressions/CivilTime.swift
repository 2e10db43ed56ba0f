import FerryFormats
import FerryModel
/// A date and wall-clock time in the proleptic Gregorian calendar, without a time zone.
struct CivilTime: Equatable, Sendable {
    var year: Int
    var month = 1
    var day = 1
    var hour = 0
    var minute = 0
    var second = 0
    var millisecond = 0

    /// Why these fields are not a real date and time (`February 2014 has 28 days`), or nil.
    var invalidity: String? {
        guard (1...12).contains(month) else { return "month \(month) is not 1 to 12" }
        let days = CivilDate.daysIn(month: month, year: year)
        guard (1...days).contains(day) else { return "\(Self.monthNames[month - 1]) \(year) has \(days) days" }
        guard hour < 24 else { return "hour \(hour) is not 0 to 23" }
        guard minute < 60 else { return "minute \(minute) is not 0 to 59" }
        guard second < 60 else { return "second \(second) is not 0 to 59" }
        return nil
    }

    /// Seconds since 2001-01-01 00:00:00 if this time is read as UTC.
    var utcReferenceSeconds: Double {
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + Double(millisecond) / 1000
        return seconds - ReferenceDate.unixOffset
    }

    /// `2014-02-28T16:00:00Z`, with `.SSS` milliseconds when they are not zero; dates beyond the
    /// years 0–9999 are written as a number of seconds.
    static func iso8601(referenceSeconds: Double) -> String {
        let unixMilliseconds = ((referenceSeconds + ReferenceDate.unixOffset) * 1000).rounded()
        guard unixMilliseconds.magnitude < 253_402_300_800_000 else { return "\(referenceSeconds) seconds since 2001" }
        let milliseconds = Int(unixMilliseconds)
        let (days, inDay) = milliseconds.quotientAndFlooredRemainder(dividingBy: 86_400_000)
        let civil = CivilDate.date(days: Int(days))
        let time = [inDay / 3_600_000, inDay / 60_000 % 60, inDay / 1000 % 60].map { two($0) }.joined(separator: ":")
        let fraction = inDay % 1000 == 0 ? "" : "." + String(String(inDay % 1000 + 1000).dropFirst())
        return "\(pad(civil.year, 4))-\(two(civil.month))-\(two(civil.day))T\(time)\(fraction)Z"
    }

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                     "September", "October", "November", "December"]

    private static func two(_ value: Int) -> String { pad(value, 2) }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

private extension Int {
    /// Quotient and a remainder that is never negative.
    func quotientAndFlooredRemainder(dividingBy divisor: Int) -> (Int, Int) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
