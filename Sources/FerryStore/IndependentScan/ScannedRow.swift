/// A row of a value scan as either reader presents it: SQLite's (`StatementRow`) or the file's
/// own pages (`RecordFields`). Columns are the scan's selected columns, in order.
protocol ScannedRow {
    /// The column's storage class, as `typeof()` names it.
    func storageClass(at column: Int32) -> StorageClass
    /// An integer column's value.
    func int64(at column: Int32) -> Int64
    /// A blob column's length in bytes.
    func blobLength(at column: Int32) -> Int
}

/// The current row of a statement.
struct StatementRow: ScannedRow {
    let statement: SQLiteStatement

    func storageClass(at column: Int32) -> StorageClass { statement.storageClass(at: column) }
    func int64(at column: Int32) -> Int64 { statement.int64(at: column) }
    func blobLength(at column: Int32) -> Int { statement.withBlob(at: column) { $0.count } }
}
