import CSQLite
import FerryModel

/// The rows of one entity staged for one multi-row `INSERT` and not yet inserted.
///
/// The writer owns it (`CoreDataStoreWriter.rowBatch(for:)`) and inserts what it holds before
/// anything reads or changes the tables and before every commit; the entity's inserters share
/// it. Owned there, rows staged through an inserter that is gone are still inserted.
///
/// Used by the writer's thread alone: its fields, touched for every row, skip the run-time
/// exclusivity checks (`@exclusivity(unchecked)`).
final class RowBatch {
    @exclusivity(unchecked) private var statements: InsertStatements
    private let pending = PendingRows()
    /// The statement the staged rows are bound to, and how many rows it inserts.
    @exclusivity(unchecked) private var target: (statement: SQLiteStatement, rows: Int)?
    /// Whether the writer lists the batch among those holding rows; the writer clears it when it
    /// flushes.
    @exclusivity(unchecked) var isListedWithWriter = false

    /// The highest `Z_PK` in the table, while this batch is the only way rows reach it (a table of
    /// one entity, before any set-based SQL): a row whose key follows the one before it is
    /// staged with a NULL key, and SQLite appends it without first looking its key up (a seek from
    /// the b-tree's root per row, a fifth of a small row's insert). Nil: unknown.
    @exclusivity(unchecked) private var tableMax: Int64?
    /// How the staged rows get their keys and versions; appended (NULL keys): each key follows
    /// the one before it, the first `tableMax`'s. Staged rows are all of one kind.
    @exclusivity(unchecked) private var kind = InsertStatements.Keys.bound
    /// The key of the last staged row, and the highest.
    @exclusivity(unchecked) private var lastKey: Int64 = 0
    @exclusivity(unchecked) private var highestKey: Int64 = 0

    /// Staged bytes past which the rows are inserted before the batch is full (large values).
    private static let byteLimit = 1 << 20

    /// - Parameter tableMax: the highest `Z_PK` in the table when only this batch writes rows to
    ///   it; nil otherwise.
    init(statements: InsertStatements, tableMax: Int64?) {
        self.statements = statements
        self.tableMax = tableMax
    }

    /// Stops staging rows with NULL keys: something else may have written to the table.
    func forgetTableMax() {
        tableMax = nil
    }

    /// The most rows one statement inserts.
    var capacity: Int { statements.capacity }

    /// Whether the staged rows fill a statement or hold enough bytes to be inserted now.
    var isFull: Bool { pending.rowCount >= statements.capacity || pending.byteCount >= Self.byteLimit }

    /// Binds a row after the staged ones to the statement inserting `rows` rows (the staged rows
    /// are bound to it already). A row whose key does not follow as the staged rows' do (or the
    /// other way round) first inserts them. A row that fails to bind is taken back alone.
    func stage<Row: StagedRow>(_ row: Row, primaryKey: Int64, version: Int64, rows: Int) throws(StoreWriterError) {
        var kind = self.kind(of: primaryKey, version: version)
        if pending.rowCount > 0, kind != self.kind {
            try flush()
            kind = self.kind(of: primaryKey, version: version)
        }
        if pending.rowCount == 0 { self.kind = kind }
        let statement: SQLiteStatement
        if let target {
            statement = target.statement
        } else {
            statement = try statements.inserting(rows: rows, keys: kind)
            target = (statement, rows)
        }
        let first = Int32(pending.rowCount * statements.parametersPerRow(kind) + 1)
        let end = pending.end
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            let status = row.stage(primaryKey: kind == .bound ? primaryKey : nil, version: kind == .appendedNew ? nil : version,
                                   in: pending, to: try statement.live(), from: first)
            if status != SQLITE_OK {
                // Only this row is taken back: the rows staged before it are still to be inserted.
                pending.drop(after: end)
                if pending.rowCount == 0 { target = nil }
                try statement.check(status)
            }
        }
        highestKey = pending.rowCount == 1 ? primaryKey : max(highestKey, primaryKey)
        lastKey = primaryKey
    }

    /// How a row staged next gets its key and version: appended when SQLite would give it `key`
    /// (a row with a NULL key), and new when its version is 1.
    private func kind(of key: Int64, version: Int64) -> InsertStatements.Keys {
        guard let tableMax, case let previous = pending.rowCount == 0 ? tableMax : lastKey, previous < .max, key == previous + 1,
              pending.rowCount == 0 || self.kind != .bound else {
            return .bound
        }
        return version == 1 ? .appendedNew : .appended
    }

    /// Inserts the staged rows with one statement (bound again to a shorter one when they do not
    /// fill the one they were bound to). They are forgotten whether it succeeds or not.
    func flush() throws(StoreWriterError) {
        guard let target, pending.rowCount > 0 else { return }
        defer { forgetStaged() }
        let rows = pending.rowCount
        let statement = rows == target.rows ? target.statement : try statements.inserting(rows: rows, keys: kind)
        do {
            try StoreWriterError.sqlite { () throws(SQLiteError) in
                if rows != target.rows { try statement.check(pending.rebind(to: try statement.live())) }
                defer { try? statement.reset() }
                try statement.run()
                // SQLite gave the NULL keys: they must be the ones handed out, or links would name
                // other rows. A difference stops the run.
                if kind != .bound, statement.database.lastInsertedRowID != lastKey {
                    throw SQLiteError(path: statement.database.path, code: SQLITE_INTERNAL,
                                      message: "rows appended with keys up to \(statement.database.lastInsertedRowID), not \(lastKey)")
                }
            }
        } catch {
            tableMax = nil
            throw error
        }
        if let tableMax { self.tableMax = max(tableMax, highestKey) }
    }

    /// Forgets the staged rows (inserted or failed).
    private func forgetStaged() {
        pending.clear()
        target = nil
    }
}

/// The values of one row, as an inserter takes them, bound by `PendingRows`.
protocol StagedRow {
    /// Binds the row's `Z_PK` and `Z_OPT` (nil: none, the statement has a literal NULL key, or
    /// version 1), then its values, to consecutive parameters
    /// of `statement` from `first`, noting them in `rows`; returns SQLite's status.
    func stage(primaryKey: Int64?, version: Int64?, in rows: PendingRows, to statement: OpaquePointer, from first: Int32) -> Int32
}

/// A row of values in their storage form, one per column.
struct StoreValueRow: StagedRow {
    let values: [StoreValue]

    func stage(primaryKey: Int64?, version: Int64?, in rows: PendingRows, to statement: OpaquePointer, from first: Int32) -> Int32 {
        rows.stage(primaryKey: primaryKey, version: version, values, to: statement, from: first)
    }
}

/// A row of attribute values with a column map (`EntityInserter.insert(_:sources:identity:)`),
/// borrowed for the call that stages it (no reference counting per row).
struct AttributeValueRow: StagedRow {
    let values: UnsafeBufferPointer<AttributeValue>
    let sources: UnsafeBufferPointer<Int?>
    let tagged: UnsafeBufferPointer<Bool>

    func stage(primaryKey: Int64?, version: Int64?, in rows: PendingRows, to statement: OpaquePointer, from first: Int32) -> Int32 {
        rows.stage(primaryKey: primaryKey, version: version, values, sources: sources, tagged: tagged, to: statement, from: first)
    }
}
