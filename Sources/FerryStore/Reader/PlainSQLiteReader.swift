import FerryModel

/// Reads a plain SQLite database (not a Core Data store) as records: each table is an entity,
/// each column an attribute (types from the declared type, see `PlainColumnType`), each
/// single-column foreign key to a table's integer key a to-one relationship with a to-many
/// inverse. Records are keyed by the rowid or `INTEGER PRIMARY KEY` (see `PlainRowKey` for
/// `WITHOUT ROWID` tables), in key order, one prepared statement per query.
///
/// The source is opened read-only and never changed. Used by one thread.
public final class PlainSQLiteReader {
    public let path: String
    public let schema: DatabaseSchema
    /// One entry per table, in schema order.
    public let tables: [PlainTable]
    /// The model the tables describe: entity names are the (sanitized) table names.
    public let model: ManagedObjectModel
    private let database: SQLiteDatabase

    /// Opens the database and describes its tables.
    /// - Throws: `StoreReaderError`: `.cannotOpen`, `.notSQLite`, `.corrupt`.
    public init(path: String) throws(StoreReaderError) {
        self.path = path
        let database = try StoreFile.open(path)
        self.database = database
        let schema = try StoreReaderError.sqlite { () throws(SQLiteError) in try DatabaseSchema.read(from: database) }
        self.schema = schema
        (tables, model) = try StoreReaderError.sqlite { () throws(SQLiteError) in
            try PlainModelBuilder(schema: schema, database: database).build()
        }
    }

    /// The table read as this entity.
    public func table(forEntity entity: String) -> PlainTable? {
        tables.first { $0.entity == entity }
    }

    /// Streams the rows of a table, in key order.
    public func records(of entity: String) throws(StoreReaderError) -> StoredRecordCursor {
        let table = try plainTable(entity)
        var selection = ColumnSelection()
        let key = keyExpression(table)
        _ = selection.index(of: key)
        let attributes = table.attributes.map { column in
            AttributeColumn(index: selection.index(of: SQLIdentifier.quoted(column.column)), column: column.column,
                            name: column.attribute, type: column.type)
        }
        let toOne = table.foreignKeys.map { link in
            ToOneColumns(name: link.relationship, keyIndex: selection.index(of: SQLIdentifier.quoted(link.column)),
                         keyColumn: link.column, entityIndex: nil, orderIndex: nil, destination: link.destinationEntity)
        }
        let sql = "SELECT \(selection.names.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table.table)) ORDER BY 1"
        let plan = RecordPlan(path: path, table: table.table, sql: sql, entityColumn: nil,
                              shapes: [0: RecordShape(entity: table.entity, attributes: attributes, toOne: toOne)], entityNames: [:])
        return try StoredRecordCursor(plan: plan, database: database, minimumSplitSpan: nil)
    }

    /// Rows of a table.
    public func count(for entity: String) throws(StoreReaderError) -> Int64 {
        let table = try plainTable(entity)
        let sql = "SELECT count(*) FROM \(SQLIdentifier.quoted(table.table))"
        return try StoreReaderError.sqlite { () throws(SQLiteError) in try database.scalarInteger(sql) } ?? 0
    }

    /// Streams the pairs of a relationship: a foreign key (row → parent) or its inverse
    /// (parent → rows, ordered by parent then row).
    public func edges(of relationship: String, of entity: String) throws(StoreReaderError) -> RelationshipEdgeCursor {
        let owner = try plainTable(entity)
        if let link = owner.foreignKeys.first(where: { $0.relationship == relationship }) {
            return try foreignKeyEdges(table: owner, column: link.column, reversed: false)
        }
        for child in tables {
            if let link = child.foreignKeys.first(where: { $0.destinationEntity == entity && $0.inverse == relationship }) {
                return try foreignKeyEdges(table: child, column: link.column, reversed: true)
            }
        }
        throw .unknownRelationship(path: path, entity: entity, relationship: relationship)
    }

    private func foreignKeyEdges(table: PlainTable, column: String, reversed: Bool) throws(StoreReaderError) -> RelationshipEdgeCursor {
        let key = keyExpression(table)
        let foreign = SQLIdentifier.quoted(column)
        let pair = reversed ? "\(foreign), \(key)" : "\(key), \(foreign)"
        let sql = "SELECT \(pair) FROM \(SQLIdentifier.quoted(table.table)) WHERE \(foreign) IS NOT NULL ORDER BY 1, 2"
        let label = keyLabel(table)
        return try RelationshipEdgeCursor(database: database, table: table.table, sql: sql,
                                          columns: reversed ? (column, label, nil) : (label, column, nil))
    }

    private func plainTable(_ entity: String) throws(StoreReaderError) -> PlainTable {
        guard let table = table(forEntity: entity) else { throw .unknownEntity(path: path, entity: entity) }
        return table
    }

    /// A row's key as messages name it: its column, or how it is made.
    private func keyLabel(_ table: PlainTable) -> String {
        switch table.key {
        case .column(let name): name
        case .rowid: "rowid"
        case .position: "row number"
        }
    }

    /// The SQL expression of a row's key.
    private func keyExpression(_ table: PlainTable) -> String {
        switch table.key {
        case .column(let name):
            return SQLIdentifier.quoted(name)
        case .rowid:
            let columns = Set(schema.table(named: table.table)?.columns.map { $0.name.lowercased() } ?? [])
            return ["_rowid_", "rowid", "oid"].first { !columns.contains($0) } ?? "_rowid_"
        case .position(let keyColumns):
            let order = keyColumns.isEmpty ? "1" : SQLIdentifier.list(keyColumns)
            return "row_number() OVER (ORDER BY \(order))"
        }
    }
}
