import CSQLite
import FerryModel

/// Inserts rows of one concrete entity through one prepared statement.
///
/// Each row gets the next `Z_PK` of its root entity's hierarchy (sub-entities share the root's
/// counter), its entity's `Z_ENT` (a constant of the statement) and `Z_OPT` 1, or the identity it
/// had in the store it was migrated from (`ObjectIdentity`). Rows are committed in batches by the
/// writer.
public final class EntityInserter {
    public let entityName: String
    /// The entity's `Z_ENT`.
    public let entityNumber: Int64
    /// The columns `insert` takes values for, in order: the entity's own and inherited attribute
    /// and relationship columns (everything but `Z_PK`, `Z_ENT`, `Z_OPT`).
    public let columns: [ColumnLayout]

    private let writer: CoreDataStoreWriter
    private let primaryKeys: PrimaryKeyCounter
    /// The entity's rows staged for a multi-row insert (each takes its `Z_PK` and `Z_OPT`, then
    /// `columns`, as parameters); the writer's, shared with the entity's other inserters.
    private let batch: RowBatch
    /// The table of the entity's root, which `replace` updates.
    private let table: String
    /// `replace`'s statement, with the sources it was made for and the columns it sets.
    private var update: (statement: SQLiteStatement, sources: [Int?], columns: [Int])?
    /// For each of `columns`, whether it holds an attribute that allows external binary storage
    /// (its binary values are written with Core Data's inline tag).
    private let tagged: [Bool]

    init(writer: CoreDataStoreWriter, entityName: String, entityNumber: Int64, table: String, primaryKeys: PrimaryKeyCounter,
         columns: [ColumnLayout], tagged: [Bool], batch: RowBatch) {
        self.writer = writer
        self.table = table
        self.tagged = tagged
        self.entityName = entityName
        self.entityNumber = entityNumber
        self.primaryKeys = primaryKeys
        self.columns = columns
        self.batch = batch
    }

    /// The position of a column in `columns`.
    public func columnIndex(named name: String) -> Int? { columns.firstIndex { $0.name == name } }

    /// The position of the column of an attribute or relationship (declared or inherited).
    public func columnIndex(for role: ColumnRole) -> Int? { columns.firstIndex { $0.role == role } }

    /// Inserts one row and returns its `Z_PK`. `values` follow `columns`.
    ///
    /// The row may wait for the next rows and be inserted with them (`flush()`); the writer
    /// inserts it before anything reads the tables or commits.
    @discardableResult
    public func insert(_ values: [StoreValue]) throws(StoreWriterError) -> Int64 {
        guard values.count == columns.count else {
            throw .valueCount(entity: entityName, expected: columns.count, got: values.count)
        }
        return try insertRow(StoreValueRow(values: values), identity: nil)
    }

    /// Inserts one row of attribute values and returns its `Z_PK`: column `i` of `columns` takes
    /// `values[sources[i]]` in its storage form (`StoreValue(_:externallyStorable:)`), NULL where
    /// `sources[i]` is nil. Saves making a `[StoreValue]` per row.
    /// With `identity`, the row keeps the `Z_PK` and `Z_OPT` it had, unless that key is taken;
    /// then it gets the next key, as without. The row may wait for the next rows, as above.
    @discardableResult
    public func insert(_ values: [AttributeValue], sources: [Int?], identity: ObjectIdentity? = nil) throws(StoreWriterError) -> Int64 {
        guard sources.count == columns.count else {
            throw .valueCount(entity: entityName, expected: columns.count, got: sources.count)
        }
        return try values.withUnsafeBufferPointer { values throws(StoreWriterError) in
            try sources.withUnsafeBufferPointer { sources throws(StoreWriterError) in
                try tagged.withUnsafeBufferPointer { tagged throws(StoreWriterError) in
                    try insertRow(AttributeValueRow(values: values, sources: sources, tagged: tagged), identity: identity)
                }
            }
        }
    }

    /// Replaces the values of the existing row `primaryKey` in the columns whose `sources[i]` is
    /// not nil with `values[sources[i]]` in their storage form; the other columns, `Z_ENT` and
    /// `Z_OPT` stay (a row the store held is raised once by `StoredObjectVersions`).
    public func replace(_ primaryKey: Int64, with values: [AttributeValue], sources: [Int?]) throws(StoreWriterError) {
        guard sources.count == columns.count else {
            throw .valueCount(entity: entityName, expected: columns.count, got: sources.count)
        }
        try writer.flushPendingRows()
        let statement: SQLiteStatement, set: [Int]
        if let update, update.sources == sources {
            (statement, set) = (update.statement, update.columns)
        } else {
            set = columns.indices.filter { sources[$0] != nil }
            let assignments = set.map { "\(columns[$0].name) = ?" }.joined(separator: ", ")
            statement = try writer.prepareStatement("UPDATE \(table) SET \(assignments) WHERE Z_PK = ?")
            update = (statement, sources, set)
        }
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            for (position, column) in set.enumerated() {
                guard let source = sources[column] else { continue }
                try statement.bind(StoreValue(values[source], externallyStorable: tagged[column]), at: Int32(position + 1))
            }
            try statement.bind(primaryKey, at: Int32(set.count + 1))
            try statement.run()
        }
    }

    /// Stages a row and inserts the staged rows once they fill a statement. A row
    /// keeping its identity is staged with the others when no key up to its own has been handed
    /// out (so none can be taken); otherwise it is inserted alone, after the staged rows, and
    /// takes the next key if its own is taken. A row that fails takes no key.
    ///
    /// Inlined into each `insert` (one call less per row).
    @inline(__always)
    private func insertRow<Row: StagedRow>(_ row: Row, identity: ObjectIdentity?) throws(StoreWriterError) -> Int64 {
        try writer.beginRow()
        let primaryKey: Int64
        var version: Int64 = 1
        if let identity, identity.primaryKey > 0 {
            guard identity.primaryKey > primaryKeys.last else { return try insertAlone(row, identity: identity) }
            (primaryKey, version) = (identity.primaryKey, identity.version)
        } else {
            primaryKey = try primaryKeys.next()
        }
        writer.holdsPendingRows(batch)
        try batch.stage(row, primaryKey: primaryKey, version: version, rows: batch.capacity)
        if batch.isFull { try batch.flush() }
        primaryKeys.advance(to: primaryKey)
        try writer.rowWritten()
        return primaryKey
    }

    /// Inserts a row that keeps its identity at once, after every staged row of the store.
    private func insertAlone<Row: StagedRow>(_ row: Row, identity: ObjectIdentity) throws(StoreWriterError) -> Int64 {
        try writer.flushPendingRows()
        do {
            try batch.stage(row, primaryKey: identity.primaryKey, version: identity.version, rows: 1)
            try batch.flush()
            try writer.rowWritten()
            return identity.primaryKey
        } catch let .sqlite(failure) where failure.extendedCode == Self.primaryKeyTaken {
            // Another row has the key (two sources' objects, a merged hierarchy): a new one.
            writer.noteRenumbered(entityName)
        }
        let primaryKey = try primaryKeys.next()
        try batch.stage(row, primaryKey: primaryKey, version: 1, rows: 1)
        try batch.flush()
        primaryKeys.advance(to: primaryKey)
        try writer.rowWritten()
        return primaryKey
    }

    /// `SQLITE_CONSTRAINT_PRIMARYKEY`.
    private static let primaryKeyTaken: Int32 = 1555
}
