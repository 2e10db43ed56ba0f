import CSQLite

/// Tells SQLite to copy bound text and blobs before the bind call returns. Every bind here uses it:
/// the bytes come from buffers that are only borrowed for the duration of the call.
/// `SQLITE_TRANSIENT`: SQLite copies the bytes before the call returns.
let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement, prepared once and run many times (bind, step, reset).
///
/// Parameter and column indexes follow SQLite: parameters count from 1, columns from 0.
/// The statement is finalized in `deinit`, or earlier by `finalize()`.
public final class SQLiteStatement {
    /// The connection; kept alive as long as the statement.
    public let database: SQLiteDatabase
    /// The SQL text as prepared.
    public let sql: String
    /// Read by every call, written only by `finalize()`; a statement is used by one thread, so the
    /// run-time exclusivity check (a third of the cost of reading a column) is left out.
    @exclusivity(unchecked) private var handle: OpaquePointer?

    init(database: SQLiteDatabase, sql: String) throws(SQLiteError) {
        self.database = database
        self.sql = sql
        let connection = try database.openHandle(sql: sql)
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard status == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw database.error(status, sql: sql)
        }
        handle = prepared
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Releases the statement now; any later use fails with `SQLITE_MISUSE`.
    public func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    // MARK: Running

    /// Runs the statement one step: true when a row is available, false when it is done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let statement = try live()
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status: throw database.error(status, sql: sql)
        }
    }

    /// Runs the statement to completion, ignoring any rows.
    public func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Rewinds the statement for another run. Bindings are kept; see `clearBindings()`.
    public func reset() throws(SQLiteError) {
        let statement = try live()
        let status = sqlite3_reset(statement)
        guard status == SQLITE_OK else { throw database.error(status, sql: sql) }
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() throws(SQLiteError) {
        sqlite3_clear_bindings(try live())
    }

    // MARK: Binding (parameters count from 1)

    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(try live(), index, value))
    }

    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(try live(), index, value))
    }

    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(try live(), index))
    }

    /// Binds UTF-8 text given as bytes (copied by SQLite). An empty buffer binds the empty string.
    public func bindText(_ utf8: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(Self.bindText(utf8, at: index, to: try live()))
    }

    /// Binds UTF-8 text given as a byte array.
    public func bindText(_ utf8: [UInt8], at index: Int32) throws(SQLiteError) {
        let statement = try live()
        try check(utf8.withUnsafeBytes { Self.bindText($0, at: index, to: statement) })
    }

    /// Binds a Swift string as UTF-8 text.
    public func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        let statement = try live()
        var value = value
        try check(value.withUTF8 { Self.bindText(UnsafeRawBufferPointer($0), at: index, to: statement) })
    }

    /// Binds a blob (copied by SQLite). An empty buffer binds an empty blob, not NULL.
    public func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(Self.bindBlob(bytes, at: index, to: try live()))
    }

    /// Binds a byte array as a blob.
    public func bindBlob(_ bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        let statement = try live()
        try check(bytes.withUnsafeBytes { Self.bindBlob($0, at: index, to: statement) })
    }

    /// The number of parameters the statement takes.
    public var parameterCount: Int32 {
        handle.map { sqlite3_bind_parameter_count($0) } ?? 0
    }

    // MARK: Columns (count from 0); valid after `step()` returned true

    public var columnCount: Int32 {
        handle.map { sqlite3_column_count($0) } ?? 0
    }

    public func columnName(at index: Int32) -> String? {
        guard let handle, let name = sqlite3_column_name(handle, index) else { return nil }
        return String(cString: name)
    }

    /// The storage class of a value in the current row.
    public func storageClass(at index: Int32) -> StorageClass {
        handle.flatMap { StorageClass(rawValue: sqlite3_column_type($0, index)) } ?? .null
    }

    public func isNull(at index: Int32) -> Bool { storageClass(at: index) == .null }

    public func int64(at index: Int32) -> Int64 {
        handle.map { sqlite3_column_int64($0, index) } ?? 0
    }

    public func double(at index: Int32) -> Double {
        handle.map { sqlite3_column_double($0, index) } ?? 0
    }

    /// A value of the current row, for reading it more than once (its storage class, then its
    /// bytes) at the cost of one column lookup.
    public func value(at index: Int32) -> SQLiteColumnValue {
        SQLiteColumnValue(handle.flatMap { sqlite3_column_value($0, index) })
    }

    /// Lends the UTF-8 bytes of a text value (empty for NULL) without making a String.
    /// The buffer is valid only inside `body`.
    public func withText<T, E: Error>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        try value(at: index).withText(body)
    }

    /// Lends the bytes of a blob value (empty for NULL or an empty blob). Valid only inside `body`.
    public func withBlob<T, E: Error>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        try value(at: index).withBlob(body)
    }

    /// A text value as a String, or nil for NULL.
    public func string(at index: Int32) -> String? {
        guard !isNull(at: index) else { return nil }
        return withText(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// A blob value as bytes, or nil for NULL.
    public func bytes(at index: Int32) -> [UInt8]? {
        guard !isNull(at: index) else { return nil }
        return withBlob(at: index) { Array($0) }
    }

    // MARK: Private

    /// The live handle; SQLITE_MISUSE once finalized.
    func live() throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(path: database.path, code: SQLITE_MISUSE, message: "the statement was finalized", sql: sql)
        }
        return handle
    }

    /// Text binding; a NULL pointer would bind NULL, so empty text points at a static "".
    static func bindText(_ utf8: UnsafeRawBufferPointer, at index: Int32, to statement: OpaquePointer) -> Int32 {
        guard let base = utf8.baseAddress, !utf8.isEmpty else {
            return sqlite3_bind_text64(statement, index, "", 0, transientDestructor, UInt8(SQLITE_UTF8))
        }
        return sqlite3_bind_text64(statement, index, base.assumingMemoryBound(to: CChar.self), UInt64(utf8.count),
                                   transientDestructor, UInt8(SQLITE_UTF8))
    }

    /// Blob binding; a NULL pointer would bind NULL, so an empty blob is a zero-length zeroblob.
    static func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32, to statement: OpaquePointer) -> Int32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return sqlite3_bind_zeroblob(statement, index, 0)
        }
        return sqlite3_bind_blob64(statement, index, base, UInt64(bytes.count), transientDestructor)
    }

    /// Throws the connection's error for a failed status.
    func check(_ status: Int32) throws(SQLiteError) {
        guard status == SQLITE_OK else { throw database.error(status, sql: sql) }
    }
}
