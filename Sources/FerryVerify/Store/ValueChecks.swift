import FerryModel
import FerryStore

/// The `values` section: required attributes are set, every value has the storage class (and
/// range) its attribute type needs, every row's `Z_OPT` is a version Core Data writes, and
/// uniqueness constraints hold.
///
/// The per-attribute conditions of a table are counted in one scan (`scan()`, FerryStore's
/// `ValueScan`), which also counts the table's rows per entity number for the store checks. Only a
/// condition that some rows break is queried again, for sample rows.
struct ValueChecks {
    static let section = "values"
    let context: StoreContext
    private var values: ValueScan { ValueScan(context.connection) }

    /// One condition on the rows of a table, with what a failure of it is reported as.
    struct Condition {
        let check: String
        let subject: String
        let condition: ColumnCondition
        let message: String
    }

    /// An entity table with its conditions and what one pass over it counted.
    struct TableScan {
        let table: TableLayout
        let root: String
        let members: [String]
        let conditions: [Condition]
        let counts: Result<ValueScan.Counts, SQLiteError>
    }

    /// Scans every entity table once: the store checks take the rows per entity number from it,
    /// `run` the conditions.
    func scan() -> [TableScan] {
        context.entityTables.map { table, root, members in
            let conditions = members.flatMap { attributeConditions(of: $0, in: table) } + versionCondition(of: table, root: root)
            let numbers = context.concreteNumbers(below: root)
            let counts = Result { () throws(SQLiteError) in try values.count(table.name, numbers: numbers, conditions: conditions.map(\.condition)) }
            return TableScan(table: table, root: root, members: members, conditions: conditions, counts: counts)
        }
    }

    func run(_ scans: [TableScan], _ recorder: inout CheckRecorder) {
        for scan in scans {
            if !scan.conditions.isEmpty { report(scan, &recorder) }
            for member in scan.members {
                uniqueness(of: member, in: scan.table, &recorder)
                validation(of: member, in: scan.table, &recorder)
            }
        }
    }

    /// Values the model's validation forbids (`AttributeValidation`: bounds, regular expressions,
    /// rules), which Core Data refuses when it saves an object but keeps in objects already stored
    /// (a migration carries them): a note, not a failure. New objects are held to them as they are
    /// written (`RecordValidation`). Rules Ferry cannot evaluate are noted too.
    private func validation(of entityName: String, in table: TableLayout, _ recorder: inout CheckRecorder) {
        guard let entity = context.model.entity(named: entityName) else { return }
        let numbers = entityFilter(entityName)
        for attribute in entity.attributes where !attribute.isTransient {
            guard let validation = AttributeValidation(attribute),
                  let column = table.column(for: .attribute(entity: entityName, name: attribute.name)) else { continue }
            let subject = "\(entityName).\(attribute.name)"
            for (rule, reason) in validation.unevaluated {
                recorder.note("\(subject): the model's validation rule '\(rule.predicate)' is not checked (\(reason))")
            }
            do {
                let found = try ValidationScan(context.connection).violations(of: column.name, in: table.name, numbers: numbers,
                                                                              type: attribute.type, validation: validation)
                guard found.rows.count > 0 else { continue }
                let first = found.rows.samples.first.map { sample in
                    " (first: Z_PK \(sample.primaryKey ?? 0), \(found.firstProblem ?? sample.values.values.first ?? ""))"
                } ?? ""
                recorder.note("\(subject): \(found.rows.count) row(s) fail the model's validation\(first), which Core Data "
                    + "refuses when it saves the object (kept: objects already stored keep them; not a failure)")
            } catch {
                recorder.couldNotRun(Self.section, check: "value-validation", subject: subject, error)
            }
        }
    }

    private func attributeConditions(of entityName: String, in table: TableLayout) -> [Condition] {
        guard let entity = context.model.entity(named: entityName) else { return [] }
        let filtered = entityFilter(entityName)
        var result: [Condition] = []
        for attribute in entity.attributes where !attribute.isTransient {
            guard let column = table.column(for: .attribute(entity: entityName, name: attribute.name)) else { continue }
            let subject = "\(entityName).\(attribute.name)"
            if !attribute.isOptional {
                result.append(Condition(check: "required-attribute", subject: subject,
                                        condition: ColumnCondition(column: column.name, entityNumbers: filtered, rule: nil),
                                        message: "required attribute \(attribute.name) is NULL"))
            }
            if let rule = StorageRule(attribute.type) {
                result.append(Condition(check: "storage-class", subject: subject,
                                        condition: ColumnCondition(column: column.name, entityNumbers: filtered, rule: rule),
                                        message: "\(attribute.type.xcodeName) attribute \(attribute.name) holds values of another storage class or out of range"))
            }
        }
        return result
    }

    /// Every row's `Z_OPT` is a version Core Data writes (`StorageRule.optimisticLockVersion`):
    /// real stores hold integers from 1 up and nothing else (Core Data's own history tables
    /// leave it NULL, but they are no entity's table).
    private func versionCondition(of table: TableLayout, root: String) -> [Condition] {
        guard let column = table.column(for: .optimisticLock) else { return [] }
        return [Condition(check: "optimistic-lock", subject: root,
                          condition: ColumnCondition(column: column.name, entityNumbers: nil, rule: .optimisticLockVersion),
                          message: "\(table.name).\(column.name) is not an optimistic-lock version Core Data writes "
                              + "(an integer from 1: 1 after the first save, one more on each update)")]
    }

    /// The entity numbers that pick the rows of `entityName` (and below) in its table; nil when
    /// the table holds one concrete entity and needs no `Z_ENT` filter (other numbers are the
    /// store checks' concern).
    private func entityFilter(_ entityName: String) -> [Int]? {
        let concrete = context.concreteNumbers(below: context.model.rootEntity(of: entityName)?.name ?? entityName)
        return concrete.count == 1 ? nil : context.numbers(below: entityName)
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
                let samples = try values.samples(of: condition.condition, in: scan.table.name)
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
                let found = try values.sharedValues(of: columns, in: table.name,
                                                                           numbers: context.numbers(below: entityName))
                guard found.count > 0 else { return nil }
                return VerificationFailure(check: "unique-constraint", subject: subject,
                                           message: "\(found.count) value(s) of \(constraint.joined(separator: ", ")) are shared by several rows",
                                           count: found.count, samples: found.samples)
            }
        }
    }
}
