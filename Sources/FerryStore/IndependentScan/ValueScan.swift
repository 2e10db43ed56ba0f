import FerryFormats

/// Questions about the values of an entity table asked with plain SQL: how many rows break each
/// of a list of `ColumnCondition`s (one pass, rows classified here), sample rows of one, and
/// values of a uniqueness constraint that several rows share.
public struct ValueScan {
    let connection: ScanConnection

    public init(_ connection: ScanConnection) {
        self.connection = connection
    }

    /// A table's rows, its rows per entity number asked for, and the rows breaking each condition.
    public struct Counts: Sendable {
        public let rows: Int64
        public let rowsByEntity: [Int: Int64]
        public let violations: [Int64]

        /// The counts of these rows and `other`'s together.
        func adding(_ other: Counts) -> Counts {
            Counts(rows: rows + other.rows, rowsByEntity: rowsByEntity.merging(other.rowsByEntity, uniquingKeysWith: +),
                   violations: zip(violations, other.violations).map { $0 + $1 })
        }
    }

    /// The table's rows classified one by one (`ConditionCount`), counted per entity for each of
    /// `numbers`.
    ///
    /// When the file holds every page the connection reads (`SQLiteDatabase.pagesFile`), the
    /// rows are read from the table's b-tree pages in the file (`TableFileScan`): a reader that
    /// shares no code with SQLite, at a fraction of its cost (it decodes only the record headers
    /// and the integers asked about). A table or file it does not take is counted by SQLite:
    /// `SELECT Z_ENT, <condition columns> FROM table`, the raw columns classified here (a fraction
    /// of the cost of `sum(CASE typeof(…) …)` in SQL). A large table is then counted in two
    /// halves of its keys at once, the upper half on a second connection on a worker thread, when
    /// that connection reads exactly the same bytes (`SQLiteDatabase.sameBytes`). The verifier's
    /// other work (SQLite's integrity check) runs beside either.
    public func count(_ table: String, numbers: [Int], conditions: [ColumnCondition]) throws(SQLiteError) -> Counts {
        let count = ConditionCount(table: table, numbers: numbers, conditions: conditions)
        let database = connection.database
        if let counts = countFromFile(count) { return counts }
        guard let reopening = database.sameBytes, let split = try splitKey(of: table) else {
            return try count.run(on: database, keys: nil)
        }
        let upper = BackgroundWork { () -> Result<Counts, SQLiteError> in
            Result { () throws(SQLiteError) in
                let second = try SQLiteDatabase(reopening: reopening)
                defer { try? second.close() }
                return try count.run(on: second, keys: .above(split))
            }
        }
        let lower = Result { () throws(SQLiteError) in try count.run(on: database, keys: .upTo(split)) }
        // Waits for the worker whatever happened here, so it never outlives the scan.
        let upperCounts = Result { () throws(SQLiteError) in try upper.wait() }
        return try lower.get().adding(try upperCounts.get())
    }

    /// The counts read from the database file's pages, or nil when the file does not hold every
    /// page or the reader refuses the table.
    func countFromFile(_ count: ConditionCount) -> Counts? {
        guard let path = connection.database.pagesFile else { return nil }
        return try? count.run(reading: DatabaseFile(path: path), of: connection.database)
    }

    /// Tables with fewer keys than this are counted in one pass.
    private static let splitSize: Int64 = 40_000

    /// The middle of a table's keys, when it has enough of them to count in two halves.
    private func splitKey(of table: String) throws(SQLiteError) -> Int64? {
        // Each bound in a query of its own: SQLite reads min() or max() of a key from one end of
        // the b-tree only when the query asks for that one aggregate (both at once scan the table).
        let quoted = SQLIdentifier.quoted(table)
        let bounds = try connection.integers("SELECT (SELECT min(Z_PK) FROM \(quoted)), (SELECT max(Z_PK) FROM \(quoted))")
        guard bounds.count == 2, bounds[1] - bounds[0] >= Self.splitSize else { return nil }
        return bounds[0] + (bounds[1] - bounds[0]) / 2
    }

    /// The first rows of `table` breaking `condition`, with their value.
    public func samples(of condition: ColumnCondition, in table: String) throws(SQLiteError) -> [FailureSample] {
        try connection.offending("""
            SELECT p.Z_PK, \(ScanSQL.column("p", condition.column)) AS \(SQLIdentifier.quoted(condition.column)) \
            FROM \(SQLIdentifier.quoted(table)) p WHERE \(condition.violation) LIMIT \(connection.sampleLimit)
            """).samples
    }

    /// The values of `columns` (none NULL) that several rows of `table` with one of `numbers`
    /// share, each with its lowest `Z_PK` and how many rows have it.
    public func sharedValues(of columns: [String], in table: String, numbers: [Int]) throws(SQLiteError) -> OffendingRows {
        let values = columns.map { ScanSQL.column("p", $0) }
        let selected = zip(values, columns).map { "\($0) AS \(SQLIdentifier.quoted($1))" }.joined(separator: ", ")
        return try connection.offending("""
            SELECT min(p.Z_PK), \(selected), count(*) AS rows FROM \(SQLIdentifier.quoted(table)) p NOT INDEXED \
            WHERE p.Z_ENT IN (\(ScanSQL.numbers(numbers))) \
            AND \(values.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")) \
            GROUP BY \(values.joined(separator: ", ")) HAVING count(*) > 1
            """)
    }
}
