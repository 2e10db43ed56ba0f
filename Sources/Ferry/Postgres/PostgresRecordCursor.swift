import FerryMigration
import FerryModel
import FerryPostgres

/// The rows one store left in a PostgreSQL schema as a pipeline source, for `ferry restore
/// postgresql://…`: the records of each root entity's table in `Z_PK` order, each with its key as
/// `row` so that it keeps it and its to-one keys as links (`PostgresRowShape`); then the pairs
/// kept apart from those rows, each source's destinations in order (`PostgresPairQuery`). Rows
/// stream one at a time on a connection inside the transaction the restore reads in (the
/// caller's), which runs nothing else until the cursor is read.
///
/// The store's rows per entity and pairs per relationship are counted in the database with SQL
/// when the cursor opens (`databaseCounts`); `finish` compares the records the pipeline read and
/// the pairs the cursor delivered with them. Values no record would carry (a sub-entity's column
/// on another entity's row, an order position on a row without its to-one) refuse the cursor
/// before anything is read (`PostgresStrandedValues`).
final class PostgresRecordCursor: RecordCursor {
    let path: String
    let version = 0
    var total: Int? { Int(databaseCounts.rows) }
    /// Each to-one has a column of its own in the row's table, both sides of a one-to-one included.
    let keepsOneToOneSides = true
    let bringsNewObjects = false
    /// The store's rows per entity and pairs per relationship in the database, counted with SQL.
    let databaseCounts: TransferCounts
    private let connection: PostgresConnection
    private let schema: String
    private let store: String
    private let model: ManagedObjectModel
    /// The tables and pair queries still to read, last first.
    private var tables: [PostgresEntityTable]
    private var pairQueries: [PostgresPairQuery]
    private var records: TableRecords?
    private var pairs: PairRows?
    /// Pairs delivered, by relationship (`TransferCounts.relationships`' names).
    private var delivered: [String: Int64] = [:]

    /// Opens the rows of `store` (its UUID) in `schema`, laid out by `layout` for `model`;
    /// `path` names the source in ledgers and messages.
    init(connection: PostgresConnection, schema: String, store: String, model: ManagedObjectModel, layout: PostgresLayout,
         path: String) throws(PostgresTransferError) {
        self.connection = connection
        self.schema = schema
        self.store = store
        self.model = model
        self.path = path
        databaseCounts = try database { () throws(PostgresError) in
            try TransferCounts.database(store: store, layout: layout, schema: schema, connection: connection)
        }
        for table in layout.entityTables {
            try PostgresStrandedValues.refuse(in: table, store: store, schema: schema, model: model, connection: connection)
        }
        tables = layout.entityTables.reversed()
        pairQueries = PostgresPairQuery.all(in: layout, model: model).reversed()
    }

    func next() throws(PipelineError) -> SourceItem? {
        do throws(PostgresTransferError) {
            while true {
                if let records {
                    if let item = try records.next() { return item }
                    for (column, count) in zip(records.selected, records.pairs) {
                        if case .toOne(let owner, let name) = column.role { delivered[owner + "." + name, default: 0] += count }
                    }
                    self.records = nil
                } else if let table = tables.popLast() {
                    records = try TableRecords(table, cursor: self)
                } else if let pairs {
                    if let link = try pairs.next() {
                        delivered[pairs.query.counted, default: 0] += 1
                        return .link(link)
                    }
                    self.pairs = nil
                } else if let query = pairQueries.popLast() {
                    pairs = PairRows(query, rows: try rows([query.source, query.destination] + (query.position.map { [$0] } ?? []),
                                                           from: query.table, notNull: query.notNull, order: query.order))
                } else {
                    return nil
                }
            }
        } catch {
            throw .sourceFailure(error)
        }
    }

    /// Compares the records the pipeline read, per entity, and the pairs delivered, per
    /// relationship, with the database's counts.
    func finish(read: [String: Int], stopped: Bool) throws(PipelineError) -> SourceEnd {
        guard !stopped else { return SourceEnd() }
        let taken = TransferCounts(entities: read.mapValues(Int64.init), relationships: delivered)
        let problems = taken.differences(from: databaseCounts, mine: "read", theirs: "database")
        guard problems.isEmpty else { throw .notAccounted(source: path, problems: problems) }
        return SourceEnd()
    }

    /// `SELECT columns FROM table WHERE store = $1 [AND notNull IS NOT NULL] ORDER BY order`,
    /// order keys' NULLs first (as SQLite sorts them).
    private func rows(_ columns: [String], from table: String, notNull: String? = nil,
                      order: [String]) throws(PostgresTransferError) -> PostgresRowStream {
        let condition = PostgresIdentifier.quoted(PostgresLayout.storeColumn) + " = $1"
            + (notNull.map { " AND \(PostgresIdentifier.quoted($0)) IS NOT NULL" } ?? "")
        let sql = "SELECT \(PostgresIdentifier.list(columns)) FROM \(PostgresIdentifier.qualified(schema, table)) WHERE \(condition) "
            + "ORDER BY \(order.map { PostgresIdentifier.quoted($0) + " NULLS FIRST" }.joined(separator: ", "))"
        return try database { () throws(PostgresError) in try connection.rows(sql, [store]) }
    }

    /// The records of one entity table, in `Z_PK` order: its key, its entity, its attribute
    /// columns and the to-one keys read with the row.
    private final class TableRecords {
        let selected: [PostgresColumn]
        /// Links delivered, by selected column.
        private(set) var pairs: [Int64]
        private let table: PostgresEntityTable
        private let rows: PostgresRowStream
        private let model: ManagedObjectModel
        private let location: SourceLocation
        private var shapes: [String: PostgresRowShape] = [:]

        init(_ table: PostgresEntityTable, cursor: PostgresRecordCursor) throws(PostgresTransferError) {
            let model = cursor.model
            // The key and the entity come first in a table's columns, so they are fields 0 and 1.
            selected = table.columns.filter { column in
                switch column.role {
                case .primaryKey, .entity, .attribute, .exactDate: true
                case let .toOne(owner, name):
                    model.entity(named: owner)?.relationship(named: name).map { !PostgresPairQuery.isReadApart($0, model: model) } ?? false
                case .store, .position: false
                }
            }
            pairs = Array(repeating: 0, count: selected.count)
            self.table = table
            self.model = model
            location = SourceLocation(file: "\(cursor.schema).\(table.name)")
            rows = try cursor.rows(selected.map(\.name), from: table.name, order: [PostgresLayout.primaryKeyColumn])
        }

        func next() throws(PostgresTransferError) -> SourceItem? {
            guard let row = try database({ () throws(PostgresError) in try rows.next() }) else { return nil }
            let (key, entity) = try database { () throws(PostgresError) in (try row.integer(0), try row.text(1)) }
            let shape: PostgresRowShape
            if let known = shapes[entity] {
                shape = known
            } else {
                shape = try PostgresRowShape(entity: entity, table: table, selected: selected, model: model, origin: location.file)
                shapes[entity] = shape
            }
            let record = try database { () throws(PostgresError) in try shape.record(of: row, key: key, location: location, pairs: &pairs) }
            return .record(record, entity: entity, defaulted: false, row: key)
        }
    }

    /// The pairs of one query as links of its relationship, each source's destinations numbered
    /// in the order the rows come. An ordered relationship's member without a position, or two
    /// of one source's at one position, leave the list's order unknown: the restore refuses it
    /// rather than make one up (as every verb reading a store refuses such order keys).
    private final class PairRows {
        let query: PostgresPairQuery
        private let rows: PostgresRowStream
        private var last: (source: Int64, position: Int, stored: Int64?)?

        init(_ query: PostgresPairQuery, rows: PostgresRowStream) {
            self.query = query
            self.rows = rows
        }

        func next() throws(PostgresTransferError) -> SeparateLink? {
            guard let row = try database({ () throws(PostgresError) in try rows.next() }) else { return nil }
            let (source, destination) = try database { () throws(PostgresError) in (try row.integer(0), try row.integer(1)) }
            var stored: Int64?
            if query.position != nil {
                guard !row.isNull(2) else { throw unknownOrder(source, "member \(destination) has no position") }
                stored = try database { () throws(PostgresError) in try row.integer(2) }
                if let last, last.source == source, last.stored == stored {
                    throw unknownOrder(source, "two members share position \(stored ?? 0)")
                }
            }
            let position = last?.source == source ? (last?.position ?? -1) + 1 : 0
            last = (source, position, stored)
            return SeparateLink(entity: query.entity, relationship: query.relationship, source: .integer(source),
                                target: .integer(destination), position: position)
        }

        private func unknownOrder(_ source: Int64, _ reason: String) -> PostgresTransferError {
            .invalidValue(entity: query.entity, primaryKey: source, attribute: query.relationship,
                          reason: "\(reason) in the ordered list, so its order is not known")
        }
    }
}
