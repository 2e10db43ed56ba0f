/// One value of a row being read, as SQLite held it: read in place from a statement
/// (`SQLiteColumnValue`) or from a copy a worker thread made of it (`CopiedColumnValue`). The
/// decoding of values (`ColumnValueDecoder`) and the cursor's lending are written once over both;
/// each is specialized for each, so reading from a statement costs what it did.
protocol StoredColumnValue {
    /// How the value was stored.
    var storageClass: StorageClass { get }
    var int64: Int64 { get }
    var double: Double { get }
    /// Lends the value's UTF-8 bytes (empty for NULL). Valid only inside `body`.
    func withText<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T
    /// Lends the value's bytes as a blob (empty for NULL). Valid only inside `body`.
    func withBlob<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T
}

extension SQLiteColumnValue: StoredColumnValue {}
