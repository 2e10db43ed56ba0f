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

        /// Whether the statement's current row, of entity `number`, breaks the condition.
        func isBroken(by statement: SQLiteStatement, entity number: Int64, filters: [EntityNumberSet]) -> Bool {
            if let filter, !filters[filter].contains(number) { return false }
            guard let rule else { return statement.isNull(at: column) }
            return rule.isBroken(by: statement, at: column)
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
        var rows: Int64 = 0
        // Rows per entity number asked for: a slot per number, found by the number itself.
        let counted = EntityNumberSet(numbers)
        var rowsByNumber = [Int64](repeating: 0, count: (numbers.max() ?? -1) + 1)
        var violations = [Int64](repeating: 0, count: conditionCount)
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
        return ValueScan.Counts(rows: rows, rowsByEntity: rowsByEntity, violations: violations)
    }
}
