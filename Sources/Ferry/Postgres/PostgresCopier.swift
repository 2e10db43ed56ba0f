import FerryModel
import FerryPostgres
import FerryStore
import FoundationEssentials

/// Streams one store's rows into a layout's tables with `COPY … FROM STDIN (FORMAT binary)`:
/// an entity table from the reader's record cursor of its root (`Z_PK` order), a join table
/// from the reader's pairs of its relationship. Nothing is held in memory but the COPY buffer.
final class PostgresCopier {
    private let connection: PostgresConnection
    private let schema: String
    private let storeUUID: [UInt8]
    private let reader: StoreRecordReader
    /// Dates finer than a microsecond so far, kept in their `_exact` columns.
    private(set) var exactDates = 0

    init(connection: PostgresConnection, schema: String, storeUUID: UUID, reader: StoreRecordReader) {
        self.connection = connection
        self.schema = schema
        self.storeUUID = withUnsafeBytes(of: storeUUID.uuid) { Array($0) }
        self.reader = reader
    }

    /// Copies the rows of an entity table's hierarchy; adds the rows and to-one pairs sent to `counts`.
    /// A hierarchy without rows sends no COPY (two round trips per empty table and store saved).
    func copy(_ table: PostgresEntityTable, counts: inout TransferCounts) throws(PostgresTransferError) {
        let cursor: StoredRecordCursor
        let first: StoredRecordCursor.Row?
        do {
            cursor = try reader.records(of: table.root)
            first = try cursor.advance()
        } catch { throw .export(.store(error)) }
        guard var row = first else { return }
        let copy = try start(table.name, columns: table.columns.map(\.name))
        var plans: [String: [Field]] = [:]
        // The plan and row count of the entity of the last rows: rows come in Z_PK order, mostly
        // many of one entity in a row, so no name is hashed per row. Pairs are counted per column.
        var last: (entity: String, fields: [Field], rows: Int64)?
        var pairs = [Int64](repeating: 0, count: table.columns.count)
        let columns = table.columns
        do {
            while true {
                if last?.entity != row.entity {
                    if let last { counts.entities[last.entity, default: 0] += last.rows }
                    let fields = plans[row.entity] ?? plan(table, entity: row.entity, cursor: cursor)
                    plans[row.entity] = fields
                    last = (row.entity, fields, 0)
                }
                guard let fields = last?.fields else { continue }
                try database { () throws(PostgresError) in try copy.startRow(fieldCount: fields.count) }
                for (index, field) in fields.enumerated() {
                    try write(field, column: index, of: columns, row: row, cursor: cursor, to: copy, pairs: &pairs)
                }
                last?.rows += 1
                guard let next = try cursor.advance() else { break }
                row = next
            }
            if let last { counts.entities[last.entity, default: 0] += last.rows }
        } catch {
            copy.abort("the rows could not be sent")
            throw Self.transferError(error)
        }
        for (column, sent) in zip(columns, pairs) where sent > 0 {
            if case .toOne(let owner, let relationship) = column.role { counts.relationships[owner + "." + relationship, default: 0] += sent }
        }
        _ = try database { () throws(PostgresError) in try copy.finish() }
    }

    /// Copies the pairs of a join table's relationship; adds them to `counts`. A relationship
    /// without pairs sends no COPY.
    func copy(_ join: PostgresJoinTable, counts: inout TransferCounts) throws(PostgresTransferError) {
        let pairs: RelationshipEdgeCursor
        let first: RelationshipEdge?
        do {
            pairs = try reader.edges(of: join.relationship, of: join.entity)
            first = try pairs.next()
        } catch { throw .export(.store(error)) }
        var sent: Int64 = 0
        // Counted as sent even when there is none: every join table has its count.
        defer { counts.relationships[join.entity + "." + join.relationship, default: 0] += sent }
        guard var pair = first else { return }
        let copy = try start(join.name, columns: join.columns.map(\.name))
        do {
            while true {
                try copy.startRow(fieldCount: join.columns.count)
                copy.append(bytes: storeUUID)
                copy.append(int64: pair.source)
                copy.append(int64: pair.destination)
                if join.isOrdered {
                    if let order = pair.order { copy.append(int64: order) } else { copy.appendNull() }
                }
                sent += 1
                guard let next = try pairs.next() else { break }
                pair = next
            }
        } catch {
            copy.abort("the pairs could not be sent")
            throw Self.transferError(error)
        }
        _ = try database { () throws(PostgresError) in try copy.finish() }
    }

    // MARK: Rows of an entity table

    /// Where a column's field comes from for rows of one concrete entity.
    private enum Field {
        case store, primaryKey, entity, null
        /// The cursor's attribute at this position.
        case attribute(Int)
        /// The cursor's to-one relationship at this position: its key, or its order key.
        case toOne(Int), position(Int)
        /// The cursor's date attribute at this position, when it is finer than a microsecond.
        case exactDate(Int)
    }

    private func plan(_ table: PostgresEntityTable, entity: String, cursor: StoredRecordCursor) -> [Field] {
        let model = reader.model
        let owners = Set(model.ancestry(of: entity).map(\.name))
        let attributes = cursor.attributeNames(of: entity) ?? []
        let toOne = cursor.toOneNames(of: entity) ?? []
        return table.columns.map { column in
            switch column.role {
            case .store: .store
            case .primaryKey: .primaryKey
            case .entity: .entity
            case let .attribute(owner, name) where owners.contains(owner): attributes.firstIndex(of: name).map(Field.attribute) ?? .null
            case let .toOne(owner, name) where owners.contains(owner): toOne.firstIndex(of: name).map(Field.toOne) ?? .null
            case let .position(owner, name) where owners.contains(owner): toOne.firstIndex(of: name).map(Field.position) ?? .null
            case let .exactDate(owner, name) where owners.contains(owner): attributes.firstIndex(of: name).map(Field.exactDate) ?? .null
            default: .null
            }
        }
    }

    /// Writes the field of `columns[column]` for the current row; a to-one sent adds one to
    /// `pairs[column]`.
    private func write(_ field: Field, column: Int, of columns: [PostgresColumn], row: StoredRecordCursor.Row, cursor: StoredRecordCursor,
                       to copy: CopyInWriter, pairs: inout [Int64]) throws {
        switch field {
        case .store: copy.append(bytes: storeUUID)
        case .primaryKey:
            // Core Data hands out keys from 1: a restore could not bring such a row back (it
            // needs the records in Z_PK order from 1).
            guard row.primaryKey > 0 else {
                throw PostgresTransferError.invalidValue(entity: row.entity, primaryKey: row.primaryKey, attribute: "Z_PK",
                                                         reason: "a key below 1, which Core Data never gives, so a restore could not bring it back")
            }
            copy.append(int64: row.primaryKey)
        case .entity: copy.append(text: row.entity)
        case .null: copy.appendNull()
        case .attribute(let position):
            let type = columns[column].type
            // As the store holds it where that is the value exactly: no String or array per value.
            var written = false
            cursor.withPlainValue(at: position) { plain in
                if let plain { written = PostgresValues.write(plain, as: type, to: copy) }
            }
            if written { return }
            if let reason = PostgresValues.write(try cursor.value(at: position), as: type, to: copy) {
                throw PostgresTransferError.invalidValue(entity: row.entity, primaryKey: row.primaryKey, attribute: columns[column].name, reason: reason)
            }
        case .toOne(let position):
            if let reference = try cursor.reference(at: position) {
                copy.append(int64: reference.primaryKey)
                pairs[column] += 1
            } else {
                copy.appendNull()
            }
        case .position(let position):
            if let order = try cursor.reference(at: position)?.orderKey { copy.append(int64: order) } else { copy.appendNull() }
        case .exactDate(let position):
            guard case .date(let seconds) = try cursor.value(at: position), !PostgresValues.isMicrosecondExact(seconds) else {
                return copy.appendNull()
            }
            copy.append(float64: seconds)
            exactDates += 1
        }
    }

    /// An error of reading the store, writing a value or sending it, as a transfer error.
    private static func transferError(_ error: any Error) -> PostgresTransferError {
        switch error {
        case let error as PostgresTransferError: error
        case let error as StoreReaderError: .export(.store(error))
        case let error as PostgresError: .database(error)
        default: .database(.protocolFailure(reason: "\(error)"))
        }
    }

    private func start(_ table: String, columns: [String]) throws(PostgresTransferError) -> CopyInWriter {
        try database { () throws(PostgresError) in
            try connection.copyIn("COPY \(PostgresIdentifier.qualified(schema, table)) (\(PostgresIdentifier.list(columns))) FROM STDIN (FORMAT binary)")
        }
    }
}
