/// How `ferry query` prints rows.
public enum QueryFormat: String, Sendable, CaseIterable {
    /// Aligned columns with a header line, for reading.
    case table
    /// One JSON array of objects.
    case json
    /// One JSON object per line.
    case ndjson
    /// RFC 4180: a header row, fields quoted when needed, CRLF line ends.
    case csv
}
