import FerryModel

/// The SQLite schema Core Data uses for a model: entity tables, join tables, bookkeeping tables
/// and indexes, each with its exact `CREATE` statement. Readers, writers and verifiers share it.
public struct StoreLayout: Sendable, Equatable {
    /// `Z_ENT` of every entity.
    public let entityNumbers: [String: Int]
    /// Entity tables (roots in `Z_ENT` order), each followed by the join tables named after it,
    /// then the bookkeeping tables.
    public let tables: [TableLayout]
    /// Every index, grouped by table in table order.
    public let indexes: [IndexLayout]
    /// Each entity's ancestry (itself first, root last).
    private let ancestries: [String: [String]]
    /// Where every stored relationship keeps its pairs, by declaring entity and name.
    let placements: [RelationshipID: RelationshipPlacement]
    /// The derived attributes kept up to date by Core Data's triggers, in model order.
    public private(set) var derivedAttributes: [DerivedAttributeLayout] = []
    /// The derived attributes whose triggers are not known (the store cannot keep them).
    public private(set) var unkeptDerivations: [UnkeptDerivation] = []

    /// Lays a model out as Core Data would for a new store, or, given an existing store's facts,
    /// as that store was laid out: its own entity numbers and join-table names.
    public init(model: ManagedObjectModel, existing: ExistingStoreFacts? = nil) throws(StoreLayoutError) {
        var builder = try StoreLayoutBuilder(model: model, existing: existing)
        try builder.build()
        entityNumbers = builder.entityNumbers
        tables = builder.tables + BookkeepingTables.all
        indexes = builder.indexes
        ancestries = Dictionary(uniqueKeysWithValues: model.entities.map { entity in
            (entity.name, model.ancestry(of: entity.name).map(\.name))
        })
        placements = RelationshipPlacer(model: model, tables: tables).placements()
        (derivedAttributes, unkeptDerivations) = DerivedAttributeLayout.of(model, in: self)
    }

    /// Entity names by `Z_ENT`.
    public var entityNames: [Int64: String] {
        Dictionary(entityNumbers.map { (Int64($0.value), $0.key) }, uniquingKeysWith: { first, _ in first })
    }

    /// The table with this name.
    public func table(named name: String) -> TableLayout? { tables.first { $0.name == name } }

    /// The table that holds rows of this entity (its root's table).
    public func table(forEntity name: String) -> TableLayout? {
        guard let root = ancestries[name]?.last else { return nil }
        return tables.first { $0.kind.isEntityTable(root: root) }
    }

    /// The columns a row of this entity uses: `Z_PK`, `Z_ENT`, `Z_OPT`, the columns of the
    /// entity's own and inherited properties and the keys of to-many relationships without an
    /// inverse into it or an ancestor, in table order. Columns of sibling and sub-entities are
    /// left out (they stay NULL for this entity's rows).
    public func columns(forEntity name: String) -> [ColumnLayout] {
        guard let table = table(forEntity: name), let ancestry = ancestries[name] else { return [] }
        return table.columns.filter { column in
            guard let entity = column.role.rowEntity else { return true }
            return ancestry.contains(entity)
        }
    }

    /// `Z_SUPER` of an entity's `Z_PRIMARYKEY` row: its parent's `Z_ENT`, 0 for a root entity;
    /// nil for an entity the model does not have.
    public func superNumber(of entity: String) -> Int? {
        guard let ancestry = ancestries[entity] else { return nil }
        return ancestry.count > 1 ? entityNumbers[ancestry[1]] : 0
    }

    /// Where the pairs of the relationship `relationship` of `entity` (declared by it or an
    /// ancestor) are kept; nil for a transient or unknown relationship.
    public func placement(of relationship: String, of entity: String) -> RelationshipPlacement? {
        ancestries[entity]?.lazy.compactMap { placements[RelationshipID(entity: $0, relationship: relationship)] }.first
    }

    /// `Z_ENT` of `entity` and of every entity below it in `model` (the model laid out), in the
    /// model's pre-order.
    public func entityNumbers(below entity: String, in model: ManagedObjectModel) -> [Int] {
        model.hierarchy(below: entity).compactMap { entityNumbers[$0.name] }
    }

    /// The join tables, in table order.
    public var joinTables: [TableLayout] {
        tables.filter { if case .join = $0.kind { true } else { false } }
    }

    /// Every `CREATE` statement of tables and indexes, tables first (the triggers are
    /// `derivedAttributes`').
    public var createStatements: [String] {
        tables.map(\.createStatement) + indexes.map(\.createStatement)
    }

    /// The derivations the store cannot keep (`unkeptDerivations`) that rows of `entities` have:
    /// declared by one of them or by an ancestor.
    public func unkeptDerivations(of entities: Set<String>, in model: ManagedObjectModel) -> [UnkeptDerivation] {
        unkeptDerivations.filter { unkept in model.hierarchy(below: unkept.entity).contains { entities.contains($0.name) } }
    }
}

extension TableKind {
    func isEntityTable(root: String) -> Bool {
        if case .entity(let tableRoot, _) = self { tableRoot == root } else { false }
    }
}
