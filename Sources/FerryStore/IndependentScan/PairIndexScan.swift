/// The indexes through which readers find a relationship's pairs, each compared with its table.
///
/// Core Data reads a to-many list with `WHERE key = ?` (a foreign key kept on the destinations'
/// rows, or a join table's column), which SQLite answers through an index holding that key, and
/// so does Ferry's own record reader (`StoreRecordReader.edges`). An index that disagrees with its
/// table passes SQLite's `quick_check`; a pair moved in the table but not in the index leaves every
/// count as it was, and a check that reads through the same index cannot see it. So every index of
/// the pairs' table that holds one of the pair's columns (its foreign key or join keys, its order
/// keys) is read on its own (`INDEXED BY`, only its entries) and compared with the table read
/// without any index (`NOT INDEXED`, only its rows), over each row's rowid and those columns, by an
/// order-independent digest (`KeyRowDigest`): two sequential reads, where SQLite's
/// `integrity_check` of the table looks every row up in every index. Only when they differ are the
/// entries that differ looked up, for the report.
///
/// A partial index (`… WHERE …`), which Core Data does not make, is compared over the rows its
/// clause picks, read from the table with that same clause.
public struct PairIndexScan {
    let connection: ScanConnection

    public init(_ connection: ScanConnection) {
        self.connection = connection
    }

    /// The indexes of `pairs`' table that disagree with it, each with the entries that differ.
    public func disagreements(of pairs: RelationshipPairs) throws(SQLiteError) -> [IndexDisagreement] {
        let table = pairs.table
        // A table without rowids (`WITHOUT ROWID`, which Core Data never makes) has none to
        // compare entries by: SQLite's full integrity check compares its indexes.
        guard hasRowIDs(table) else { return [] }
        var tableDigests: [String: KeyRowDigest] = [:]
        var found: [IndexDisagreement] = []
        for index in try TableIndex.all(of: table, on: connection.database) {
            let columns = pairs.pairColumns.filter { column in index.columns.contains { $0.lowercased() == column.lowercased() } }
            guard !columns.isEmpty else { continue }
            let reading = IndexReading(table: table, index: index, columns: columns)
            let fromTable: KeyRowDigest
            if let known = tableDigests[reading.tableKey] {
                fromTable = known
            } else {
                fromTable = try digest(reading.tableRows)
                tableDigests[reading.tableKey] = fromTable
            }
            guard try digest(reading.indexEntries) != fromTable else { continue }
            let rows = try connection.offending(reading.differences, keyed: pairs.kind == .foreignKey)
            found.append(IndexDisagreement(index: index.name, table: table, columns: columns, entries: rows))
        }
        return found
    }

    private func hasRowIDs(_ table: String) -> Bool {
        guard let statement = try? connection.database.prepare("SELECT rowid FROM \(SQLIdentifier.quoted(table)) LIMIT 0") else { return false }
        statement.finalize()
        return true
    }

    private func digest(_ sql: String) throws(SQLiteError) -> KeyRowDigest {
        let statement = try connection.database.prepare(sql)
        let columns = statement.columnCount
        var digest = KeyRowDigest()
        while try statement.step() { digest.add(statement, columns: columns) }
        return digest
    }
}

/// An index that disagrees with its table over a relationship's columns.
public struct IndexDisagreement: Sendable, Equatable {
    public let index: String
    public let table: String
    /// The pair's columns compared (the index's, of the foreign key, join keys or order keys).
    public let columns: [String]
    /// The entries that differ: each row whose entry in the index holds other values than the
    /// table's row (or whose row is gone), and each row of the table the index has no entry for
    /// (a moved entry counts twice), with the values of both sides.
    public let entries: OffendingRows
}

/// An index of a table, as `PRAGMA index_list` and `index_info` describe it.
struct TableIndex {
    let name: String
    /// Its columns; an expression is an empty name.
    let columns: [String]
    /// The `WHERE` clause of a partial index, nil for a whole one.
    let condition: String?

    static func all(of table: String, on database: SQLiteDatabase) throws(SQLiteError) -> [TableIndex] {
        let list = try database.prepare("PRAGMA index_list(\(SQLIdentifier.quoted(table)))")
        var found: [(name: String, partial: Bool)] = []
        while try list.step() {
            if let name = list.string(at: 1) { found.append((name, list.int64(at: 4) != 0)) }
        }
        var indexes: [TableIndex] = []
        for (name, partial) in found {
            let info = try database.prepare("PRAGMA index_info(\(SQLIdentifier.quoted(name)))")
            var columns: [String] = []
            while try info.step() { columns.append(info.string(at: 2) ?? "") }
            var condition: String?
            if partial {
                let statement = try database.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?1")
                try statement.bind(name, at: 1)
                guard try statement.step(), let sql = statement.string(at: 0), let clause = PartialIndexClause.condition(of: sql) else {
                    // A partial index whose clause cannot be found is not compared: no reader's
                    // query can be known to use it.
                    continue
                }
                condition = clause
            }
            indexes.append(TableIndex(name: name, columns: columns, condition: condition))
        }
        return indexes
    }
}

/// The SQL reading one index and its table over the same columns.
private struct IndexReading {
    let table: String
    let index: TableIndex
    let columns: [String]

    /// Rows with any of the columns set, and within a partial index's clause.
    private func rows(_ alias: String) -> String {
        let set = columns.map { "\(ScanSQL.column(alias, $0)) IS NOT NULL" }.joined(separator: " OR ")
        return index.condition.map { "(\(set)) AND (\($0))" } ?? set
    }

    private var selected: String { columns.map(SQLIdentifier.quoted).joined(separator: ", ") }
    private var quotedTable: String { SQLIdentifier.quoted(table) }
    private var indexed: String { "INDEXED BY \(SQLIdentifier.quoted(index.name))" }

    /// Which table readings are the same: the columns and the clause.
    var tableKey: String { columns.joined(separator: ",") + "|" + (index.condition ?? "") }

    /// The table's rows, without any index.
    var tableRows: String {
        "SELECT rowid, \(selected) FROM \(quotedTable) AS t NOT INDEXED WHERE \(rows("t"))"
    }

    /// The index's entries: every column selected is in it, so SQLite reads the index alone.
    var indexEntries: String {
        "SELECT rowid, \(selected) FROM \(quotedTable) AS i \(indexed) WHERE \(rows("i"))"
    }

    /// Entries whose row holds other values or is gone, then rows without their entry: the row's
    /// rowid, then each column in the index and in the table. Each side is read in a subquery of
    /// its own, where a partial index's clause names its columns without ambiguity.
    var differences: String {
        let both = columns.flatMap { column in
            ["\(ScanSQL.column("i", column)) AS \(SQLIdentifier.quoted("index " + column))",
             "\(ScanSQL.column("t", column)) AS \(SQLIdentifier.quoted("table " + column))"]
        }
        let onlyTable = columns.flatMap { column in ["NULL", ScanSQL.column("t", column)] }
        let differs = columns.map { "\(ScanSQL.column("t", $0)) IS NOT \(ScanSQL.column("i", $0))" }.joined(separator: " OR ")
        let same = columns.map { "\(ScanSQL.column("e", $0)) IS \(ScanSQL.column("t", $0))" }.joined(separator: " AND ")
        return """
            SELECT i.indexrow AS rowid, \(both.joined(separator: ", ")) \
            FROM (SELECT rowid AS indexrow, \(selected) FROM \(quotedTable) AS e \(indexed) WHERE \(rows("e"))) AS i \
            LEFT JOIN \(quotedTable) AS t NOT INDEXED ON t.rowid = i.indexrow WHERE t.rowid IS NULL OR \(differs) \
            UNION ALL \
            SELECT t.tablerow, \(onlyTable.joined(separator: ", ")) \
            FROM (SELECT rowid AS tablerow, \(selected) FROM \(quotedTable) AS r NOT INDEXED WHERE \(rows("r"))) AS t \
            WHERE NOT EXISTS (SELECT 1 FROM \(quotedTable) AS e \(indexed) WHERE (\(rows("e"))) AND \(same) AND e.rowid = t.tablerow)
            """
    }
}
