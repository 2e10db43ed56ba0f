/// What became of the records of one entity read from one source: every record read is
/// written, merged, rejected or filtered, and every line read that holds no record is skipped.
public struct SourceLedger: Sendable, Codable, Equatable {
    public var source: String
    public var entity: String
    /// The model version the records were read as.
    public var version: String
    public var read = 0
    public var written = 0
    public var merged = 0
    public var rejected = 0
    /// Dropped on purpose by the mapping: a source filter, or an entity the chain removes.
    public var filtered = 0
    /// Lines of a file that hold no record (empty lines, comments of CSV).
    public var skipped = 0
    /// Values the mapping could not convert and set to nil under a lenient rule.
    public var converted = 0

    public init(source: String, entity: String, version: String) {
        self.source = source
        self.entity = entity
        self.version = version
    }

    public var isBalanced: Bool { read == written + merged + rejected + filtered + skipped }
}
