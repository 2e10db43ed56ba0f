import FerryStore

/// Rows of a query on a store, each as its columns' text joined by `|` (NULL as `NULL`): for
/// comparing store contents in tests with one line.
public func storeRows(_ path: String, _ sql: String) throws -> [String] {
    let database = try SQLiteDatabase(path: path, mode: .readOnly)
    let statement = try database.prepare(sql)
    var result: [String] = []
    while try statement.step() {
        result.append((0..<statement.columnCount).map { statement.string(at: $0) ?? "NULL" }.joined(separator: "|"))
    }
    return result
}
