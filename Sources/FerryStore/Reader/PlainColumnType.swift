import FerryModel

/// The attribute type of a plain SQLite column, from its declared type, following SQLite's
/// affinity rules (checked in this order, by substring, ignoring case):
///
/// | declared type contains | attribute type |
/// |---|---|
/// | `BOOL` | Boolean |
/// | `INT` | Integer 64 |
/// | `CHAR`, `CLOB`, `TEXT` | String |
/// | `BLOB` | Binary |
/// | `REAL`, `FLOA`, `DOUB` | Double |
/// | `DATE`, `TIME` | String |
/// | nothing (no declared type) | String |
/// | anything else (`NUMERIC`, `DECIMAL`, …) | Decimal |
///
/// Dates: plain databases keep them as ISO text, Unix seconds or Julian days, and the declared
/// type does not say which, so date-typed columns are read as String (numbers as their decimal
/// text); turning them into dates belongs to the mapping, where the format is known.
/// Columns without a declared type can hold anything; String keeps every value but blobs that
/// are not UTF-8 (those rows get an error).
enum PlainColumnType {
    static func attributeType(declared: String) -> AttributeType {
        let type = declared.uppercased()
        func has(_ parts: String...) -> Bool { parts.contains { type.contains($0) } }
        if has("BOOL") { return .boolean }
        if has("INT") { return .integer64 }
        if has("CHAR", "CLOB", "TEXT") { return .string }
        if has("BLOB") { return .binary }
        if has("REAL", "FLOA", "DOUB") { return .double }
        if has("DATE", "TIME") || type.isEmpty { return .string }
        return .decimal
    }
}
