/// What a column of a Core Data store holds.
public enum ColumnRole: Sendable, Equatable, Hashable {
    /// `Z_PK`: the row's primary key, unique within the root entity's hierarchy.
    case primaryKey
    /// `Z_ENT`: the row's concrete entity number.
    case entityNumber
    /// `Z_OPT`: the optimistic-locking version, 1 after the first save.
    case optimisticLock
    /// An attribute declared by `entity`.
    case attribute(entity: String, name: String)
    /// `Z<REL>`: the `Z_PK` of the destination of a to-one relationship declared by `entity`.
    case toOne(entity: String, relationship: String)
    /// `Z<n>_<REL>`: the concrete `Z_ENT` of a to-one destination that has sub-entities.
    case toOneEntityNumber(entity: String, relationship: String)
    /// `Z_FOK_<REL>`: this row's position in the ordered to-many inverse of the to-one
    /// relationship `relationship` declared by `entity`.
    case orderKey(entity: String, relationship: String)
    /// `Z<n><REL>`: on rows of `destination` (and its sub-entities), the `Z_PK` of the source of
    /// the to-many relationship `relationship` declared by `entity` (`Z_ENT` n), which has no
    /// inverse (`ToManyKeys` gives the rule).
    case toManyKey(entity: String, relationship: String, destination: String)
    /// A join-table column holding `Z_PK`s of `entity`; `relationship` (declared on the other
    /// side) is the relationship pointing at those objects and gives the column its name.
    case joinKey(entity: String, relationship: String)
    /// A join-table `Z_FOK_` column: the position of a destination within the ordered
    /// many-to-many `relationship` declared by `entity`.
    case joinOrderKey(entity: String, relationship: String)
    /// A column of a bookkeeping table (`Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`).
    case bookkeeping

    /// The entity whose rows (and its sub-entities' rows) use this column, for entity-table
    /// columns: the one declaring the attribute or to-one relationship, or a to-many key's
    /// destination.
    public var rowEntity: String? {
        switch self {
        case .attribute(let entity, _), .toOne(let entity, _), .toOneEntityNumber(let entity, _),
             .orderKey(let entity, _), .toManyKey(_, _, let entity):
            entity
        case .primaryKey, .entityNumber, .optimisticLock, .joinKey, .joinOrderKey, .bookkeeping:
            nil
        }
    }

    /// The to-one relationship whose value this column qualifies (an order key's, a destination
    /// entity number's): with that to-one NULL, it belongs to no reference.
    public var qualifiedToOne: String? {
        switch self {
        case .toOneEntityNumber(_, let relationship), .orderKey(_, let relationship): relationship
        default: nil
        }
    }
}

/// One column of a store table: its name, its declared SQL type, and what it holds.
public struct ColumnLayout: Sendable, Equatable, Hashable {
    public var name: String
    /// The declared type as written in `CREATE TABLE` (`INTEGER`, `TIMESTAMP`, `VARCHAR`, …).
    public var declaredType: String
    public var role: ColumnRole

    public init(name: String, declaredType: String, role: ColumnRole) {
        self.name = name
        self.declaredType = declaredType
        self.role = role
    }
}
