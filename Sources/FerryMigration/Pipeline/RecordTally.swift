/// What became of the records read from the sources themselves (not the records they carry):
/// every one is written, merged, rejected or filtered out, and every line that holds no record is
/// skipped, counted in `read` too.
public struct RecordTally: Sendable, Equatable {
    public var read = 0
    public var written = 0
    public var merged = 0
    public var rejected = 0
    public var filtered = 0
    public var skipped = 0
    /// Records where a required attribute was empty and its model default was used.
    public var defaulted = 0

    public init() {}
}

/// The records carried into one entity (nested objects of a file, records made by mappings):
/// each was written as a new record or merged into one already there.
public struct CarriedCount: Sendable, Equatable, Codable {
    public var written = 0
    public var merged = 0
    /// Written, then dropped with the copy of their carrier that a duplicate policy did not keep
    /// (its Cascade relationships held them; counted as merged in their ledgers).
    public var droppedWithCopies = 0

    public init(written: Int = 0, merged: Int = 0, droppedWithCopies: Int = 0) {
        self.written = written
        self.merged = merged
        self.droppedWithCopies = droppedWithCopies
    }
}
