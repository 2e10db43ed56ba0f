import FerryModel

/// A to-one relationship's columns on the rows of its table.
struct ForeignKeyColumns {
    var table: String
    /// `Z<REL>`: the destination's `Z_PK`.
    var key: String
    /// `Z<n>_<REL>`, when the destination has sub-entities.
    var entityNumber: String?
    /// `Z_FOK_<REL>`, when the inverse is an ordered to-many.
    var orderKey: String?
    /// The entity declaring the relationship (rows of its hierarchy hold the key).
    var owner: String

    /// The columns of `relationship` declared by `owner`, or nil when the layout has no key for it.
    init?(owner: String, relationship: String, layout: StoreLayout) {
        guard let table = layout.table(forEntity: owner),
              let key = table.column(for: .toOne(entity: owner, relationship: relationship)) else { return nil }
        self.table = table.name
        self.key = key.name
        self.owner = owner
        entityNumber = table.column(for: .toOneEntityNumber(entity: owner, relationship: relationship))?.name
        orderKey = table.column(for: .orderKey(entity: owner, relationship: relationship))?.name
    }

    /// `key = NULL[, entity = NULL][, order = NULL]`.
    var clearing: String {
        ([key] + [entityNumber, orderKey].compactMap { $0 }).map { "\($0) = NULL" }.joined(separator: ", ")
    }
}

/// Where the pairs of one relationship are stored (coredata-format.md §3–§4).
enum RelationshipStorage {
    /// A to-one: the key is on the source's row.
    case sourceKey(ForeignKeyColumns)
    /// A to-many whose inverse is to-one: the key is on the destinations' rows.
    case destinationKey(ForeignKeyColumns)
    /// A many-to-many: rows of a join table, `source` holding this side's `Z_PK`s.
    case join(table: String, source: String, destination: String)

    /// Finds the storage of `relationship`, declared by `owner`.
    init(_ relationship: Relationship, owner: String, model: ManagedObjectModel,
         layout: StoreLayout) throws(StoreMutationError) {
        let name = "\(owner).\(relationship.name)"
        if !relationship.isToMany {
            guard let columns = ForeignKeyColumns(owner: owner, relationship: relationship.name, layout: layout) else {
                throw .unsupported("\(name) has no column in the store")
            }
            self = .sourceKey(columns)
            return
        }
        guard let inverse = model.inverse(of: relationship),
              let inverseOwner = model.ancestry(of: relationship.destinationEntity)
                  .first(where: { $0.relationship(named: inverse.name) != nil }) else {
            throw .unsupported("the to-many relationship \(name) has no inverse")
        }
        if !inverse.isToMany {
            guard let columns = ForeignKeyColumns(owner: inverseOwner.name, relationship: inverse.name, layout: layout) else {
                throw .unsupported("\(inverseOwner.name).\(inverse.name) has no column in the store")
            }
            self = .destinationKey(columns)
            return
        }
        if let table = layout.joinTables.first(where: { $0.kind == .join(entity: owner, relationship: relationship.name) }),
           table.columns.count >= 2 {
            self = .join(table: table.name, source: table.columns[0].name, destination: table.columns[1].name)
        } else if let table = layout.joinTables.first(where: { $0.kind == .join(entity: inverseOwner.name, relationship: inverse.name) }),
                  table.columns.count >= 2 {
            self = .join(table: table.name, source: table.columns[1].name, destination: table.columns[0].name)
        } else {
            throw .unsupported("\(name) has no join table in the store")
        }
    }
}
