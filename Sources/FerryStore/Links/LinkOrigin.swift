/// Where a link was given, for reporting it when it finds nothing: the file and line of the
/// record that named it, or, for a record of a store (no lines), its `Z_PK` in that store.
public struct LinkOrigin: Sendable, Equatable {
    public let file: String
    public let line: Int?
    /// The source record's `Z_PK` in the store it was read from.
    public let row: Int64?

    public init(file: String, line: Int?, row: Int64?) {
        self.file = file
        self.line = line
        self.row = row
    }
}
