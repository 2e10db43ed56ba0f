import FerryModel

/// A record's identity in its source, which other records of the same source use to point at
/// it: a store's `Z_PK`, or a key value from a file.
public enum RecordKey: Sendable, Hashable {
    case integer(Int64)
    case text(String)
}

/// The destinations of one relationship of a record, before they have primary keys.
public struct RecordLink: Sendable, Equatable {
    /// One destination: a record of the same source by its key, or the record of the
    /// destination entity whose attribute has a value (`Upload` whose `remotePath` is `/a.jpg`).
    public enum Target: Sendable, Hashable {
        case key(RecordKey)
        case match(attribute: String, value: AttributeValue)
    }

    /// The relationship's name (in the record's entity, declared or inherited).
    public var relationship: String
    /// The destinations, in order (the order matters for ordered relationships).
    public var targets: [Target]

    public init(relationship: String, targets: [Target]) {
        self.relationship = relationship
        self.targets = targets
    }
}
