import CSQLite

/// Streams the pairs of one relationship through one prepared statement whose result columns
/// are source key, destination key and, for ordered relationships, the order key.
public final class RelationshipEdgeCursor {
    private let path: String
    private let table: String
    private let statement: SQLiteStatement
    private let isOrdered: Bool
    private var finished = false

    init(database: SQLiteDatabase, table: String, sql: String, isOrdered: Bool) throws(StoreReaderError) {
        path = database.path
        self.table = table
        self.isOrdered = isOrdered
        statement = try StoreReaderError.sqlite { () throws(SQLiteError) in try database.prepare(sql) }
    }

    /// The next edge, or nil after the last one.
    public func next() throws(StoreReaderError) -> RelationshipEdge? {
        guard !finished else { return nil }
        let hasRow: Bool
        do { hasRow = try statement.step() } catch {
            finished = true
            statement.finalize()
            throw StoreReaderError(error)
        }
        guard hasRow else {
            finished = true
            statement.finalize()
            return nil
        }
        let source = try key(0, row: 0)
        let destination = try key(1, row: source)
        let order = isOrdered && !statement.isNull(at: 2) ? try key(2, row: source) : nil
        return RelationshipEdge(source: source, destination: destination, order: order)
    }

    /// An integer key; `row` is the source key for errors (0 when the source itself is bad).
    private func key(_ index: Int32, row: Int64) throws(StoreReaderError) -> Int64 {
        guard statement.storageClass(at: index) == .integer else {
            throw .invalidValue(path: path, table: table, primaryKey: row,
                                column: statement.columnName(at: index) ?? "\(index)", reason: "the key is not an integer")
        }
        return statement.int64(at: index)
    }
}
