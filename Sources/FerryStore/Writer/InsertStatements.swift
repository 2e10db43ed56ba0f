/// The `INSERT` statements of one entity's table, one per number of rows it inserts at once
/// (`INSERT INTO t (…) VALUES (…), (…), …`), prepared on first use.
///
/// One statement per row pays SQLite's per-statement work for every row (opening the table's
/// cursor and closing it, halting, resetting): about a third of a small row's insert. A statement
/// of many rows pays it once for all of them.
///
/// Rows whose keys SQLite gives (`RowBatch`'s appended rows) are inserted by statements of their
/// own, whose `Z_PK` is a literal NULL instead of a parameter, and so is a new object's `Z_OPT`
/// (1): a bind less per row for each.
struct InsertStatements {
    /// How the rows of a statement get their `Z_PK` and `Z_OPT`.
    enum Keys: Hashable {
        /// Both from parameters, the first two of each row's.
        case bound
        /// `Z_PK` NULL (SQLite gives each row the next key), `Z_OPT` from the first parameter.
        case appended
        /// `Z_PK` NULL and `Z_OPT` 1 (new objects, appended): the values are the only parameters.
        case appendedNew
    }

    private struct Shape: Hashable {
        let rows: Int
        let keys: Keys
    }

    /// The most rows one statement inserts: 1 when rows must be inserted one at a time.
    let capacity: Int
    /// The parameters of one row whose key is bound.
    private let boundParameters: Int
    private let prefix: String
    private let row: String
    private let appendedRow: String
    private let appendedNewRow: String
    private let prepare: (String) throws(StoreWriterError) -> SQLiteStatement
    private var byShape: [Shape: SQLiteStatement] = [:]

    /// The most parameters a statement takes here: SQLite's smallest default limit
    /// (`SQLITE_MAX_VARIABLE_NUMBER` before 3.32), so any build accepts it.
    private static let parameterLimit = 999
    /// The most rows a statement inserts: past this, longer statements gain next to nothing.
    private static let rowLimit = 64

    /// - Parameters:
    ///   - prefix: `INSERT INTO t (columns) VALUES `.
    ///   - row: one row's `(?, …)`, its key (`Z_PK`) and version (`Z_OPT`) the first two parameters.
    ///   - appendedRow: the same with a NULL key.
    ///   - appendedNewRow: the same with a NULL key and version 1.
    ///   - parametersPerRow: the parameters of `row`.
    ///   - batched: false when every row must be inserted alone (a table enforcing uniqueness
    ///     reports a duplicate per row).
    init(prefix: String, row: String, appendedRow: String, appendedNewRow: String, parametersPerRow: Int, batched: Bool,
         prepare: @escaping (String) throws(StoreWriterError) -> SQLiteStatement) {
        self.prefix = prefix
        self.row = row
        self.appendedRow = appendedRow
        self.appendedNewRow = appendedNewRow
        self.prepare = prepare
        boundParameters = parametersPerRow
        capacity = batched ? max(1, min(Self.rowLimit, Self.parameterLimit / max(1, parametersPerRow))) : 1
    }

    /// These statements with the one-row statement prepared (it checks the SQL at once).
    func prepared() throws(StoreWriterError) -> InsertStatements {
        var statements = self
        _ = try statements.inserting(rows: 1, keys: .bound)
        return statements
    }

    /// The parameters of one row.
    func parametersPerRow(_ keys: Keys) -> Int {
        switch keys {
        case .bound: boundParameters
        case .appended: boundParameters - 1
        case .appendedNew: boundParameters - 2
        }
    }

    /// The statement inserting `rows` rows whose keys are `keys`.
    mutating func inserting(rows: Int, keys: Keys) throws(StoreWriterError) -> SQLiteStatement {
        let shape = Shape(rows: rows, keys: keys)
        if let known = byShape[shape] { return known }
        let template = switch keys {
        case .bound: row
        case .appended: appendedRow
        case .appendedNew: appendedNewRow
        }
        let statement = try prepare(prefix + repeatElement(template, count: rows).joined(separator: ", "))
        byShape[shape] = statement
        return statement
    }
}
