/// SQLite's storage class of a value (`sqlite3_column_type`): how the value is held, whatever its
/// column's declared type.
public enum StorageClass: Int32, Sendable {
    case integer = 1
    case real = 2
    case text = 3
    case blob = 4
    case null = 5
}
