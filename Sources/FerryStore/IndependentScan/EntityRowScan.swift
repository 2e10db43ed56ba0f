/// The rows of some entities of an entity table read straight from SQLite with plain SQL:
/// `Z_PK` (result column 0), `Z_ENT` (1), then the columns asked for, for a caller that reads
/// the values itself (a fingerprint computed without the record reader).
public struct EntityRowScan {
    private let sql: String

    /// A scan of `columns` of the rows of `table` whose `Z_ENT` is one of `numbers`.
    public init(table: String, columns: [String], numbers: [Int]) {
        sql = "SELECT \((["Z_PK", "Z_ENT"] + columns).map(SQLIdentifier.quoted).joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table))"
            + " WHERE Z_ENT IN (\(ScanSQL.numbers(numbers)))"
    }

    /// The result column of `columns[index]`.
    public static func resultColumn(of index: Int) -> Int32 { Int32(index + 2) }

    /// Hands each row to `row`, positioned on it, until `row` returns false; returns whether
    /// every row was handed over.
    public func forEachRow(on connection: ScanConnection, _ row: (SQLiteStatement) -> Bool) throws(SQLiteError) -> Bool {
        let statement = try connection.database.prepare(sql)
        defer { statement.finalize() }
        while try statement.step() {
            guard row(statement) else { return false }
        }
        return true
    }
}
