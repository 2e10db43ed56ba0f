import FerryModel

/// Inserts rows of one concrete entity through one prepared statement.
///
/// Each row gets the next `Z_PK` of its root entity's hierarchy (sub-entities share the root's
/// counter), its entity's `Z_ENT` and `Z_OPT` 1 (both constants of the statement). Rows are
/// committed in batches by the writer.
public final class EntityInserter {
    public let entityName: String
    /// The entity's `Z_ENT`.
    public let entityNumber: Int64
    /// The columns `insert` takes values for, in order: the entity's own and inherited attribute
    /// and relationship columns (everything but `Z_PK`, `Z_ENT`, `Z_OPT`).
    public let columns: [ColumnLayout]

    private let writer: CoreDataStoreWriter
    private let primaryKeys: PrimaryKeyCounter
    /// Takes `Z_PK` as parameter 1, then `columns`.
    private let statement: SQLiteStatement
    private let binding = StaticRowBinding()
    /// For each of `columns`, whether it holds an attribute that allows external binary storage
    /// (its binary values are written with Core Data's inline tag).
    private let tagged: [Bool]

    init(writer: CoreDataStoreWriter, entityName: String, entityNumber: Int64, primaryKeys: PrimaryKeyCounter,
         columns: [ColumnLayout], tagged: [Bool], statement: SQLiteStatement) {
        self.writer = writer
        self.tagged = tagged
        self.entityName = entityName
        self.entityNumber = entityNumber
        self.primaryKeys = primaryKeys
        self.columns = columns
        self.statement = statement
    }

    /// The position of a column in `columns`.
    public func columnIndex(named name: String) -> Int? { columns.firstIndex { $0.name == name } }

    /// The position of the column of an attribute or relationship (declared or inherited).
    public func columnIndex(for role: ColumnRole) -> Int? { columns.firstIndex { $0.role == role } }

    /// Inserts one row and returns its `Z_PK`. `values` follow `columns`.
    @discardableResult
    public func insert(_ values: [StoreValue]) throws(StoreWriterError) -> Int64 {
        guard values.count == columns.count else {
            throw .valueCount(entity: entityName, expected: columns.count, got: values.count)
        }
        return try insertRow { binding.bind(values, from: 2, to: $0) }
    }

    /// Inserts one row of attribute values and returns its `Z_PK`: column `i` of `columns` takes
    /// `values[sources[i]]` in its storage form (`StoreValue(_:externallyStorable:)`), NULL where
    /// `sources[i]` is nil. Saves making a `[StoreValue]` per row.
    @discardableResult
    public func insert(_ values: [AttributeValue], sources: [Int?]) throws(StoreWriterError) -> Int64 {
        guard sources.count == columns.count else {
            throw .valueCount(entity: entityName, expected: columns.count, got: sources.count)
        }
        return try insertRow { binding.bind(values, sources: sources, tagged: tagged, from: 2, to: $0) }
    }

    /// Binds the next `Z_PK` and, through `bindValues` (given the statement, returning SQLite's
    /// status), the values from parameter 2 on, then runs the insert.
    private func insertRow(_ bindValues: (OpaquePointer) -> Int32) throws(StoreWriterError) -> Int64 {
        try writer.beginRow()
        let primaryKey = primaryKeys.next
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(primaryKey, at: 1)
            try statement.check(bindValues(try statement.live()))
            try statement.run()
        }
        primaryKeys.advance(to: primaryKey)
        try writer.rowWritten()
        return primaryKey
    }
}
