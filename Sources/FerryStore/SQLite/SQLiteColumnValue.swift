import CSQLite

/// One value of a statement's current row as SQLite holds it (`sqlite3_column_value`), read with
/// the `sqlite3_value_*` functions: the value is looked up once, and each read of it skips the
/// column lookup and error bookkeeping that every `sqlite3_column_*` call repeats (a third of the
/// cost of decoding a row's values).
///
/// SQLite calls such a value *unprotected*: no mutex is held while it is read. That makes no
/// difference here, as connections run without SQLite's mutexes (`SQLITE_OPEN_NOMUTEX`) and are
/// used by one thread at a time.
///
/// Valid until the statement steps, resets or is finalized. `storageClass` is what the value was
/// stored as only before any other read: reading converts the value in place (text asked of an
/// integer gives it a text form too), and then SQLite leaves its type undefined.
public struct SQLiteColumnValue {
    /// Nil for a finalized statement: the value then reads as NULL.
    private let value: OpaquePointer?

    init(_ value: OpaquePointer?) {
        self.value = value
    }

    /// How the value is stored, whatever its column's declared type.
    public var storageClass: StorageClass {
        guard let value else { return .null }
        // A switch the compiler inlines: `StorageClass(rawValue:)` is a call per value.
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    public var int64: Int64 {
        value.map { sqlite3_value_int64($0) } ?? 0
    }

    public var double: Double {
        value.map { sqlite3_value_double($0) } ?? 0
    }

    /// Lends the value's UTF-8 bytes (empty for NULL) without making a String. The buffer is
    /// valid only inside `body`.
    public func withText<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        guard let value, let text = sqlite3_value_text(value) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
    }

    /// Lends the value's bytes as a blob (empty for NULL or an empty blob). Valid only inside `body`.
    public func withBlob<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        guard let value, let blob = sqlite3_value_blob(value) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_value_bytes(value))))
    }
}
