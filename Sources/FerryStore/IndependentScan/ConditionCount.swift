/// One pass of `ValueScan.count` over a table, or over a range of its keys: how many rows break
/// each `ColumnCondition`, and the rows per entity number asked for. A value of trivial parts, so
/// one plan can count on two threads at once.
struct ConditionCount: Sendable {
    /// The keys one pass counts.
    enum Keys: Sendable {
        case upTo(Int64)
        case above(Int64)
    }

    private let table: String
    private let numbers: [Int]
    private let selected: [String]
    private let checks: [RowCheck]
    private let filters: [EntityNumberSet]
    private let conditionCount: Int

    /// What the row-by-row count needs of a condition, as a trivial value (read per row without
    /// reference counting): its result column, rule, and entity filter (an index into the
    /// filters).
    private struct RowCheck: Sendable {
        let column: Int32
        let rule: StorageRule?
        let filter: Int?

        /// Whether `row`, of entity `number`, breaks the condition.
        func isBroken<Row: ScannedRow>(by row: Row, entity number: Int64, filters: [EntityNumberSet]) -> Bool {
            if let filter, !filters[filter].contains(number) { return false }
            guard let rule else { return row.storageClass(at: column) == .null }
            return rule.isBroken(by: row, at: column)
        }
    }

    init(table: String, numbers: [Int], conditions: [ColumnCondition]) {
        var selected = ["Z_ENT"]
        var filters: [EntityNumberSet] = []
        checks = conditions.map { condition in
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
        self.table = table
        self.numbers = numbers
        self.selected = selected
        self.filters = filters
        conditionCount = conditions.count
    }

    /// Counts the rows of `keys` (every row when nil) on `database`.
    func run(on database: SQLiteDatabase, keys: Keys?) throws(SQLiteError) -> ValueScan.Counts {
        let range = switch keys {
        case nil: ""
        case .upTo(let key): " WHERE p.Z_PK <= \(key)"
        case .above(let key): " WHERE p.Z_PK > \(key)"
        }
        let statement = try database.prepare(
            "SELECT \(selected.map { ScanSQL.column("p", $0) }.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table)) p\(range)")
        defer { statement.finalize() }
        var tally = Tally(self)
        let row = StatementRow(statement: statement)
        while try statement.step() { tally.add(row) }
        return tally.counts
    }

    /// Counts every row of the table from the pages of `file`, which holds every committed page
    /// of the database `database` reads (no write-ahead log content); the table's root page and
    /// columns are asked of `database`.
    func run(reading file: DatabaseFile, of database: SQLiteDatabase) throws(FileScanRefusal) -> ValueScan.Counts {
        let layout = try StoredTableShape(table, in: database)
        let scan = TableFileScan(file: file, rootPage: layout.rootPage, columns: try layout.columns(selected))
        var tally = Tally(self)
        try scan.forEachRow { tally.add($0) }
        return tally.counts
    }

    /// The counts of the rows seen so far.
    private struct Tally {
        private let numbers: [Int]
        private let checks: [RowCheck]
        private let filters: [EntityNumberSet]
        private var rows: Int64 = 0
        /// Rows per entity number asked for: a slot per number, found by the number itself.
        private let counted: EntityNumberSet
        private var rowsByNumber: [Int64]
        private var violations: [Int64]

        init(_ count: ConditionCount) {
            numbers = count.numbers
            checks = count.checks
            filters = count.filters
            counted = EntityNumberSet(count.numbers)
            rowsByNumber = [Int64](repeating: 0, count: (count.numbers.max() ?? -1) + 1)
            violations = [Int64](repeating: 0, count: count.conditionCount)
        }

        mutating func add<Row: ScannedRow>(_ row: borrowing Row) {
            rows += 1
            // Z_ENT as SQL compares it: an integer (a NULL or other value matches no number).
            let number = row.storageClass(at: 0) == .integer ? row.int64(at: 0) : -1
            if counted.contains(number) { rowsByNumber[Int(number)] += 1 }
            for index in checks.indices where checks[index].isBroken(by: row, entity: number, filters: filters) {
                violations[index] += 1
            }
        }

        var counts: ValueScan.Counts {
            let rowsByEntity = Dictionary(uniqueKeysWithValues: numbers.map { ($0, $0 >= 0 ? rowsByNumber[$0] : 0) })
            return ValueScan.Counts(rows: rows, rowsByEntity: rowsByEntity, violations: violations)
        }
    }
}
