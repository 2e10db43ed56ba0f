import FoundationEssentials
// Named IANA zones ("Asia/Shanghai") need ICU's time zone data, which only
// FoundationInternationalization brings in. This is the one file of the module that imports it,
// and the only one that turns local times into instants.
import FoundationInternationalization
import Synchronization

/// Converts wall-clock times in a time zone into instants.
///
/// A zone is `UTC`, `GMT` or `Z`; a fixed offset `+08:00`, `-0500` or `+08`; or an IANA name.
/// Local times in named zones are resolved as Foundation's Gregorian `Calendar` does: a time that
/// a daylight-saving jump skips is shifted forward by the size of the jump (02:30 on
/// 2014-03-09 in America/New_York is 03:30 EDT, 07:30 UTC), and a time that occurs twice is the
/// earlier instant (01:30 on 2014-11-02 in America/New_York is 01:30 EDT, 05:30 UTC).
enum LocalTime {
    enum Zone: Sendable {
        /// Seconds east of UTC.
        case offset(Int)
        /// A Gregorian calendar set to a named zone.
        case named(Calendar)
    }

    private static let cache = Mutex<[String: Zone]>([:])

    /// The zone a name or offset stands for, or a failure naming it.
    static func zone(named name: String) -> Result<Zone, ExpressionFailure> {
        if let known = cache.withLock({ $0[name] }) { return .success(known) }
        let zone: Zone
        if ["UTC", "GMT", "Z"].contains(name) {
            zone = .offset(0)
        } else if name.hasPrefix("+") || name.hasPrefix("-") {
            guard let seconds = offsetSeconds(name) else {
                return .failure(ExpressionFailure("'\(TextCoercion.clipped(name))' is not a time zone offset (+08:00, -0500 or +08)"))
            }
            zone = .offset(seconds)
        } else {
            guard let timeZone = TimeZone(identifier: name) else {
                return .failure(ExpressionFailure("unknown time zone '\(TextCoercion.clipped(name))' (an IANA name like Asia/Shanghai, UTC, or an offset like +08:00)"))
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            zone = .named(calendar)
        }
        cache.withLock { $0[name] = zone }
        return .success(zone)
    }

    /// Seconds since 2001-01-01 00:00:00 UTC of a valid civil time read in `zone`.
    static func referenceSeconds(_ time: CivilTime, in zone: Zone) throws(ExpressionFailure) -> Double {
        switch zone {
        case let .offset(seconds):
            return time.utcReferenceSeconds - Double(seconds)
        case let .named(calendar):
            let components = DateComponents(year: time.year, month: time.month, day: time.day,
                                            hour: time.hour, minute: time.minute, second: time.second)
            guard let date = calendar.date(from: components) else {
                throw ExpressionFailure("\(CivilTime.iso8601(referenceSeconds: time.utcReferenceSeconds).dropLast()) does not exist in \(calendar.timeZone.identifier)")
            }
            return date.timeIntervalSinceReferenceDate + Double(time.millisecond) / 1000
        }
    }

    /// `±HH:mm`, `±HHmm` or `±HH` as seconds east of UTC.
    private static func offsetSeconds(_ text: String) -> Int? {
        let rest = Array(text.utf8.dropFirst())
        let digits: [UInt8]
        switch rest.count {
        case 2, 4: digits = rest
        case 5 where rest[2] == UInt8(ascii: ":"): digits = Array(rest[0..<2] + rest[3..<5])
        default: return nil
        }
        guard digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let values = digits.map { Int($0) - 48 }
        let hours = values[0] * 10 + values[1]
        let minutes = values.count == 4 ? values[2] * 10 + values[3] : 0
        guard hours < 24, minutes < 60 else { return nil }
        return (hours * 3600 + minutes * 60) * (text.hasPrefix("-") ? -1 : 1)
    }
}
