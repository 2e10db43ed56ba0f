/// A property-list value, as the XML and binary plist formats hold it.
///
/// Integers are 128-bit so that both ends of what binary plists can store are exact
/// (`Int64.min` through `UInt64.max`). Dates are seconds since 2001-01-01 00:00:00 UTC, as plists
/// store them. `uid` exists only in binary plists (keyed archives).
public indirect enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int128)
    case real(Double)
    /// An XML `<real>` whose number no `Double` holds, as written: beyond the largest `Double`
    /// (`1e400`), or not zero but rounding to zero (`1e-400`). Kept so that a record holding it can
    /// be rejected for that value alone, as the same number in CSV or JSON is, rather than the
    /// whole document refused or 0 taken; binary property lists cannot hold it.
    case unrepresentableReal(String)
    case bool(Bool)
    case date(Double)
    case data([UInt8])
    case array([PropertyListValue])
    case set([PropertyListValue])
    case dictionary([String: PropertyListValue])
    case uid(UInt64)
}

extension PropertyListValue {
    /// Whether two values are the same value kept: equal, or encoded to the same bytes (a NaN is
    /// not equal to itself, so a metadata dictionary holding one never equals its own copy).
    public static func sameKept(_ first: PropertyListValue?, _ second: PropertyListValue?) -> Bool {
        guard let first, let second else { return first == nil && second == nil }
        if first == second { return true }
        let writer = BinaryPropertyListWriter()
        guard let firstBytes = try? writer.encode(first), let secondBytes = try? writer.encode(second) else { return false }
        return firstBytes == secondBytes
    }
}
