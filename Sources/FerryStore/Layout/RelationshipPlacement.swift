/// Where the pairs of one relationship are kept in a store (coredata-format.md §3–§4). The
/// `StoreLayout` of a model has one for every stored relationship: the reader, the writers, the
/// predicate compiler, delete and verify ask it instead of working it out from the model.
public enum RelationshipPlacement: Sendable, Equatable {
    /// A to-one relationship: a key on the source's own row.
    case sourceRow(ForeignKeyPlacement)
    /// A to-many relationship whose destinations' rows point back at their source: through the
    /// key of its to-one inverse, or, without an inverse, a `Z<n><REL>` key of its own.
    case destinationRows(ForeignKeyPlacement)
    /// A many-to-many relationship: the rows of a join table.
    case joinTable(JoinTablePlacement)

    /// Where the pairs are, as one name: `TABLE.KEY` for a key on rows, the table for a join
    /// table. A relationship and its inverse share it, so each pair is counted once by it.
    public var storageName: String {
        switch self {
        case .sourceRow(let key), .destinationRows(let key): "\(key.table).\(key.key)"
        case .joinTable(let join): join.table
        }
    }
}

/// A foreign key on the rows of an entity table, with the columns that go with it.
public struct ForeignKeyPlacement: Sendable, Equatable {
    public let table: String
    /// `Z<REL>` (a to-one relationship's key) or `Z<n><REL>` (a to-many relationship's own key):
    /// the `Z_PK` of the object the row points at.
    public let key: String
    /// `Z<n>_<REL>`: the `Z_ENT` of the object pointed at, when its entity has sub-entities.
    public let entityNumber: String?
    /// `Z_FOK_<REL>`: the row's position among the destinations of the to-one relationship's
    /// ordered to-many inverse.
    public let orderKey: String?
    /// The entity whose rows (and its sub-entities') hold the key: the to-one relationship's
    /// declaring entity, or the destination of a to-many relationship that has no inverse.
    public let holder: String
    /// Whether the key is a to-many relationship's own (`ColumnRole.toManyKey`): no to-one
    /// relationship reads or writes it, and it is part of the source object as join-table rows are.
    public let isToManyKey: Bool
}

/// The columns of a join table in the direction of one side of a many-to-many relationship.
public struct JoinTablePlacement: Sendable, Equatable {
    public let table: String
    /// The column holding the sources' `Z_PK`s.
    public let source: String
    /// The column holding the destinations' `Z_PK`s.
    public let destination: String
    /// `Z_FOK_`: a destination's position among its source's destinations, when this side is ordered.
    public let order: String?
    /// `Z_FOK_`: a source's position among its destination's sources, when the inverse is ordered.
    public let inverseOrder: String?
    /// Whether the relationship is its own inverse (a reflexive many-to-many such as `friends`):
    /// an object is then named in either column, as the source of one row and the destination of
    /// another.
    public let isOwnInverse: Bool
}
