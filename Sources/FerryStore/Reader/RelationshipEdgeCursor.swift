import CSQLite

/// Streams the pairs of one relationship through one prepared statement whose result columns are
/// source key, destination key, the order key for ordered relationships and, when the cursor
/// finds missing sources, 1 when the source key names no row, and when it names entities, the
/// `Z_ENT`s of the two ends' rows (`EdgeQuery.select`).
///
/// An ordered relationship's list must have one order: a member without an order key, or two
/// members of one list with the same key, is an invalid value (naming the row), not an order the
/// reader would choose for itself (`ferry verify` fails such a store too).
public final class RelationshipEdgeCursor {
    private let path: String
    private let table: String
    /// The names of the table's columns holding the keys (and the order key), for messages.
    private let columns: (source: String, destination: String, order: String?)
    private let statement: SQLiteStatement
    private let findsMissingSources: Bool
    private let namesEntities: Bool
    private var finished = false
    /// The source and order key of the last pair of an ordered relationship.
    private var last: (source: Int64, order: Int64)?

    init(database: SQLiteDatabase, table: String, sql: String, columns: (source: String, destination: String, order: String?),
         findingMissingSources: Bool = false, namingEntities: Bool = false) throws(StoreReaderError) {
        path = database.path
        self.table = table
        self.columns = columns
        findsMissingSources = findingMissingSources
        namesEntities = namingEntities
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
        let source = try key(0, columns.source, row: 0)
        let destination = try key(1, columns.destination, row: source)
        let flag: Int32 = columns.order == nil ? 2 : 3
        let isMissing = findsMissingSources && statement.int64(at: flag) != 0
        var edge = RelationshipEdge(source: source, destination: destination, order: nil, sourceIsMissing: isMissing)
        if namesEntities {
            let first = findsMissingSources ? flag + 1 : flag
            edge.sourceEntity = statement.isNull(at: first) ? nil : statement.int64(at: first)
            edge.destinationEntity = statement.isNull(at: first + 1) ? nil : statement.int64(at: first + 1)
        }
        guard let orderColumn = columns.order else { return edge }
        guard !statement.isNull(at: 2) else {
            throw .invalidValue(path: path, table: table, primaryKey: destination, column: orderColumn,
                                reason: "no order key in the ordered list of \(source): the list's order is not known")
        }
        let order = try key(2, orderColumn, row: source)
        // Pairs come by source, then order key: a repeated key follows its twin.
        if let last, last.source == source, last.order == order {
            throw .invalidValue(path: path, table: table, primaryKey: destination, column: orderColumn,
                                reason: "order key \(order) appears twice in the ordered list of \(source): the list's order is not known")
        }
        last = (source, order)
        edge.order = order
        return edge
    }

    /// Where the store keeps a pair's source key, for naming one that points nowhere:
    /// `table ZITEM, row 4, column ZOWNER` (a key on the destination's row), or
    /// `table Z_1LABELS, column Z_3LABELS beside Z_1ITEMS 4` (a join table).
    public func placeOfSource(of edge: RelationshipEdge) -> String {
        columns.destination == "Z_PK"
            ? "table \(table), row \(edge.destination), column \(columns.source)"
            : "table \(table), column \(columns.source) beside \(columns.destination) \(edge.destination)"
    }

    /// An integer key in result column `index`, from the table's `column`; `row` is the source key
    /// for errors (0 when the source itself is bad).
    private func key(_ index: Int32, _ column: String, row: Int64) throws(StoreReaderError) -> Int64 {
        guard statement.storageClass(at: index) == .integer else {
            throw .invalidValue(path: path, table: table, primaryKey: row, column: column, reason: "the key is not an integer")
        }
        return statement.int64(at: index)
    }
}
