import FoundationEssentials
// Named IANA zones ("Asia/Shanghai") need ICU's time zone data, which only
// FoundationInternationalization brings in. This is the one file of the module that imports it,
// and the only one that turns local times into instants.
import FoundationInternationalization
import Synchronization

/// Converts wall-clock times in a time zone into instants.
///
/// A zone is `UTC`, `GMT` or `Z`; a fixed offset `+08:00`, `-0500` or `+08`; or an IANA name.
/// Every zone reads dates on one calendar, the proleptic Gregorian one that ISO 8601 and the
/// patterns' own checks use (Foundation's Gregorian `Calendar` turns Julian before 1582-10-15, and
/// read `1500-03-01` in `Etc/UTC` as ten days after the same text in `UTC`). In a named zone only
/// the offset comes from the zone's rules: a time that a daylight-saving jump skips is shifted
/// forward by the size of the jump (02:30 on 2014-03-09 in America/New_York is 03:30 EDT, 07:30
/// UTC), and a time that occurs twice is the earlier instant (01:30 on 2014-11-02 in
/// America/New_York is 01:30 EDT, 05:30 UTC).
enum LocalTime {
    enum Zone: Sendable {
        /// Seconds east of UTC.
        case offset(Int)
        /// A named zone, whose offset depends on the instant.
        case named(TimeZone)
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
            zone = .named(timeZone)
        }
        cache.withLock { $0[name] = zone }
        return .success(zone)
    }

    /// Seconds since 2001-01-01 00:00:00 UTC of a valid civil time read in `zone`.
    static func referenceSeconds(_ time: CivilTime, in zone: Zone) -> Double {
        switch zone {
        case let .offset(seconds):
            return time.utcReferenceSeconds - Double(seconds)
        case let .named(timeZone):
            return time.utcReferenceSeconds - Double(offset(atLocal: time.utcReferenceSeconds.rounded(.down), in: timeZone))
        }
    }

    /// The offset (seconds east of UTC) in force at a wall-clock time of `zone`, given as seconds
    /// since 2001-01-01 00:00 read as if in UTC. The offsets a day before and a day after are the
    /// two a transition between them can give; each is right when the instant it gives has it.
    /// Both right: the time occurs twice, and the earlier instant (the larger offset) is the one.
    /// Neither: a jump skipped it, and the offset before the jump moves it forward by the jump.
    private static func offset(atLocal local: Double, in zone: TimeZone) -> Int {
        let day = 86_400.0
        let before = zone.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: local - day))
        let after = zone.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: local + day))
        let holds = { (offset: Int) in zone.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: local - Double(offset))) == offset }
        switch (holds(before), holds(after)) {
        case (true, true): return max(before, after)
        case (false, true): return after
        default: return before
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
