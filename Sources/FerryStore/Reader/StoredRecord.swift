import FerryModel

/// One row of a store read as a record of its concrete entity.
public struct StoredRecord: Sendable, Equatable {
    /// `Z_PK` (Core Data), or the rowid / `INTEGER PRIMARY KEY` (plain SQLite).
    public var primaryKey: Int64
    /// The row's concrete entity (a sub-entity of the entity asked for, or that entity).
    public var entity: String
    /// Every stored attribute of the concrete entity, inherited ones included; NULL is `.null`.
    public var attributes: [String: AttributeValue]
    /// The to-one relationships whose foreign key is set; those left NULL are absent.
    public var toOne: [String: StoredReference]
    /// `Z_OPT`, the optimistic-locking version (1 for plain tables).
    public var version: Int64

    public init(primaryKey: Int64, entity: String, attributes: [String: AttributeValue], toOne: [String: StoredReference],
                version: Int64 = 1) {
        self.primaryKey = primaryKey
        self.entity = entity
        self.attributes = attributes
        self.toOne = toOne
        self.version = version
    }
}

/// The destination of a to-one relationship as a row stores it.
public struct StoredReference: Sendable, Hashable {
    /// The destination's primary key.
    public var primaryKey: Int64
    /// The destination's concrete entity: from the `Z<n>_<REL>` column when the destination has
    /// sub-entities, else the relationship's destination entity.
    public var entity: String
    /// `Z_FOK_<REL>`: this row's position in the inverse ordered to-many, when it has one.
    public var orderKey: Int64?

    public init(primaryKey: Int64, entity: String, orderKey: Int64? = nil) {
        self.primaryKey = primaryKey
        self.entity = entity
        self.orderKey = orderKey
    }
}

/// One pair of a relationship: the source's and the destination's primary keys, and for ordered
/// relationships the destination's order key within the source (`Z_FOK_…`).
public struct RelationshipEdge: Sendable, Hashable {
    public var source: Int64
    public var destination: Int64
    public var order: Int64?
    /// Whether `source` names no row of the sources' hierarchy (a dangling foreign key), when the
    /// cursor was asked to find out (`StoreRecordReader.edges(of:of:findingMissingSources:)`).
    public var sourceIsMissing: Bool
    /// The `Z_ENT` of the source's row and of the destination's, when the cursor was asked to
    /// name them (`StoreRecordReader.edges(of:of:namingEntities:)`); nil otherwise, and for a
    /// key naming no row of its hierarchy.
    public var sourceEntity: Int64?
    public var destinationEntity: Int64?

    public init(source: Int64, destination: Int64, order: Int64? = nil, sourceIsMissing: Bool = false,
                sourceEntity: Int64? = nil, destinationEntity: Int64? = nil) {
        self.source = source
        self.destination = destination
        self.order = order
        self.sourceIsMissing = sourceIsMissing
        self.sourceEntity = sourceEntity
        self.destinationEntity = destinationEntity
    }
}
