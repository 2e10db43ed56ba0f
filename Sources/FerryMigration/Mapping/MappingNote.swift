/// `note "TEXT" if CONDITION` in a mapping file's entity block: the records the block maps (its
/// rules reject none of them) for which CONDITION holds are counted under TEXT, and the run reports them (how many, and where
/// the first few were read), while they are written as the rules say. For what a rule changes
/// on purpose and the domain wants told: an out-of-range `fileType` kept as "other".
///
/// A condition that is nil or cannot be evaluated on a record does not count it (a note never
/// rejects a record; the rules decide that).
public struct MappingNote: Sendable {
    /// What the note says.
    public var text: String
    /// The condition, over the source record's attributes.
    public var condition: MappingExpression
    /// The line of the mapping file.
    public var line: Int

    public init(text: String, condition: MappingExpression, line: Int) {
        self.text = text
        self.condition = condition
        self.line = line
    }

    /// How many records a note counted, and where the first of them were read.
    public struct Tally: Sendable, Equatable {
        /// The most locations kept per note.
        public static let sampleLimit = 3

        public var records = 0
        public var samples: [String] = []

        mutating func count(_ location: String) {
            records += 1
            if samples.count < Self.sampleLimit { samples.append(location) }
        }
    }
}
