/// Questions about the values of an entity table asked with plain SQL: how many rows break each
/// of a list of `ColumnCondition`s (one pass, rows classified here), sample rows of one, and
/// values of a uniqueness constraint that several rows share.
public struct ValueScan {
    let connection: ScanConnection

    public init(_ connection: ScanConnection) {
        self.connection = connection
    }

    /// A table's rows, its rows per entity number asked for, and the rows breaking each condition.
    public struct Counts: Sendable {
        public let rows: Int64
        public let rowsByEntity: [Int: Int64]
        public let violations: [Int64]
    }

    /// What the row-by-row count needs of a condition, as a trivial value (read per row without
    /// reference counting): its result column, rule, and entity filter (an index into the scan's
    /// filters).
    private struct RowCheck {
        let column: Int32
        let rule: StorageRule?
        let filter: Int?

        /// Whether the statement's current row, of entity `number`, breaks the condition.
        func isBroken(by statement: SQLiteStatement, entity number: Int64, filters: [EntityNumberSet]) -> Bool {
            if let filter, !filters[filter].contains(number) { return false }
            guard let rule else { return statement.isNull(at: column) }
            return rule.isBroken(by: statement, at: column)
        }
    }

    /// Entity numbers (small, non-negative) as a table of flags, asked per row without hashing.
    private struct EntityNumberSet {
        private var flags: [Bool] = []

        init(_ numbers: [Int]) {
            for number in numbers where number >= 0 {
                if number >= flags.count { flags += repeatElement(false, count: number + 1 - flags.count) }
                flags[number] = true
            }
        }

        func contains(_ number: Int64) -> Bool {
            number >= 0 && number < flags.count && flags[Int(number)]
        }
    }

    /// `SELECT Z_ENT, <condition columns> FROM table`, counted row by row: SQLite hands over the
    /// raw columns and the values are classified here, a fraction of the cost of `sum(CASE
    /// typeof(…) …)` per value in SQL. Rows are counted per entity for each of `numbers`.
    public func count(_ table: String, numbers: [Int], conditions: [ColumnCondition]) throws(SQLiteError) -> Counts {
        var selected = ["Z_ENT"]
        var filters: [EntityNumberSet] = []
        let checks = conditions.map { condition in
            let column: Int32
            if let index = selected.firstIndex(of: condition.column) {
                column = Int32(index)
            } else {
                selected.append(condition.column)
                column = Int32(selected.count - 1)
            }
            let filter = condition.entityNumbers.map { numbers in
                filters.append(EntityNumberSet(numbers))
                return filters.count - 1
            }
            return RowCheck(column: column, rule: condition.rule, filter: filter)
        }
        let statement = try connection.database.prepare(
            "SELECT \(selected.map { ScanSQL.column("p", $0) }.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table)) p")
        defer { statement.finalize() }
        var rows: Int64 = 0
        // Rows per entity number asked for: a slot per number, found by the number itself.
        let counted = EntityNumberSet(numbers)
        var rowsByNumber = [Int64](repeating: 0, count: (numbers.max() ?? -1) + 1)
        var violations = [Int64](repeating: 0, count: conditions.count)
        while try statement.step() {
            rows += 1
            // Z_ENT as SQL compares it: an integer (a NULL or other value matches no number).
            let number = statement.storageClass(at: 0) == .integer ? statement.int64(at: 0) : -1
            if counted.contains(number) { rowsByNumber[Int(number)] += 1 }
            for (index, check) in checks.enumerated() where check.isBroken(by: statement, entity: number, filters: filters) {
                violations[index] += 1
            }
        }
        let rowsByEntity = Dictionary(uniqueKeysWithValues: numbers.map { ($0, $0 >= 0 ? rowsByNumber[$0] : 0) })
        return Counts(rows: rows, rowsByEntity: rowsByEntity, violations: violations)
    }

    /// The first rows of `table` breaking `condition`, with their value.
    public func samples(of condition: ColumnCondition, in table: String) throws(SQLiteError) -> [FailureSample] {
        try connection.offending("""
            SELECT p.Z_PK, \(ScanSQL.column("p", condition.column)) AS \(SQLIdentifier.quoted(condition.column)) \
            FROM \(SQLIdentifier.quoted(table)) p WHERE \(condition.violation) LIMIT \(connection.sampleLimit)
            """).samples
    }

    /// The values of `columns` (none NULL) that several rows of `table` with one of `numbers`
    /// share, each with its lowest `Z_PK` and how many rows have it.
    public func sharedValues(of columns: [String], in table: String, numbers: [Int]) throws(SQLiteError) -> OffendingRows {
        let values = columns.map { ScanSQL.column("p", $0) }
        let selected = zip(values, columns).map { "\($0) AS \(SQLIdentifier.quoted($1))" }.joined(separator: ", ")
        return try connection.offending("""
            SELECT min(p.Z_PK), \(selected), count(*) AS rows FROM \(SQLIdentifier.quoted(table)) p \
            WHERE p.Z_ENT IN (\(ScanSQL.numbers(numbers))) \
            AND \(values.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")) \
            GROUP BY \(values.joined(separator: ", ")) HAVING count(*) > 1
            """)
    }
}
