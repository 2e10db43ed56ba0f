/// The largest single value (a CSV field, a JSON string or number as written) a reader accepts.
///
/// The default, 512 MiB, is about half of what SQLite stores in one value or row
/// (`SQLITE_MAX_LENGTH`, 1,000,000,000 bytes), so that a value which passes it, with the row around
/// it, always fits the store. Readers keep at most about this much of a value before refusing it,
/// and nothing of it after, so memory stays within a small multiple of the largest value read.
public enum ValueSizeLimit {
    /// 512 MiB.
    public static let defaultMaxBytes = 512 << 20

    /// The limit's text for messages: `512 MiB`, `1,000 bytes`.
    public static func text(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) byte\(bytes == 1 ? "" : "s")"
    }
}
