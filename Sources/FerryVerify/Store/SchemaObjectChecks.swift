import FerryModel
import FerryStore

/// Schema objects Core Data never writes, in the `store` section: they decide which writes the
/// store accepts, so a store that holds one can refuse an app's valid save or Ferry's, or change
/// rows nobody asked to change, while every row checks out. Per table (one check each of the
/// entity and join tables): triggers other than Core Data's (`StoreTriggers`), `CHECK`, `NOT NULL`,
/// `REFERENCES`, a collation other than `BINARY`, and unique or partial indexes other than the
/// uniqueness constraints' own (over their columns, `BINARY`). Core Data declares none of these:
/// its columns are plain, its join tables' primary keys and its uniqueness constraints' indexes
/// (or, before framework 866, their `UNIQUE` columns) are all it makes SQLite enforce. One more
/// check for the triggers on other tables (`Z_PRIMARYKEY`, the history's).
struct SchemaObjectChecks {
    static let code = StoreVerifier.schemaObjectsCheck
    let context: StoreContext
    let schema: DatabaseSchema

    func run(_ recorder: inout CheckRecorder) {
        let triggers = StoreTriggers(schema, layout: context.layout)
        var checkedTables: Set<String> = []
        let scan = TableDeclarationScan(context.connection)
        for table in context.layout.tables {
            let subject: String
            switch table.kind {
            case .entity(let root, _): subject = root
            case .join(let entity, let relationship): subject = "\(entity).\(relationship)"
            case .bookkeeping: continue
            }
            guard let stored = schema.table(named: table.name) else { continue }
            checkedTables.insert(table.name.lowercased())
            let own = triggers.foreign.filter { $0.table.lowercased() == table.name.lowercased() }
            recorder.check(StoreHealthChecks.section, subject: subject, code: Self.code) { () throws(SQLiteError) in
                let declared = try scan.declarations(of: stored.name, createStatement: stored.createStatement)
                let problems = own.map(\.description) + declarationProblems(declared, of: table)
                return failure(problems, table: table.name, subject: subject)
            }
        }
        recorder.check(StoreHealthChecks.section, subject: "store", code: Self.code) {
            let others = triggers.foreign.filter { !checkedTables.contains($0.table.lowercased()) }
            return failure(others.map(\.description), table: nil, subject: "store")
        }
        for trigger in triggers.unchecked {
            recorder.note("trigger \(trigger.name) on \(trigger.table): named as Core Data names the triggers of a derived attribute "
                + "whose triggers Ferry does not know, so its statement is not checked")
        }
    }

    private func failure(_ problems: [String], table: String?, subject: String) -> VerificationFailure? {
        guard !problems.isEmpty else { return nil }
        let place = table.map { "table \($0) holds" } ?? "the store holds"
        return VerificationFailure(
            check: Self.code, subject: subject,
            message: "\(place) what Core Data never writes, so Core Data's saves and Ferry's can be refused or change other rows: "
                + problems.joined(separator: "; "),
            count: Int64(problems.count),
            samples: problems.prefix(context.connection.sampleLimit).map { FailureSample(primaryKey: nil, values: ["object": $0]) })
    }

    /// The columns' and indexes' declarations of one table that Core Data never makes.
    private func declarationProblems(_ declared: TableDeclarations, of table: TableLayout) -> [String] {
        var problems: [String] = []
        let isJoin = if case .join = table.kind { true } else { false }
        if declared.hasCheck { problems.append("a CHECK constraint") }
        for column in declared.columns {
            // A join table's key columns never hold NULL (a row pairs two objects): NOT NULL there,
            // as a WITHOUT ROWID key implies it, refuses nothing Core Data writes.
            if column.isNotNull, !(column.isPrimaryKey && isJoin) { problems.append("column \(column.name) is NOT NULL") }
            if column.collation.uppercased() != "BINARY" { problems.append("column \(column.name) collates \(column.collation)") }
        }
        problems += declared.references.map { "foreign key \($0)" }
        let constraints = uniquenessColumns(of: table)
        for index in declared.indexes where index.origin != "pk" && (index.isUnique || index.isPartial) {
            let terms = zip(index.columns, index.collations).map { column, collation in
                "\(column ?? "an expression")\(collation.uppercased() == "BINARY" ? "" : " COLLATE \(collation)")"
            }
            let kind = index.isUnique ? "unique index" : "partial index"
            let described = "\(kind) \(index.name) (\(terms.joined(separator: ", ")))"
            if index.isUnique, !implied(index, by: constraints) {
                problems.append("\(described), which refuses values no uniqueness constraint of the model refuses")
            } else if !index.isUnique {
                problems.append("\(described), which holds only the rows its WHERE clause picks")
            }
        }
        return problems
    }

    /// Whether every pair of rows `index` refuses a uniqueness constraint refuses too: its terms
    /// are columns compared byte for byte, among them all of a constraint's. (Whether a
    /// constraint has an index that enforces it is the `unique-index` check's.)
    private func implied(_ index: TableDeclarations.Index, by constraints: [Set<String>]) -> Bool {
        guard !index.collations.contains(where: { $0.uppercased() != "BINARY" }) else { return false }
        let columns = index.columns.compactMap { $0?.lowercased() }
        guard columns.count == index.columns.count else { return false }
        return constraints.contains { !$0.isEmpty && $0.isSubset(of: Set(columns)) }
    }

    /// The columns of each uniqueness constraint of the entities of `table` (lowercased).
    private func uniquenessColumns(of table: TableLayout) -> [Set<String>] {
        guard case .entity(_, let members) = table.kind else { return [] }
        return members.flatMap { member -> [Set<String>] in
            guard let entity = context.model.entity(named: member) else { return [] }
            return entity.uniquenessConstraints.map { constraint in
                Set(constraint.compactMap { context.propertyColumn($0, of: member)?.name.lowercased() })
            }
        }
    }
}
