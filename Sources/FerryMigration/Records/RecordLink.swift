import FerryModel

/// A record's identity in its source, which other records of the same source use to point at
/// it: a store row's `Z_PK` with its table, or a key value from a file.
public enum RecordKey: Sendable, Hashable {
    /// A key unique among the source's records of the hierarchy they are written to (a store's
    /// `Z_PK` read with the store's own model, whose hierarchies are the destination's).
    case integer(Int64)
    /// A key unique in the whole source (a nested or made record's).
    case text(String)
    /// A store row's `Z_PK`, unique only among the rows of its table: `root` is the source
    /// store's number (`Z_ENT`) of the root entity of the table's hierarchy. Records read from
    /// two tables may be written to one hierarchy (a later version may give two root entities a
    /// common parent), so their keys stay apart by it.
    case row(Int64, root: Int)
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

extension RecordKey {
    /// The `Z_PK` an integer key or a store row's key is, for naming where a record was read;
    /// nil for a text key.
    public var storeRow: Int64? {
        switch self {
        case .integer(let number), .row(let number, _): number
        case .text: nil
        }
    }
}
