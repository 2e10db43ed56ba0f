import FerryModel
import FerryStore

/// The `values` section: required attributes are set, every value has the storage class (and
/// range) its attribute type needs, and uniqueness constraints hold.
///
/// The per-attribute conditions of a table are counted in one scan (`scan()`), which also counts
/// the table's rows per entity number for the store checks.
struct ValueChecks {
    static let section = "values"
    let context: StoreContext

    /// One condition on the rows of a table; `violation` is an SQL predicate over alias `p`.
    struct Condition {
        let check: String
        let subject: String
        let column: String
        let violation: String
        let message: String
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

    /// Scans every entity table once (`SELECT count(*), sum(p.Z_ENT = n), …, sum(cond), … FROM
    /// table p`): the store checks take the rows per entity number from it, `run` the conditions.
    func scan() -> [TableScan] {
        context.entityTables.map { table, root, members in
            let conditions = members.flatMap { attributeConditions(of: $0, in: table) }
            let numbers = context.concreteNumbers(below: root)
            let sums = ["count(*)"] + numbers.map { "sum(p.Z_ENT = \($0))" } + conditions.map { "sum(\($0.violation))" }
            let counts = Result { () throws(SQLiteError) in
                // An aggregate without GROUP BY yields one row, of every sum.
                let values = try context.queries.integers("SELECT \(sums.joined(separator: ", ")) FROM \(SQL.quoted(table.name)) p")
                return Counts(rows: values.first ?? 0, rowsByEntity: Dictionary(zip(numbers, values.dropFirst()), uniquingKeysWith: +),
                              violations: Array(values.dropFirst(1 + numbers.count)))
            }
            return TableScan(table: table, root: root, members: members, conditions: conditions, counts: counts)
        }
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
        let rows = concrete.count == 1 ? "" : "p.Z_ENT IN (\(SQL.numbers(context.numbers(below: entityName)))) AND "
        var result: [Condition] = []
        for attribute in entity.attributes where !attribute.isTransient {
            guard let column = table.column(for: .attribute(entity: entityName, name: attribute.name)) else { continue }
            let value = SQL.column("p", column.name)
            let subject = "\(entityName).\(attribute.name)"
            if !attribute.isOptional {
                result.append(Condition(check: "required-attribute", subject: subject, column: column.name,
                                        violation: "\(rows)\(value) IS NULL",
                                        message: "required attribute \(attribute.name) is NULL"))
            }
            if let misfits = Self.misfits(attribute.type, value) {
                result.append(Condition(check: "storage-class", subject: subject, column: column.name,
                                        violation: "\(rows)\(misfits)",
                                        message: "\(attribute.type.xcodeName) attribute \(attribute.name) holds values of another storage class or out of range"))
            }
        }
        return result
    }

    /// Whether a stored value (not NULL) does not look as a type needs: the storage class Core
    /// Data writes (or that the column's affinity turns it into), and the type's range. One
    /// `CASE typeof(…)` with the range inside its branch, so each value is classified once.
    static func misfits(_ type: AttributeType, _ value: String) -> String? {
        func storageClass(_ expected: [(storageClass: String, otherwise: String)]) -> String {
            let branches = expected.map { "WHEN '\($0.storageClass)' THEN \($0.otherwise) " }.joined()
            return "CASE typeof(\(value)) \(branches)WHEN 'null' THEN 0 ELSE 1 END"
        }
        switch type {
        case .integer16, .integer32:
            guard let range = type.integerRange else { return nil }
            return storageClass([("integer", "\(value) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound)")])
        case .integer64: return storageClass([("integer", "0")])
        case .boolean: return storageClass([("integer", "\(value) NOT IN (0, 1)")])
        // TIMESTAMP and DECIMAL columns have numeric affinity: integral reals are kept as integers.
        case .date, .decimal, .double, .float: return storageClass([("real", "0"), ("integer", "0")])
        case .string, .uri: return storageClass([("text", "0")])
        case .binary, .transformable: return storageClass([("blob", "0")])
        case .uuid: return storageClass([("blob", "length(\(value)) <> 16")])
        case .undefined, .objectID, .composite: return nil
        }
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
