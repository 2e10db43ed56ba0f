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
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let number): try bind(number, at: index)
        case .real(let number): try bind(number, at: index)
        case .text(let text): try bind(text, at: index)
        case .utf8(let bytes): try bindText(bytes, at: index)
        case .blob(let bytes): try bindBlob(bytes, at: index)
        }
    }
}
