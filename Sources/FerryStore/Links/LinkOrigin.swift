/// Where a link was given, for reporting it when it finds nothing: the file and line of the
/// record that named it (and its place in a document, which one line may hold many of), or, for
/// a record of a store (no lines), its `Z_PK` in that store.
public struct LinkOrigin: Sendable, Equatable {
    public let file: String
    public let line: Int?
    /// The source record's `Z_PK` in the store it was read from.
    public let row: Int64?
    /// The record's place inside a document (`[3]`, `[3].attachments[0]`).
    public let path: String?

    public init(file: String, line: Int?, row: Int64?, path: String? = nil) {
        self.file = file
        self.line = line
        self.row = row
        self.path = path
    }
}
