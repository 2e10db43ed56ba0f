import CSQLite

/// Streams the pairs of one relationship through one prepared statement whose result columns
/// are source key, destination key and, for ordered relationships, the order key.
///
/// An ordered relationship's list must have one order: a member without an order key, or two
/// members of one list with the same key, is an invalid value (naming the row), not an order the
/// reader would choose for itself (`ferry verify` fails such a store too).
public final class RelationshipEdgeCursor {
    private let path: String
    private let table: String
    private let statement: SQLiteStatement
    private let isOrdered: Bool
    private var finished = false
    /// The source and order key of the last pair of an ordered relationship.
    private var last: (source: Int64, order: Int64)?

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
        guard isOrdered else { return RelationshipEdge(source: source, destination: destination, order: nil) }
        let column = statement.columnName(at: 2) ?? "2"
        guard !statement.isNull(at: 2) else {
            throw .invalidValue(path: path, table: table, primaryKey: destination, column: column,
                                reason: "no order key in the ordered list of \(source): the list's order is not known")
        }
        let order = try key(2, row: source)
        // Pairs come by source, then order key: a repeated key follows its twin.
        if let last, last.source == source, last.order == order {
            throw .invalidValue(path: path, table: table, primaryKey: destination, column: column,
                                reason: "order key \(order) appears twice in the ordered list of \(source): the list's order is not known")
        }
        last = (source, order)
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
