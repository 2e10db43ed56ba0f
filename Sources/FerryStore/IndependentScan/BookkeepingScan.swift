/// Questions about a store's bookkeeping asked with plain SQL: SQLite's own integrity check,
/// the rows of `Z_METADATA`, `Z_SUPER` as stored, keys above `Z_MAX`, rows whose `Z_ENT` is not
/// one of their table's entities, and rows of app entities in a table no entity of the model has.
public struct BookkeepingScan {
    let connection: ScanConnection

    public init(_ connection: ScanConnection) {
        self.connection = connection
    }

    /// `PRAGMA integrity_check` (`quick_check` unless `full`) on a read-only connection of its
    /// own: `["ok"]`, or SQLite's messages.
    public static func integrity(path: String, full: Bool) throws(SQLiteError) -> [String] {
        try ScanConnection(path: path, sampleLimit: 0).texts(full ? "PRAGMA integrity_check" : "PRAGMA quick_check")
    }

    /// The names of the store's triggers (Core Data's `Z_DA_…` keep derived attributes).
    public func triggerNames() throws(SQLiteError) -> Set<String> {
        Set(try connection.texts("SELECT name FROM sqlite_master WHERE type = 'trigger'"))
    }

    /// How many rows `Z_METADATA` has.
    public func metadataRows() throws(SQLiteError) -> Int64 {
        try connection.integers("SELECT count(*) FROM Z_METADATA").first ?? 0
    }

    /// How many rows `Z_MODELCACHE` has (readers take the first).
    public func modelCacheRows() throws(SQLiteError) -> Int64 {
        try connection.integers("SELECT count(*) FROM Z_MODELCACHE").first ?? 0
    }

    /// `Z_SUPER` of every `Z_PRIMARYKEY` row, by `Z_ENT`, as the SQL literal of what the row
    /// holds (`0`, `5`, and also `NULL`, `1.5` or `'text'`, which are no entity number).
    public func superEntityNumbers() throws(SQLiteError) -> [Int64: String] {
        let statement = try connection.database.prepare("SELECT Z_ENT, Z_SUPER FROM Z_PRIMARYKEY")
        defer { statement.finalize() }
        var numbers: [Int64: String] = [:]
        while try statement.step() { numbers[statement.int64(at: 0)] = SQLLiteral.text(statement, 1) }
        return numbers
    }

    /// The rows of `table` whose `Z_ENT` is NULL or below the framework's own numbers (16000 on:
    /// persistent history, CloudKit mirroring): rows of app entities.
    public func appEntityRows(of table: String) throws(SQLiteError) -> OffendingRows {
        try connection.offending("SELECT Z_PK, Z_ENT FROM \(SQLIdentifier.quoted(table)) WHERE Z_ENT IS NULL OR Z_ENT < \(PrimaryKeyEntry.firstSystemEntityNumber)")
    }

    /// How many rows of `table` hold a value (not NULL) in `column`.
    public func values(in column: String, of table: String) throws(SQLiteError) -> Int64 {
        try connection.integers("SELECT count(\(SQLIdentifier.quoted(column))) FROM \(SQLIdentifier.quoted(table))").first ?? 0
    }

    /// The values no reference or record carries, in one pass over `table`: for each (column,
    /// entity numbers) of `elsewhere`, how many rows with one of those `Z_ENT`s hold a value (not
    /// NULL) in the column (another entity's column); for each (column, key) of `withoutKey`, how
    /// many rows whose `key` column is NULL hold one in `column` (an order position or
    /// destination entity number of a to-one the row does not have, which Core Data clears with
    /// the key).
    public func strandedValues(of table: String, elsewhere: [(column: String, entityNumbers: [Int])],
                               withoutKey: [(column: String, key: String)]) throws(SQLiteError) -> (elsewhere: [Int64], withoutKey: [Int64]) {
        let counts = try counts(of: table, elsewhere.map { probe in
            "count(\(SQLIdentifier.quoted(probe.column))) FILTER (WHERE Z_ENT IN (\(ScanSQL.numbers(probe.entityNumbers))))"
        } + withoutKey.map { probe in
            "count(\(SQLIdentifier.quoted(probe.column))) FILTER (WHERE \(SQLIdentifier.quoted(probe.key)) IS NULL)"
        })
        return (Array(counts.prefix(elsewhere.count)), Array(counts.dropFirst(elsewhere.count)))
    }

    /// The aggregates `expressions` over `table`, in one pass per 500 of them (a statement's
    /// result columns are limited: SQLITE_MAX_COLUMN, 2,000 by default).
    private func counts(of table: String, _ expressions: [String]) throws(SQLiteError) -> [Int64] {
        var counts: [Int64] = []
        for start in stride(from: 0, to: expressions.count, by: 500) {
            let chunk = expressions[start..<min(start + 500, expressions.count)]
            counts += try connection.integers("SELECT \(chunk.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table))")
        }
        return counts
    }

    /// The rows of `table` whose `Z_PK` is below 1 (Core Data's keys start at 1), smallest first.
    public func rowsWithKeyBelowOne(of table: String) throws(SQLiteError) -> OffendingRows {
        try connection.offending("SELECT Z_PK FROM \(SQLIdentifier.quoted(table)) WHERE Z_PK < 1 ORDER BY Z_PK")
    }

    /// The rows of `table` whose `Z_PK` is above `maximum`, largest first.
    public func rows(of table: String, keyAbove maximum: Int64) throws(SQLiteError) -> OffendingRows {
        try connection.offending("SELECT Z_PK FROM \(SQLIdentifier.quoted(table)) WHERE Z_PK > \(maximum) ORDER BY Z_PK DESC")
    }

    /// The rows of `table` whose `Z_ENT` is NULL or none of `numbers`, with their `Z_ENT`.
    public func rows(of table: String, entityNumberOutside numbers: [Int]) throws(SQLiteError) -> OffendingRows {
        try connection.offending(
            "SELECT Z_PK, Z_ENT FROM \(SQLIdentifier.quoted(table)) WHERE Z_ENT NOT IN (\(ScanSQL.numbers(numbers))) OR Z_ENT IS NULL")
    }
}
