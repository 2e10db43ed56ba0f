import FerryModel

/// The tables a model's records take in a PostgreSQL schema, shared by every store of that
/// model loaded into it.
///
/// **One table per root entity**, holding the rows of the root and of all its sub-entities, with
/// an `entity` column naming each row's concrete entity: the layout Core Data itself uses. The
/// reason is foreign keys. A `Z_PK` is unique within a root's hierarchy (Core Data numbers it per
/// root), and a to-one relationship may point at any entity below its destination; with one
/// table per entity such a key could land in any of several tables, and no foreign key could
/// check it. With one table per root every to-one is a plain foreign key to one table, and a
/// query over an entity and its sub-entities needs no UNION. A sub-entity's attributes are
/// columns of the root's table, NULL in the rows of other entities.
///
/// Every table starts with `store` (the store's UUID) and `z_pk` (the store's `Z_PK`), its
/// primary key, so the rows of many stores share the tables. Then, per entity of the hierarchy,
/// its stored attributes (natively typed, `PostgresColumnType`) and its to-one relationships,
/// each in order of their names,
/// (the destination's `z_pk`; with `<name>_position` when the inverse is an ordered to-many: the
/// order key Core Data kept, ascending along the order). PostgreSQL keeps time to the microsecond;
/// a date attribute has a `<name>_exact` column beside its `timestamptz`, holding Core Data's
/// seconds since 2001 in the rows whose date is finer than that (NULL in the others), so a
/// store comes back bit for bit. A to-many relationship whose inverse is
/// to-one is that inverse's column. Many-to-many relationships, and to-many ones without an
/// inverse, are join tables (`PostgresJoinTable`). Column names are the model's names
/// (`PostgresNamer` makes them unique and short enough). Uniqueness constraints are unique
/// indexes on `store` and their columns. Attributes are nullable whatever the model says: the
/// tables hold what the stores hold.
public struct PostgresLayout: Sendable {
    public let entityTables: [PostgresEntityTable]
    public let joinTables: [PostgresJoinTable]
    /// Whether any table has a foreign key (each deferred to its transaction's commit).
    var hasForeignKeys: Bool {
        entityTables.contains { !$0.foreignKeys.isEmpty } || joinTables.contains { !$0.foreignKeys.isEmpty }
    }
    /// Catalog tables (`PostgresCatalog`), named first so no entity can take their names.
    static let catalogTables = ["ferry_schema", "ferry_stores"]
    static let storeColumn = "store", primaryKeyColumn = "z_pk", entityColumn = "entity"

    public init(model: ManagedObjectModel) throws(PostgresTransferError) {
        var tableNames = PostgresNamer(reserving: Self.catalogTables)
        let roots = model.entitiesInStoreOrder.filter { $0.parentName == nil }
        let names = Dictionary(uniqueKeysWithValues: roots.map { ($0.name, tableNames.claim($0.name)) })
        var joins: [PostgresJoinTable] = []
        var tables: [PostgresEntityTable] = []
        for root in roots {
            guard let name = names[root.name] else { continue }
            tables.append(try PostgresEntityTable(root: root.name, name: name, model: model, tableNames: names))
            for entity in model.hierarchy(below: root.name) {
                for relationship in entity.relationships.inNameOrder where Self.isJoinTable(relationship, of: entity.name, model: model) {
                    joins.append(try PostgresJoinTable(relationship: relationship, of: entity.name, model: model,
                                                       name: tableNames.claim(entity.name + "_" + relationship.name), tableNames: names))
                }
            }
        }
        entityTables = tables
        joinTables = joins
    }

    /// Whether a relationship's pairs are a join table of its own: a to-many whose inverse is
    /// not to-one (many-to-many, from the side that carries links, or no inverse at all).
    private static func isJoinTable(_ relationship: Relationship, of entity: String, model: ManagedObjectModel) -> Bool {
        guard relationship.isToMany, !relationship.isTransient else { return false }
        guard let inverse = model.inverse(of: relationship) else { return true }
        return inverse.isToMany && RelationshipSide.carriesLinks(relationship, of: entity, model: model)
    }
}

/// What PostgreSQL does to a referencing row when the row it points at is deleted.
public enum PostgresDeleteAction: String, Sendable, Equatable {
    case cascade = "CASCADE"
    case setNull = "SET NULL"
    case restrict = "RESTRICT"
    case noAction = "NO ACTION"

    /// For a foreign key whose referenced row holds a relationship with `rule`: the rule says
    /// what deleting that row does to its destinations, the rows with the key. Cascade → CASCADE,
    /// Nullify → SET NULL, Deny → RESTRICT, No Action → NO ACTION; a relationship without an
    /// inverse says nothing about its destinations' rows: NO ACTION.
    init(rule: DeleteRule?) {
        switch rule {
        case .cascade: self = .cascade
        case .nullify: self = .setNull
        case .deny: self = .restrict
        case .noAction, nil: self = .noAction
        }
    }

    /// For a join table's key to one side: a join row is a pair, gone with either end (CASCADE),
    /// unless that end's relationship is Deny (RESTRICT: the end cannot go while it has pairs).
    /// A Cascade rule, which would delete the other end, has no foreign-key form.
    init(joinRule rule: DeleteRule?) {
        self = rule == .deny ? .restrict : .cascade
    }
}

/// A foreign key: (`store`, `column`) points at (`store`, `z_pk`) of `table`: a row of the same store.
public struct PostgresForeignKey: Sendable, Equatable {
    public let column: String
    public let table: String
    public let onDelete: PostgresDeleteAction
}
