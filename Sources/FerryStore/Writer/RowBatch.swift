import CSQLite
import FerryModel

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

    /// The most rows one statement inserts.
    var capacity: Int { statements.capacity }

    /// Whether the staged rows fill a statement or hold enough bytes to be inserted now.
    var isFull: Bool { pending.rowCount >= statements.capacity || pending.byteCount >= Self.byteLimit }

    /// Binds a row after the staged ones to the statement inserting `rows` rows (the staged rows
    /// are bound to it already). A row that fails to bind forgets the staged rows.
    func stage<Row: StagedRow>(_ row: Row, primaryKey: Int64, version: Int64, rows: Int) throws(StoreWriterError) {
        let statement: SQLiteStatement
        if let target {
            statement = target.statement
        } else {
            statement = try statements.inserting(rows: rows)
            target = (statement, rows)
        }
        let first = Int32(pending.rowCount * statements.parametersPerRow + 1)
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            let status = row.stage(primaryKey: primaryKey, version: version, in: pending, to: try statement.live(), from: first)
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

/// The values of one row, as an inserter takes them, bound by `PendingRows`.
protocol StagedRow {
    /// Binds the row's `Z_PK` and `Z_OPT`, then its values, to consecutive parameters of
    /// `statement` from `first`, noting them in `rows`; returns SQLite's status.
    func stage(primaryKey: Int64, version: Int64, in rows: PendingRows, to statement: OpaquePointer, from first: Int32) -> Int32
}

/// A row of values in their storage form, one per column.
struct StoreValueRow: StagedRow {
    let values: [StoreValue]

    func stage(primaryKey: Int64, version: Int64, in rows: PendingRows, to statement: OpaquePointer, from first: Int32) -> Int32 {
        rows.stage(primaryKey: primaryKey, version: version, values, to: statement, from: first)
    }
}

/// A row of attribute values with a column map (`EntityInserter.insert(_:sources:identity:)`).
struct AttributeValueRow: StagedRow {
    let values: [AttributeValue]
    let sources: [Int?]
    let tagged: [Bool]

    func stage(primaryKey: Int64, version: Int64, in rows: PendingRows, to statement: OpaquePointer, from first: Int32) -> Int32 {
        rows.stage(primaryKey: primaryKey, version: version, values, sources: sources, tagged: tagged, to: statement, from: first)
    }
}
