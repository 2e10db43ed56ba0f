import CSQLite

/// The rows of one entity staged for one multi-row `INSERT` and not yet inserted.
///
/// The writer owns it (`CoreDataStoreWriter.rowBatch(for:)`) and inserts what it holds before
/// anything reads or changes the tables and before every commit; the entity's inserters share
/// it. Owned there, rows staged through an inserter that is gone are still inserted.
final class RowBatch {
    private var statements: InsertStatements
    private let pending = PendingRows()
    /// The statement the staged rows are bound to, and how many rows it inserts.
    private var target: (statement: SQLiteStatement, rows: Int)?
    /// Whether the writer lists the batch among those holding rows; the writer clears it when it
    /// flushes.
    var isListedWithWriter = false

    /// Staged bytes past which the rows are inserted before the batch is full (large values).
    private static let byteLimit = 1 << 20

    init(statements: InsertStatements) {
        self.statements = statements
    }

    /// Binds one row's `Z_PK` and `Z_OPT`, then its values, to parameters of a statement from the
    /// one given; returns SQLite's status.
    typealias Stage = (_ primaryKey: Int64, _ version: Int64, _ rows: PendingRows, _ statement: OpaquePointer, _ first: Int32) -> Int32

    /// The most rows one statement inserts.
    var capacity: Int { statements.capacity }

    /// Whether the staged rows fill a statement or hold enough bytes to be inserted now.
    var isFull: Bool { pending.rowCount >= statements.capacity || pending.byteCount >= Self.byteLimit }

    /// Binds a row after the staged ones to the statement inserting `rows` rows (the staged rows
    /// are bound to it already). A row that fails to bind forgets the staged rows.
    func stage(_ primaryKey: Int64, _ version: Int64, rows: Int, _ stage: Stage) throws(StoreWriterError) {
        let statement: SQLiteStatement
        if let target {
            statement = target.statement
        } else {
            statement = try statements.inserting(rows: rows)
            target = (statement, rows)
        }
        let first = Int32(pending.rowCount * statements.parametersPerRow + 1)
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            let status = stage(primaryKey, version, pending, try statement.live(), first)
            if status != SQLITE_OK {
                forgetStaged()
                try statement.check(status)
            }
        }
    }

    /// Inserts the staged rows with one statement (bound again to a shorter one when they do not
    /// fill the one they were bound to). They are forgotten whether it succeeds or not.
    func flush() throws(StoreWriterError) {
        guard let target, pending.rowCount > 0 else { return }
        defer { forgetStaged() }
        let rows = pending.rowCount
        let statement = rows == target.rows ? target.statement : try statements.inserting(rows: rows)
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            if rows != target.rows { try statement.check(pending.rebind(to: try statement.live())) }
            defer { try? statement.reset() }
            try statement.run()
        }
    }

    /// Forgets the staged rows (inserted or failed).
    private func forgetStaged() {
        pending.clear()
        target = nil
    }
}
