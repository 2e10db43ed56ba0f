/// The `INSERT` statements of one entity's table, one per number of rows it inserts at once
/// (`INSERT INTO t (…) VALUES (…), (…), …`), prepared on first use.
///
/// One statement per row pays SQLite's per-statement work for every row (opening the table's
/// cursor and closing it, halting, resetting): about a third of a small row's insert. A statement
/// of many rows pays it once for all of them.
struct InsertStatements {
    /// The most rows one statement inserts: 1 when rows must be inserted one at a time.
    let capacity: Int
    /// The parameters of one row.
    let parametersPerRow: Int
    private let prefix: String
    private let row: String
    private let prepare: (String) throws(StoreWriterError) -> SQLiteStatement
    private var byRows: [Int: SQLiteStatement] = [:]

    /// The most parameters a statement takes here: SQLite's smallest default limit
    /// (`SQLITE_MAX_VARIABLE_NUMBER` before 3.32), so any build accepts it.
    private static let parameterLimit = 999
    /// The most rows a statement inserts: past this, longer statements gain next to nothing.
    private static let rowLimit = 64

    /// - Parameters:
    ///   - prefix: `INSERT INTO t (columns) VALUES `.
    ///   - row: one row's `(?, …)`.
    ///   - batched: false when every row must be inserted alone (a table enforcing uniqueness
    ///     reports a duplicate per row).
    init(prefix: String, row: String, parametersPerRow: Int, batched: Bool,
         prepare: @escaping (String) throws(StoreWriterError) -> SQLiteStatement) {
        self.prefix = prefix
        self.row = row
        self.prepare = prepare
        self.parametersPerRow = parametersPerRow
        capacity = batched ? max(1, min(Self.rowLimit, Self.parameterLimit / max(1, parametersPerRow))) : 1
    }

    /// These statements with the one-row statement prepared (it checks the SQL at once).
    func prepared() throws(StoreWriterError) -> InsertStatements {
        var statements = self
        _ = try statements.inserting(rows: 1)
        return statements
    }

    /// The statement inserting `rows` rows.
    mutating func inserting(rows: Int) throws(StoreWriterError) -> SQLiteStatement {
        if let known = byRows[rows] { return known }
        let statement = try prepare(prefix + repeatElement(row, count: rows).joined(separator: ", "))
        byRows[rows] = statement
        return statement
    }
}
