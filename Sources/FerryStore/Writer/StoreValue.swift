import CSQLite

/// A value bound to a store column, already in Core Data's storage form: dates as seconds since
/// 2001-01-01 UTC (`.real`), UUIDs as 16-byte blobs, booleans as 0/1, decimals as `.real`,
/// foreign keys as the destination's `Z_PK`. Callers convert; the store layer does not.
public enum StoreValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Text given as UTF-8 bytes, bound without making a String.
    case utf8([UInt8])
    case blob([UInt8])
}

extension SQLiteStatement {
    /// Binds a store value to a parameter (counting from 1).
    public func bind(_ value: StoreValue, at index: Int32) throws(SQLiteError) {
        try check(Self.bind(value, at: index, to: try live()))
    }

    /// Binds values to consecutive parameters, the first at `first` (counting from 1): one row
    /// of an insert, with one check of the statement for all of them.
    public func bind(_ values: [StoreValue], from first: Int32) throws(SQLiteError) {
        let statement = try live()
        var index = first
        for value in values {
            try check(Self.bind(value, at: index, to: statement))
            index += 1
        }
    }

    /// One value, straight through the C API; returns SQLite's status.
    static func bind(_ value: StoreValue, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .null:
            return sqlite3_bind_null(statement, index)
        case .integer(let number):
            return sqlite3_bind_int64(statement, index, number)
        case .real(let number):
            return sqlite3_bind_double(statement, index, number)
        case .text(var text):
            return text.withUTF8 { bindText(UnsafeRawBufferPointer($0), at: index, to: statement) }
        case .utf8(let bytes):
            return bytes.withUnsafeBytes { bindText($0, at: index, to: statement) }
        case .blob(let bytes):
            return bytes.withUnsafeBytes { bindBlob($0, at: index, to: statement) }
        }
    }
}
