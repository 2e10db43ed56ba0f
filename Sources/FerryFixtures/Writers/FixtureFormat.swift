/// The export formats legacy records exist in.
public enum FixtureFormat: String, Sendable, CaseIterable {
    /// RFC 4180 CSV: a header of field names, CRLF line ends, fields quoted when they hold a
    /// comma, a quote, CR or LF; booleans `1`/`0`, binary data base64, lists joined with `;`,
    /// absent values empty.
    case csv
    /// One JSON object per line, LF-terminated; absent values are left out.
    case ndjson
    /// One JSON array of objects, one object per line.
    case jsonArray
    /// An XML property list as Apple's tools write it: an array of dictionaries, tab-indented,
    /// binary data as `<data>` with wrapped base64, booleans `<true/>`/`<false/>`.
    case xmlPlist
}
