import FerryMigration
import FerryModel
import FerryPostgres

/// Reads one store's rows back out of a layout's tables into a `StoreGraphWriter`, for
/// `PostgresRestoreJob`: records per entity table in `z_pk` order (each keeps its key), then the
/// pairs of each relationship from the side that carries them, staged by key. Rows stream one at
/// a time; the connection must be in the transaction the restore reads in.
struct PostgresRowReader {
    let connection: PostgresConnection
    let schema: String
    let store: String
    let model: ManagedObjectModel

    /// Writes the records of an entity table's hierarchy.
    func records(of table: PostgresEntityTable, into graph: StoreGraphWriter) throws(PostgresTransferError) {
        let valueColumns = table.columns.filter {
            switch $0.role {
            case .attribute, .exactDate: true
            default: false
            }
        }
        let selected = [PostgresLayout.primaryKeyColumn, PostgresLayout.entityColumn] + valueColumns.map(\.name)
        let rows = try query(selected, from: table.name, order: [PostgresLayout.primaryKeyColumn])
        var insert = KeyPreservingInsert(graph: graph, root: table.root)
        var shapes: [String: Shape] = [:]
        while let row = try database({ () throws(PostgresError) in try rows.next() }) {
            let (primaryKey, entity) = try database { () throws(PostgresError) in (try row.integer(0), try row.text(1)) }
            let shape: Shape
            if let known = shapes[entity] {
                shape = known
            } else {
                shape = try self.shape(of: entity, among: valueColumns, table: table)
                shapes[entity] = shape
            }
            var values: [AttributeValue] = []
            values.reserveCapacity(shape.fields.count)
            for (field, attribute) in zip(shape.fields, shape.schema.attributes) {
                guard let field else {
                    values.append(.null)
                    continue
                }
                values.append(try database { () throws(PostgresError) in
                    if let exact = field.exact, !row.isNull(2 + exact) { return .date(try row.double(2 + exact)) }
                    return try PostgresValues.read(row, 2 + field.position, type: field.type, as: attribute.type)
                })
            }
            let origin = "\(schema).\(table.name) z_pk \(primaryKey)"
            do {
                try insert.insert(Record(values: values, location: SourceLocation(file: origin), key: .integer(primaryKey)),
                                  primaryKey: primaryKey, schema: shape.schema, origin: origin)
            } catch {
                throw Self.restoreError(error)
            }
        }
    }

    /// Stages the pairs an entity table's to-one keys hold, for each relationship whose side
    /// they carry: the to-one itself, or its to-many inverse (a one-to-many), in order.
    func stageToOnePairs(of table: PostgresEntityTable, into graph: StoreGraphWriter) throws(PostgresTransferError) {
        for column in table.columns {
            guard case .toOne(let owner, let name) = column.role, let relationship = model.entity(named: owner)?.relationship(named: name) else {
                continue
            }
            if RelationshipSide.carriesLinks(relationship, of: owner, model: model) {
                try stage(select: [PostgresLayout.primaryKeyColumn, column.name], from: table.name, where: column.name,
                          order: [PostgresLayout.primaryKeyColumn], relationship: name, of: owner, graph: graph)
                continue
            }
            guard let inverse = model.inverse(of: relationship), inverse.isToMany,
                  let inverseOwner = model.declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity)?.name,
                  RelationshipSide.carriesLinks(inverse, of: inverseOwner, model: model) else { continue }
            let position = table.column(.position(entity: owner, relationship: name)).map { [$0.name] } ?? []
            try stage(select: [column.name, PostgresLayout.primaryKeyColumn], from: table.name, where: column.name,
                      order: [column.name] + position + [PostgresLayout.primaryKeyColumn], relationship: inverse.name, of: inverseOwner,
                      graph: graph)
        }
    }

    /// Stages the pairs of a join table, each source's destinations in order.
    func stagePairs(of join: PostgresJoinTable, into graph: StoreGraphWriter) throws(PostgresTransferError) {
        let position = join.isOrdered ? [PostgresJoinTable.positionColumn] : []
        try stage(select: [PostgresJoinTable.sourceColumn, PostgresJoinTable.destinationColumn], from: join.name, where: nil,
                  order: [PostgresJoinTable.sourceColumn] + position + [PostgresJoinTable.destinationColumn],
                  relationship: join.relationship, of: join.entity, graph: graph)
    }

    /// Stages (source, destination) rows of a query as pairs of `relationship`, numbering each
    /// source's destinations in the order the rows come.
    private func stage(select columns: [String], from table: String, where notNull: String?, order: [String],
                       relationship: String, of entity: String, graph: StoreGraphWriter) throws(PostgresTransferError) {
        let rows = try query(columns, from: table, notNull: notNull, order: order)
        var last: (source: Int64, position: Int)?
        while let row = try database({ () throws(PostgresError) in try rows.next() }) {
            let (source, destination) = try database { () throws(PostgresError) in (try row.integer(0), try row.integer(1)) }
            let position = last?.source == source ? (last?.position ?? -1) + 1 : 0
            last = (source, position)
            do {
                try graph.stageLink(to: .key(.integer(destination)), position: position, relationship: relationship,
                                    ofRecordWithKey: .integer(source), entity: entity, namespace: 0, file: "\(schema).\(table)")
            } catch {
                throw Self.restoreError(error)
            }
        }
    }

    /// `SELECT columns FROM table WHERE store = $1 [AND notNull IS NOT NULL] ORDER BY order`,
    /// order keys' NULLs first (as SQLite sorts them).
    private func query(_ columns: [String], from table: String, notNull: String? = nil, order: [String]) throws(PostgresTransferError) -> PostgresRowStream {
        let condition = PostgresIdentifier.quoted(PostgresLayout.storeColumn) + " = $1"
            + (notNull.map { " AND \(PostgresIdentifier.quoted($0)) IS NOT NULL" } ?? "")
        let sql = "SELECT \(PostgresIdentifier.list(columns)) FROM \(PostgresIdentifier.qualified(schema, table)) WHERE \(condition) "
            + "ORDER BY \(order.map { PostgresIdentifier.quoted($0) + " NULLS FIRST" }.joined(separator: ", "))"
        return try database { () throws(PostgresError) in try connection.rows(sql, [store]) }
    }

    /// The record schema of an entity and, per attribute, its position among the selected
    /// columns, its column type and the position of its exact date column (nil: the table has
    /// no column for it).
    private struct Shape {
        let schema: RecordSchema
        let fields: [(position: Int, type: PostgresColumnType, exact: Int?)?]
    }

    private func shape(of entity: String, among valueColumns: [PostgresColumn], table: PostgresEntityTable) throws(PostgresTransferError) -> Shape {
        guard table.entities.contains(entity), let recordSchema = RecordSchema(model: model, entityName: entity) else {
            throw .export(.restore(reason: "\(schema).\(table.name) holds rows of \(entity), which is not an entity of its hierarchy in \(model.name)"))
        }
        let fields = zip(recordSchema.attributes, recordSchema.declaringEntities).map { attribute, owner in
            valueColumns.firstIndex { $0.role == .attribute(entity: owner, name: attribute.name) }.map { position in
                (position, valueColumns[position].type, valueColumns.firstIndex { $0.role == .exactDate(entity: owner, name: attribute.name) })
            }
        }
        return Shape(schema: recordSchema, fields: fields)
    }

    private static func restoreError(_ error: any Error) -> PostgresTransferError {
        error as? PostgresTransferError ?? (error as? ExportError).map { .export($0) } ?? .export(.restore(reason: "\(error)"))
    }
}
