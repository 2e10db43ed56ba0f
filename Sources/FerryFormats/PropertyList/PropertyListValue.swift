/// A property-list value, as the XML and binary plist formats hold it.
///
/// Integers are 128-bit so that both ends of what binary plists can store are exact
/// (`Int64.min` through `UInt64.max`). Dates are seconds since 2001-01-01 00:00:00 UTC, as plists
/// store them. `uid` exists only in binary plists (keyed archives).
public indirect enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int128)
    case real(Double)
    case bool(Bool)
    case date(Double)
    case data([UInt8])
    case array([PropertyListValue])
    case set([PropertyListValue])
    case dictionary([String: PropertyListValue])
    case uid(UInt64)
}
