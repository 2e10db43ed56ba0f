import FerryModel
import FerryStore

/// The `values` section: required attributes are set, every value has the storage class (and
/// range) its attribute type needs, and uniqueness constraints hold.
///
/// The per-attribute conditions of a table are counted in one scan (`SELECT sum(cond), … FROM
/// table`); only a condition that some rows break is queried again for sample rows.
struct ValueChecks {
    static let section = "values"
    let context: StoreContext

    /// One condition on the rows of a table; `violation` is an SQL predicate over alias `p`.
    private struct Condition {
        let check: String
        let subject: String
        let column: String
        let violation: String
        let message: String
    }

    func run(_ recorder: inout CheckRecorder) {
        for (table, root, members) in context.entityTables {
            let conditions = members.flatMap { attributeConditions(of: $0, in: table) }
            if !conditions.isEmpty { scan(table, conditions: conditions, root: root, &recorder) }
            for member in members { uniqueness(of: member, in: table, &recorder) }
        }
    }

    private func attributeConditions(of entityName: String, in table: TableLayout) -> [Condition] {
        guard let entity = context.model.entity(named: entityName) else { return [] }
        // A table of one concrete entity needs no Z_ENT filter (other numbers are the store checks' concern).
        let concrete = context.concreteNumbers(below: context.model.rootEntity(of: entityName)?.name ?? entityName)
        let rows = concrete.count == 1 ? "1" : "p.Z_ENT IN (\(SQL.numbers(context.numbers(below: entityName))))"
        var result: [Condition] = []
        for attribute in entity.attributes where !attribute.isTransient {
            guard let column = table.column(for: .attribute(entity: entityName, name: attribute.name)) else { continue }
            let value = SQL.column("p", column.name)
            let subject = "\(entityName).\(attribute.name)"
            if !attribute.isOptional {
                result.append(Condition(check: "required-attribute", subject: subject, column: column.name,
                                        violation: "\(rows) AND \(value) IS NULL",
                                        message: "required attribute \(attribute.name) is NULL"))
            }
            if let fits = Self.fits(attribute.type, value) {
                result.append(Condition(check: "storage-class", subject: subject, column: column.name,
                                        violation: "\(rows) AND \(value) IS NOT NULL AND NOT (\(fits))",
                                        message: "\(attribute.type.xcodeName) attribute \(attribute.name) holds values of another storage class or out of range"))
            }
        }
        return result
    }

    /// What a stored value of a type must look like: the storage class Core Data writes (or that
    /// the column's affinity turns it into), and the type's range.
    static func fits(_ type: AttributeType, _ value: String) -> String? {
        switch type {
        case .integer16, .integer32:
            guard let range = type.integerRange else { return nil }
            return "typeof(\(value)) = 'integer' AND \(value) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        case .integer64: return "typeof(\(value)) = 'integer'"
        case .boolean: return "typeof(\(value)) = 'integer' AND \(value) IN (0, 1)"
        // TIMESTAMP and DECIMAL columns have numeric affinity: integral reals are kept as integers.
        case .date, .decimal, .double, .float: return "typeof(\(value)) IN ('real', 'integer')"
        case .string, .uri: return "typeof(\(value)) = 'text'"
        case .binary, .transformable: return "typeof(\(value)) = 'blob'"
        case .uuid: return "typeof(\(value)) = 'blob' AND length(\(value)) = 16"
        case .undefined, .objectID, .composite: return nil
        }
    }

    private func scan(_ table: TableLayout, conditions: [Condition], root: String, _ recorder: inout CheckRecorder) {
        let sums = conditions.map { "sum(\($0.violation))" }.joined(separator: ", ")
        var counts: [Int64] = []
        do { counts = try context.queries.integers("SELECT \(sums) FROM \(SQL.quoted(table.name)) p") } catch {
            recorder.check(Self.section, subject: root, code: "values") { () throws(SQLiteError) in throw error }
            return
        }
        for (condition, count) in zip(conditions, counts) {
            recorder.check(Self.section, subject: condition.subject, code: condition.check) { () throws(SQLiteError) in
                guard count > 0 else { return nil }
                let samples = try context.queries.offending("""
                    SELECT p.Z_PK, \(SQL.column("p", condition.column)) AS \(SQL.quoted(condition.column)) \
                    FROM \(SQL.quoted(table.name)) p WHERE \(condition.violation) LIMIT \(context.queries.sampleLimit)
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
