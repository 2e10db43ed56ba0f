import FerryModel
import FerryStore

/// The `values` section: required attributes are set, every value has the storage class (and
/// range) its attribute type needs, and uniqueness constraints hold.
///
/// The per-attribute conditions of a table are counted in one scan (`scan()`), which also counts
/// the table's rows per entity number for the store checks. SQLite hands over the raw columns and
/// the values are classified here (`StorageRule`): a fraction of the cost of `sum(CASE
/// typeof(…) …)` per value in SQL. The same conditions as SQL find sample rows of a failure.
struct ValueChecks {
    static let section = "values"
    let context: StoreContext

    /// One condition on the rows of a table; `violation` is the same condition as an SQL
    /// predicate over alias `p`.
    struct Condition {
        let check: String
        let subject: String
        let column: String
        /// The entity numbers whose rows it applies to; nil for every row of the table.
        let entityNumbers: Set<Int64>?
        /// Nil: the value must not be NULL; otherwise the rule its stored value must follow.
        let rule: StorageRule?
        let violation: String
        let message: String
    }

    /// What the row-by-row count needs of a condition, as a trivial value (read per row without
    /// reference counting): its result column, rule, and entity filter (an index into the scan's
    /// filters).
    private struct RowCheck {
        let column: Int32
        let rule: StorageRule?
        let filter: Int?

        /// Whether the statement's current row, of entity `number`, breaks the condition.
        func isBroken(by statement: SQLiteStatement, entity number: Int64, filters: [Set<Int64>]) -> Bool {
            if let filter, !filters[filter].contains(number) { return false }
            guard let rule else { return statement.isNull(at: column) }
            return rule.isBroken(by: statement, at: column)
        }
    }

    /// An entity table with its conditions and what one pass over it counted.
    struct TableScan {
        let table: TableLayout
        let root: String
        let members: [String]
        let conditions: [Condition]
        let counts: Result<Counts, SQLiteError>
    }

    /// A table's rows, its rows per concrete entity number, and the rows breaking each condition.
    struct Counts {
        let rows: Int64
        let rowsByEntity: [Int: Int64]
        let violations: [Int64]
    }

    /// Scans every entity table once: the store checks take the rows per entity number from it,
    /// `run` the conditions.
    func scan() -> [TableScan] {
        context.entityTables.map { table, root, members in
            let conditions = members.flatMap { attributeConditions(of: $0, in: table) }
            let numbers = context.concreteNumbers(below: root)
            let counts = Result { () throws(SQLiteError) in try count(table.name, numbers: numbers, conditions: conditions) }
            return TableScan(table: table, root: root, members: members, conditions: conditions, counts: counts)
        }
    }

    /// `SELECT Z_ENT, <condition columns> FROM table`, counted row by row.
    private func count(_ table: String, numbers: [Int], conditions: [Condition]) throws(SQLiteError) -> Counts {
        var selected = ["Z_ENT"]
        var filters: [Set<Int64>] = []
        let checks = conditions.map { condition in
            let column: Int32
            if let index = selected.firstIndex(of: condition.column) {
                column = Int32(index)
            } else {
                selected.append(condition.column)
                column = Int32(selected.count - 1)
            }
            let filter = condition.entityNumbers.map { numbers in
                filters.append(numbers)
                return filters.count - 1
            }
            return RowCheck(column: column, rule: condition.rule, filter: filter)
        }
        let statement = try context.queries.database.prepare(
            "SELECT \(selected.map { SQL.column("p", $0) }.joined(separator: ", ")) FROM \(SQL.quoted(table)) p")
        defer { statement.finalize() }
        var rows: Int64 = 0
        var rowsByEntity = Dictionary(uniqueKeysWithValues: numbers.map { ($0, Int64(0)) })
        var violations = [Int64](repeating: 0, count: conditions.count)
        while try statement.step() {
            rows += 1
            // Z_ENT as SQL compares it: an integer (a NULL or other value matches no number).
            let number = statement.storageClass(at: 0) == .integer ? statement.int64(at: 0) : -1
            if let known = Int(exactly: number), rowsByEntity[known] != nil { rowsByEntity[known, default: 0] += 1 }
            for (index, check) in checks.enumerated() where check.isBroken(by: statement, entity: number, filters: filters) {
                violations[index] += 1
            }
        }
        return Counts(rows: rows, rowsByEntity: rowsByEntity, violations: violations)
    }

    func run(_ scans: [TableScan], _ recorder: inout CheckRecorder) {
        for scan in scans {
            if !scan.conditions.isEmpty { report(scan, &recorder) }
            for member in scan.members { uniqueness(of: member, in: scan.table, &recorder) }
        }
    }

    private func attributeConditions(of entityName: String, in table: TableLayout) -> [Condition] {
        guard let entity = context.model.entity(named: entityName) else { return [] }
        // A table of one concrete entity needs no Z_ENT filter (other numbers are the store checks' concern).
        let concrete = context.concreteNumbers(below: context.model.rootEntity(of: entityName)?.name ?? entityName)
        let filtered = concrete.count == 1 ? nil : context.numbers(below: entityName)
        let rows = filtered.map { "p.Z_ENT IN (\(SQL.numbers($0))) AND " } ?? ""
        let entityNumbers = filtered.map { Set($0.map(Int64.init)) }
        var result: [Condition] = []
        for attribute in entity.attributes where !attribute.isTransient {
            guard let column = table.column(for: .attribute(entity: entityName, name: attribute.name)) else { continue }
            let value = SQL.column("p", column.name)
            let subject = "\(entityName).\(attribute.name)"
            if !attribute.isOptional {
                result.append(Condition(check: "required-attribute", subject: subject, column: column.name,
                                        entityNumbers: entityNumbers, rule: nil, violation: "\(rows)\(value) IS NULL",
                                        message: "required attribute \(attribute.name) is NULL"))
            }
            if let rule = StorageRule(attribute.type) {
                result.append(Condition(check: "storage-class", subject: subject, column: column.name,
                                        entityNumbers: entityNumbers, rule: rule, violation: "\(rows)\(rule.violationSQL(value))",
                                        message: "\(attribute.type.xcodeName) attribute \(attribute.name) holds values of another storage class or out of range"))
            }
        }
        return result
    }

    /// Records the conditions of a scanned table; only a condition that some rows break is
    /// queried again for sample rows.
    private func report(_ scan: TableScan, _ recorder: inout CheckRecorder) {
        let violations: [Int64]
        switch scan.counts {
        case .success(let counts): violations = counts.violations
        case .failure(let error):
            recorder.check(Self.section, subject: scan.root, code: "values") { () throws(SQLiteError) in throw error }
            return
        }
        for (condition, count) in zip(scan.conditions, violations) {
            recorder.check(Self.section, subject: condition.subject, code: condition.check) { () throws(SQLiteError) in
                guard count > 0 else { return nil }
                let samples = try context.queries.offending("""
                    SELECT p.Z_PK, \(SQL.column("p", condition.column)) AS \(SQL.quoted(condition.column)) \
                    FROM \(SQL.quoted(scan.table.name)) p WHERE \(condition.violation) LIMIT \(context.queries.sampleLimit)
                    """).samples
                return VerificationFailure(check: condition.check, subject: condition.subject,
                                           message: "\(count) row(s): \(condition.message)", count: count, samples: samples)
            }
        }
    }

    /// No two rows of the entity's hierarchy share the values of a uniqueness constraint (rows
    /// with a NULL among them do not conflict, as in SQLite's unique indexes).
    private func uniqueness(of entityName: String, in table: TableLayout, _ recorder: inout CheckRecorder) {
        guard let entity = context.model.entity(named: entityName) else { return }
        for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
            let subject = "\(entityName).\(constraint.joined(separator: "+"))"
            recorder.check(Self.section, subject: subject, code: "unique-constraint") { () throws(SQLiteError) in
                let columns = constraint.compactMap { context.propertyColumn($0, of: entityName)?.name }
                guard columns.count == constraint.count else {
                    return VerificationFailure(check: "unique-constraint", subject: subject, message: "a property of the constraint has no column")
                }
                let values = columns.map { SQL.column("p", $0) }
                let selected = zip(values, columns).map { "\($0) AS \(SQL.quoted($1))" }.joined(separator: ", ")
                let found = try context.queries.offending("""
                    SELECT min(p.Z_PK), \(selected), count(*) AS rows FROM \(SQL.quoted(table.name)) p \
                    WHERE p.Z_ENT IN (\(SQL.numbers(context.numbers(below: entityName)))) \
                    AND \(values.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")) \
                    GROUP BY \(values.joined(separator: ", ")) HAVING count(*) > 1
                    """)
                guard found.count > 0 else { return nil }
                return VerificationFailure(check: "unique-constraint", subject: subject,
                                           message: "\(found.count) value(s) of \(constraint.joined(separator: ", ")) are shared by several rows",
                                           count: found.count, samples: found.samples)
            }
        }
    }
}
