import FerryModel

/// Reads the records and relationships of a Core Data store through the model it was written
/// with (or one with the same layout). Made by `CoreDataStoreReader.records(model:)`.
///
/// Tables and columns come from the model's `StoreLayout`; entity numbers and join-table names
/// from the store itself (`CoreDataStoreReader.layout(for:)`): `Z_ENT` through the store's own
/// `Z_PRIMARYKEY` names (or an entity's renaming identifier, as `Z_NAME` keeps the old name after
/// a renaming migration).
/// Every query runs through one prepared statement and is stepped row by row.
public final class StoreRecordReader {
    public let store: CoreDataStoreReader
    public let model: ManagedObjectModel
    public let layout: StoreLayout
    private let entityNames: [Int64: String]

    init(store: CoreDataStoreReader, model: ManagedObjectModel) throws(StoreReaderError) {
        self.store = store
        self.model = model
        layout = try store.layout(for: model)
        entityNames = layout.entityNames
        try checkTables()
    }

    // MARK: Records

    /// Streams the rows of an entity and its sub-entities in `Z_PK` order, each as a record of
    /// its concrete entity.
    /// - Throws: `StoreReaderError.abstractEntityRow` before the first row when a row of the
    ///   hierarchy has the `Z_ENT` of an abstract entity (the first such row by `Z_PK`).
    public func records(of entityName: String) throws(StoreReaderError) -> StoredRecordCursor {
        try records(of: entityName, minimumSplitSpan: SplitRecordScan.hasSpareCores ? SplitRecordScan.minimumSpan : nil)
    }

    /// `records(of:)`, read on worker threads from a span of `minimumSplitSpan` keys on, or never
    /// when nil, whatever the cores (for tests, which read small tables both ways, and the
    /// benchmark that compares the two).
    package func records(of entityName: String, minimumSplitSpan: Int64?) throws(StoreReaderError) -> StoredRecordCursor {
        guard model.entity(named: entityName) != nil, let table = layout.table(forEntity: entityName) else {
            throw .unknownEntity(path: store.path, entity: entityName)
        }
        try refuseAbstractRows(of: entityName, in: table.name)
        var selection = ColumnSelection()
        _ = selection.index(of: "Z_PK")
        let entityColumn = selection.index(of: "Z_ENT")
        let versionColumn = selection.index(of: "Z_OPT")
        var shapes: [Int64: RecordShape] = [:]
        for member in model.hierarchy(below: entityName) {
            guard let number = layout.entityNumbers[member.name] else { continue }
            shapes[Int64(number)] = shape(of: member.name, selection: &selection)
        }
        // One entity number: the Z_ENT index hands its rows out in Z_PK order. Several (a
        // hierarchy): the index hands them out number by number, and SQLite sorted every row of
        // the table into a temporary file (a file as large as the table, which a full temporary
        // folder or the file size limit failed); walking the table in Z_PK order sorts nothing.
        let index = shapes.count > 1 ? " NOT INDEXED" : ""
        let rows = "SELECT \(SQLIdentifier.list(selection.names)) FROM \(SQLIdentifier.quoted(table.name))\(index)"
            + " WHERE Z_ENT IN (\(numberList(shapes.keys.sorted())))"
        let plan = RecordPlan(path: store.path, table: table.name, sql: rows + " ORDER BY Z_PK", entityColumn: entityColumn,
                              versionColumn: versionColumn, splitSQL: rows + " AND Z_PK >= ?1 ORDER BY Z_PK",
                              shapes: shapes, entityNames: entityNames)
        return try StoredRecordCursor(plan: plan, database: store.database, minimumSplitSpan: minimumSplitSpan)
    }

    /// Throws `StoreReaderError.abstractEntityRow` when a row of any hierarchy has the `Z_ENT` of
    /// an abstract entity, as `records(of:)` does for its own: for a reader that reads every
    /// hierarchy and refuses the store before its first record.
    public func refuseAbstractRows() throws(StoreReaderError) {
        for root in model.entities where root.parentName == nil {
            guard let table = layout.table(forEntity: root.name) else { continue }
            try refuseAbstractRows(of: root.name, in: table.name)
        }
    }

    /// Throws `abstractEntityRow` for the first row (by `Z_PK`) of `table` whose `Z_ENT` is an
    /// abstract entity of `entityName`'s hierarchy: one look through the table's `Z_ENT` index.
    private func refuseAbstractRows(of entityName: String, in table: String) throws(StoreReaderError) {
        let abstract = model.hierarchy(below: entityName).filter(\.isAbstract).compactMap { entity in
            layout.entityNumbers[entity.name].map { (number: Int64($0), name: entity.name) }
        }
        guard !abstract.isEmpty else { return }
        // An aggregate, not ORDER BY Z_PK LIMIT 1, which the planner may answer by walking the whole table in key order.
        let sql = "SELECT min(Z_PK), Z_ENT FROM \(SQLIdentifier.quoted(table)) WHERE Z_ENT IN (\(numberList(abstract.map(\.number))))"
        let found = try StoreReaderError.sqlite { () throws(SQLiteError) -> (key: Int64, number: Int64)? in
            let statement = try store.database.prepare(sql)
            defer { statement.finalize() }
            guard try statement.step(), !statement.isNull(at: 0) else { return nil }
            return (statement.int64(at: 0), statement.int64(at: 1))
        }
        guard let found else { return }
        throw .abstractEntityRow(path: store.path, table: table, primaryKey: found.key, entityNumber: found.number,
                                 entity: abstract.first { $0.number == found.number }?.name ?? "")
    }

    /// Rows of an entity and its sub-entities.
    public func count(for entityName: String) throws(StoreReaderError) -> Int64 {
        guard let table = layout.table(forEntity: entityName) else { throw .unknownEntity(path: store.path, entity: entityName) }
        return try store.countRows(table: table.name, entityNumbers: hierarchyNumbers(entityName))
    }

    // MARK: Relationships

    /// Streams the pairs of a relationship of `entityName` (declared by it or an ancestor), from
    /// where the layout keeps them (`StoreLayout.placement(of:of:)`):
    ///
    /// - to-one: (row, destination) from the row's foreign key, for rows of `entityName` and below;
    /// - to-many kept on its destinations' rows (a to-one inverse's key, or its own key when it has
    ///   no inverse): (source, destination) from that key, ordered by source, then the `Z_FOK_`
    ///   order key for ordered relationships;
    /// - many-to-many: from the join table, ordered by source, then its `Z_FOK_` column when ordered.
    ///
    /// For to-many relationships the sources are all objects of the declaring entity's hierarchy.
    /// With `findingMissingSources`, each pair whose source key names no row of that hierarchy
    /// (a key kept on the destination's row or in a join table, pointing nowhere) says so
    /// (`RelationshipEdge.sourceIsMissing`), at the cost of one look up by `Z_PK` per pair.
    /// With `namingEntities`, each pair names the `Z_ENT` of its two ends' rows
    /// (`RelationshipEdge.sourceEntity`, `destinationEntity`), at the cost of a look up by `Z_PK` per foreign key.
    /// - Parameter destinations: the concrete entities whose rows the pairs may lead to (nil:
    ///   every entity of the destination's hierarchy), for a to-many kept on its destinations'
    ///   rows or in a join table.
    public func edges(of relationshipName: String, of entityName: String, findingMissingSources: Bool = false, namingEntities: Bool = false,
                      destinations: [String]? = nil) throws(StoreReaderError) -> RelationshipEdgeCursor {
        let query = try edgeQuery(of: relationshipName, of: entityName, destinations: destinations)
        return try RelationshipEdgeCursor(database: store.database, table: query.table,
                                          sql: query.select(findingMissingSources: findingMissingSources, namingEntities: namingEntities),
                                          columns: (query.sourceColumn, query.destinationColumn, query.orderColumn),
                                          findingMissingSources: findingMissingSources, namingEntities: namingEntities)
    }

    /// How many pairs `edges(of:of:)` streams, counted with one `count(*)` over the same rows.
    public func edgeCount(of relationshipName: String, of entityName: String) throws(StoreReaderError) -> Int64 {
        let query = try edgeQuery(of: relationshipName, of: entityName)
        return try StoreReaderError.sqlite { () throws(SQLiteError) in try store.database.scalarInteger("SELECT count(*) \(query.from)") } ?? 0
    }

    /// The pairs of a to-many relationship of `entityName` whose source is a row of `entityName`'s
    /// hierarchy (what `edges(of:of:)` delivers to those rows), as a digest of (source, destination)
    /// read from the table that keeps them without its indexes (`NOT INDEXED`): `edges` reads the
    /// pairs in order through the key's index, and an index that lost entries, or holds a pair the
    /// table moved, passes SQLite's quick_check and leaves the count as it was. Nil for a
    /// relationship kept otherwise (a to-one, a reflexive many-to-many).
    public func indexFreeEdgeDigest(of relationshipName: String, of entityName: String) throws(StoreReaderError) -> KeyRowDigest? {
        guard let relationship = model.allRelationships(of: entityName).first(where: { $0.name == relationshipName }),
              let sources = layout.table(forEntity: entityName)?.name else { return nil }
        let sourceRows = "SELECT Z_PK FROM \(SQLIdentifier.quoted(sources)) WHERE Z_ENT IN (\(numberList(hierarchyNumbers(entityName))))"
        let sql: String
        switch layout.placement(of: relationshipName, of: entityName) {
        case .destinationRows(let key):
            let keyName = SQLIdentifier.quoted(key.key)
            sql = "SELECT \(keyName), Z_PK FROM \(SQLIdentifier.quoted(key.table)) NOT INDEXED WHERE \(keyName) IS NOT NULL"
                + " AND Z_ENT IN (\(numberList(hierarchyNumbers(relationship.destinationEntity)))) AND \(keyName) IN (\(sourceRows))"
        case .joinTable(let join) where !join.isOwnInverse:
            let source = SQLIdentifier.quoted(join.source)
            sql = "SELECT \(source), \(SQLIdentifier.quoted(join.destination)) FROM \(SQLIdentifier.quoted(join.table)) NOT INDEXED"
                + " WHERE \(source) IN (\(sourceRows))"
        default:
            return nil
        }
        return try StoreReaderError.sqlite { () throws(SQLiteError) in
            let statement = try store.database.prepare(sql)
            defer { statement.finalize() }
            var digest = KeyRowDigest()
            while try statement.step() { digest.add(statement, columns: 2) }
            return digest
        }
    }

    /// The indexes through which `edges(of:of:)` may read the pairs of `relationshipName` of
    /// `entityName` that disagree with the table keeping them (`PairIndexScan`), for naming them.
    public func indexDisagreements(of relationshipName: String, of entityName: String) throws(StoreReaderError) -> [IndexDisagreement] {
        guard let declaring = model.declaringEntity(ofProperty: relationshipName, in: entityName),
              let relationship = declaring.relationship(named: relationshipName),
              let pairs = RelationshipPairs(relationship, declaredBy: declaring.name, rowsOf: entityName, model: model, layout: layout) else { return [] }
        return try StoreReaderError.sqlite { () throws(SQLiteError) in
            try PairIndexScan(ScanConnection(database: store.database, sampleLimit: 3)).disagreements(of: pairs)
        }
    }

    /// The join rows of a many-to-many relationship of `entityName` whose two keys both name no
    /// row of their entity's hierarchy: no record's list holds them. Nil for a relationship kept
    /// otherwise.
    public func joinRowsNamingNoRecord(of relationshipName: String, of entityName: String) throws(StoreReaderError) -> Int64? {
        guard let relationship = model.allRelationships(of: entityName).first(where: { $0.name == relationshipName }),
              case .joinTable(let join) = layout.placement(of: relationshipName, of: entityName),
              let sources = layout.table(forEntity: entityName)?.name,
              let destinations = layout.table(forEntity: relationship.destinationEntity)?.name else { return nil }
        let rows = { (table: String, entity: String) in
            "SELECT Z_PK FROM \(SQLIdentifier.quoted(table)) WHERE Z_ENT IN (\(self.numberList(self.hierarchyNumbers(entity))))"
        }
        let sql = "SELECT count(*) FROM \(SQLIdentifier.quoted(join.table)) WHERE \(SQLIdentifier.quoted(join.source)) NOT IN (\(rows(sources, entityName)))"
            + " AND \(SQLIdentifier.quoted(join.destination)) NOT IN (\(rows(destinations, relationship.destinationEntity)))"
        return try StoreReaderError.sqlite { () throws(SQLiteError) in try store.database.scalarInteger(sql) } ?? 0
    }

    /// The SQL of the pairs of `relationshipName` of `entityName` (`edges(of:of:)`), leading to
    /// rows of `destinations` only when given.
    private func edgeQuery(of relationshipName: String, of entityName: String, destinations: [String]? = nil) throws(StoreReaderError) -> EdgeQuery {
        guard let relationship = model.allRelationships(of: entityName).first(where: { $0.name == relationshipName }) else {
            throw model.entity(named: entityName) == nil
                ? .unknownEntity(path: store.path, entity: entityName)
                : .unknownRelationship(path: store.path, entity: entityName, relationship: relationshipName)
        }
        let sources = layout.table(forEntity: entityName).map { (table: $0.name, numbers: hierarchyNumbers(entityName)) }
        let targets = layout.table(forEntity: relationship.destinationEntity)
            .map { (table: $0.name, numbers: hierarchyNumbers(relationship.destinationEntity)) }
        switch layout.placement(of: relationshipName, of: entityName) {
        case .sourceRow(let key):
            return .foreignKey(key, rows: hierarchyNumbers(entityName), reversed: false, ordered: false, sources: nil, destinations: targets)
        case .destinationRows(let key):
            let rows = destinations.map { $0.compactMap { layout.entityNumbers[$0].map(Int64.init) } } ?? hierarchyNumbers(relationship.destinationEntity)
            return .foreignKey(key, rows: rows, reversed: true, ordered: relationship.isOrdered, sources: sources, destinations: nil)
        case .joinTable(let join):
            let only = destinations.flatMap { names in
                targets.map { (table: $0.table, numbers: names.compactMap { layout.entityNumbers[$0].map(Int64.init) }) }
            }
            return .join(join, ordered: relationship.isOrdered, sources: sources, destinations: targets, only: only)
        case nil:
            throw .unknownRelationship(path: store.path, entity: entityName, relationship: relationshipName)
        }
    }

    // MARK: Private

    /// The attributes and to-one relationships of a concrete entity, selecting their columns.
    private func shape(of entityName: String, selection: inout ColumnSelection) -> RecordShape {
        let columns = layout.columns(forEntity: entityName)
        var attributes: [AttributeColumn] = []
        var toOne: [ToOneColumns] = []
        for column in columns {
            switch column.role {
            case .attribute(let owner, let name):
                guard let attribute = model.entity(named: owner)?.attribute(named: name) else { continue }
                attributes.append(AttributeColumn(index: selection.index(of: column.name), column: column.name, name: name,
                                                  type: attribute.type,
                                                  isExternallyStorable: attribute.allowsExternalBinaryDataStorage))
            case .toOne(let owner, let name):
                guard let relationship = model.entity(named: owner)?.relationship(named: name) else { continue }
                let entityColumn = columns.first { $0.role == .toOneEntityNumber(entity: owner, relationship: name) }
                let orderColumn = columns.first { $0.role == .orderKey(entity: owner, relationship: name) }
                toOne.append(ToOneColumns(
                    name: name, keyIndex: selection.index(of: column.name), keyColumn: column.name,
                    entityIndex: entityColumn.map { selection.index(of: $0.name) },
                    orderIndex: orderColumn.map { selection.index(of: $0.name) },
                    destination: relationship.destinationEntity))
            default:
                continue
            }
        }
        return RecordShape(entity: entityName, attributes: attributes, toOne: toOne)
    }

    /// `Z_ENT` of the entity and of every entity below it.
    func hierarchyNumbers(_ entityName: String) -> [Int64] {
        model.hierarchy(below: entityName).compactMap { layout.entityNumbers[$0.name].map(Int64.init) }
    }

    /// `1, 2, 3`, for `IN (…)`.
    func numberList(_ numbers: [Int64]) -> String {
        numbers.map(String.init).joined(separator: ", ")
    }

    /// Every entity and join table of the layout, with every column, must be in the store.
    private func checkTables() throws(StoreReaderError) {
        for table in layout.tables {
            let owner: String
            switch table.kind {
            case .bookkeeping: continue
            case .entity(let root, _): owner = "entity \(root)"
            case .join(let entity, let relationship): owner = "relationship \(entity).\(relationship)"
            }
            guard let stored = store.schema.table(named: table.name) else {
                throw .missingTable(path: store.path, table: table.name, owner: owner)
            }
            for column in table.columns where stored.column(named: column.name) == nil {
                throw .missingColumn(path: store.path, table: table.name, column: column.name, owner: owner)
            }
            // Core Data declares `Z_PK INTEGER PRIMARY KEY`, which makes keys unique: a table
            // rebuilt without it may hold one key twice, two objects that are one to every link.
            if case .entity = table.kind, let problem = store.schema.keyProblem(of: stored) {
                throw .keyNotRowID(path: store.path, table: table.name, reason: problem)
            }
        }
    }
}
