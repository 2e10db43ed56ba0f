/// Converts plist dates (seconds since 2001-01-01 00:00:00 UTC) to and from the XML form
/// `yyyy-MM-ddTHH:mm:ssZ`, using the proleptic Gregorian calendar in UTC (no time zones, no
/// Foundation calendar). Years 0...9999 are supported, as four digits allow.
enum PropertyListDate {
    /// Days from 1970-01-01 to 2001-01-01.
    private static let referenceDay = 11_323
    private static let secondsPerDay = 86_400

    /// Seconds since the reference date of the given UTC date and time.
    static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Double {
        let days = CivilDate.days(year: year, month: month, day: day) - referenceDay
        return Double(days * secondsPerDay + hour * 3600 + minute * 60 + second)
    }

    /// Parses `yyyy-MM-ddTHH:mm:ssZ` exactly; nil for any other text or an impossible date.
    static func parse(_ text: some Collection<UInt8>) -> Double? {
        let bytes = Array(text)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              bytes[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` for `seconds`, with the fraction dropped (rounded down) as Apple's
    /// writer does; nil when the date is not finite or falls outside years 0...9999.
    static func format(_ seconds: Double) -> String? {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return nil }
        var whole = Int(seconds) // truncates toward zero; step down for negative fractions
        if Double(whole) > seconds { whole -= 1 }
        let days = whole.floorDivided(by: secondsPerDay)
        let timeOfDay = whole - days * secondsPerDay
        let (year, month, day) = CivilDate.date(days: days + referenceDay)
        guard (0...9999).contains(year) else { return nil }
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(timeOfDay / 3600, 2)):"
            + "\(pad(timeOfDay / 60 % 60, 2)):\(pad(timeOfDay % 60, 2))Z"
    }
}

extension Int {
    /// Division rounding toward negative infinity.
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
