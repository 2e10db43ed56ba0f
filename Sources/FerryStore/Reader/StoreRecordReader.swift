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
        entityNames = Dictionary(layout.entityNumbers.map { (Int64($0.value), $0.key) }, uniquingKeysWith: { first, _ in first })
        try checkTables()
    }

    // MARK: Records

    /// Streams the rows of an entity and its sub-entities in `Z_PK` order, each as a record of
    /// its concrete entity.
    public func records(of entityName: String) throws(StoreReaderError) -> StoredRecordCursor {
        guard model.entity(named: entityName) != nil, let table = layout.table(forEntity: entityName) else {
            throw .unknownEntity(path: store.path, entity: entityName)
        }
        var selection = ColumnSelection()
        _ = selection.index(of: "Z_PK")
        let entityColumn = selection.index(of: "Z_ENT")
        let versionColumn = selection.index(of: "Z_OPT")
        var shapes: [Int64: RecordShape] = [:]
        for member in model.hierarchy(below: entityName) {
            guard let number = layout.entityNumbers[member.name] else { continue }
            shapes[Int64(number)] = shape(of: member.name, selection: &selection)
        }
        let sql = "SELECT \(SQLIdentifier.list(selection.names)) FROM \(SQLIdentifier.quoted(table.name))"
            + " WHERE Z_ENT IN (\(numberList(shapes.keys.sorted()))) ORDER BY Z_PK"
        let plan = RecordPlan(path: store.path, table: table.name, sql: sql, entityColumn: entityColumn, versionColumn: versionColumn,
                              shapes: shapes, entityNames: entityNames)
        return try StoredRecordCursor(plan: plan, database: store.database)
    }

    /// Rows of an entity and its sub-entities.
    public func count(for entityName: String) throws(StoreReaderError) -> Int64 {
        guard let table = layout.table(forEntity: entityName) else { throw .unknownEntity(path: store.path, entity: entityName) }
        return try store.countRows(table: table.name, entityNumbers: hierarchyNumbers(entityName))
    }

    // MARK: Relationships

    /// Streams the pairs of a relationship of `entityName` (declared by it or an ancestor):
    ///
    /// - to-one: (row, destination) from the row's foreign key, for rows of `entityName` and below;
    /// - to-many with a to-one inverse: (source, destination) from the destinations' foreign key,
    ///   ordered by source, then the `Z_FOK_` order key for ordered relationships;
    /// - many-to-many: from the join table, ordered by source, then its `Z_FOK_` column when ordered.
    ///
    /// For to-many relationships the sources are all objects of the declaring entity's hierarchy.
    public func edges(of relationshipName: String, of entityName: String) throws(StoreReaderError) -> RelationshipEdgeCursor {
        guard let declaring = model.ancestry(of: entityName).first(where: { $0.relationship(named: relationshipName) != nil }),
              let relationship = declaring.relationship(named: relationshipName) else {
            throw model.entity(named: entityName) == nil
                ? .unknownEntity(path: store.path, entity: entityName)
                : .unknownRelationship(path: store.path, entity: entityName, relationship: relationshipName)
        }
        guard relationship.isToMany else {
            return try foreignKeyEdges(keyOwner: declaring.name, key: relationship.name, rowsOf: entityName,
                                       reversed: false, orderedBy: nil)
        }
        guard let inverse = model.inverse(of: relationship),
              let inverseOwner = model.ancestry(of: relationship.destinationEntity)
                  .first(where: { $0.relationship(named: inverse.name) != nil }) else {
            throw .invalidModel(path: store.path, reason: "\(declaring.name).\(relationshipName) has no inverse")
        }
        guard inverse.isToMany else {
            return try foreignKeyEdges(keyOwner: inverseOwner.name, key: inverse.name, rowsOf: relationship.destinationEntity,
                                       reversed: true, orderedBy: relationship.isOrdered ? inverse.name : nil)
        }
        return try joinEdges(declaring: declaring.name, relationship: relationship, inverseOwner: inverseOwner.name,
                             inverse: inverse)
    }

    /// Edges from the foreign key `key` declared by `keyOwner`, read from rows of `rowsOf`.
    /// `reversed` reads (key, row) instead of (row, key): the key column points at the source.
    private func foreignKeyEdges(keyOwner: String, key: String, rowsOf: String, reversed: Bool,
                                 orderedBy orderOwnerKey: String?) throws(StoreReaderError) -> RelationshipEdgeCursor {
        guard let table = layout.table(forEntity: keyOwner),
              let keyColumn = table.column(for: .toOne(entity: keyOwner, relationship: key)) else {
            throw .unknownRelationship(path: store.path, entity: keyOwner, relationship: key)
        }
        let keyName = SQLIdentifier.quoted(keyColumn.name)
        var columns = reversed ? [keyName, "Z_PK"] : ["Z_PK", keyName]
        var order = reversed ? [keyName] : ["Z_PK"]
        if let orderOwnerKey, let orderColumn = table.column(for: .orderKey(entity: keyOwner, relationship: orderOwnerKey)) {
            columns.append(SQLIdentifier.quoted(orderColumn.name))
            order.append(SQLIdentifier.quoted(orderColumn.name))
        }
        if reversed { order.append("Z_PK") }
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table.name))"
            + " WHERE \(keyName) IS NOT NULL AND Z_ENT IN (\(numberList(hierarchyNumbers(rowsOf))))"
            + " ORDER BY \(order.joined(separator: ", "))"
        return try RelationshipEdgeCursor(database: store.database, table: table.name, sql: sql, isOrdered: columns.count == 3)
    }

    /// Edges of a many-to-many relationship from its join table.
    private func joinEdges(declaring: String, relationship: Relationship, inverseOwner: String,
                           inverse: Relationship) throws(StoreReaderError) -> RelationshipEdgeCursor {
        var source = 0, destination = 1
        var found = layout.joinTables.first { $0.kind == .join(entity: declaring, relationship: relationship.name) }
        if found == nil {
            found = layout.joinTables.first { $0.kind == .join(entity: inverseOwner, relationship: inverse.name) }
            (source, destination) = (1, 0)
        }
        guard let table = found, table.columns.count >= 2 else {
            throw .unknownRelationship(path: store.path, entity: declaring, relationship: relationship.name)
        }
        var columns = [table.columns[source].name, table.columns[destination].name]
        if relationship.isOrdered,
           let orderColumn = table.column(for: .joinOrderKey(entity: declaring, relationship: relationship.name)) {
            columns.append(orderColumn.name)
        }
        let order = columns.count == 3 ? [columns[0], columns[2], columns[1]] : columns
        let sql = "SELECT \(SQLIdentifier.list(columns)) FROM \(SQLIdentifier.quoted(table.name)) ORDER BY \(SQLIdentifier.list(order))"
        return try RelationshipEdgeCursor(database: store.database, table: table.name, sql: sql, isOrdered: columns.count == 3)
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

    private func hierarchyNumbers(_ entityName: String) -> [Int64] {
        model.hierarchy(below: entityName).compactMap { layout.entityNumbers[$0.name].map(Int64.init) }
    }

    private func numberList(_ numbers: [Int64]) -> String {
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
        }
    }
}
