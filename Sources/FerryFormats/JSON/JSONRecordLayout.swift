/// How the records of a JSON input are arranged.
public enum JSONRecordLayout: Sendable, Equatable {
    /// Decide from the content: a top-level array is ``array``; a single value followed only by
    /// whitespace is ``single``; several values, one per line, are ``lines``. Empty input (or only
    /// whitespace) holds no records. NDJSON whose lines are arrays must be chosen as ``lines``.
    case automatic
    /// A top-level array; each element is a record, streamed one at a time.
    case array
    /// The whole input is one value (normally an object), which is the only record.
    /// Empty input is an error.
    case single
    /// An array reached from the top-level object by following `keyPath`, as in
    /// `{"records": [...]}` with `["records"]`; its elements are streamed. The rest of the input
    /// is checked but not kept, and a key on the path may not appear twice in its object.
    case nested(keyPath: [String])
    /// NDJSON / JSON Lines: one value per line. Blank lines are skipped; a value may not span lines.
    case lines
}
