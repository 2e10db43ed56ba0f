import FerryModel
import FerryStore

/// The `relationships` section: every pair points at existing rows of the right entities,
/// `Z<n>_` columns name the target's real entity, one-to-one sides agree, join tables hold each
/// pair once, order keys are set and distinct per parent, required to-ones are set, and to-many
/// counts respect min and max. Pairs read in both directions are checked once.
struct RelationshipChecks {
    static let section = "relationships"
    let context: StoreContext

    /// What the pair checks found for one storage.
    private struct PairFigures {
        var edges: Int64 = 0
        var dangling: Int64 = 0
        var duplicates: Int64 = 0
    }

    func run(_ recorder: inout CheckRecorder) -> [RelationshipTally] {
        var figures: [String: PairFigures] = [:]
        var tallies: [RelationshipTally] = []
        for (entity, relationship) in context.storedRelationships {
            let subject = "\(entity.name).\(relationship.name)"
            guard let storage = RelationshipStorage.resolve(relationship, declaredBy: entity.name, rowsOf: entity.name, context: context) else {
                recorder.check(Self.section, subject: subject, code: "storage") {
                    VerificationFailure(check: "storage", subject: subject, message: "the layout has no column or join table for it")
                }
                continue
            }
            if figures[storage.identity] == nil {
                figures[storage.identity] = pairChecks(storage, subject: subject, &recorder)
            }
            if relationship.isToMany {
                toManyChecks(relationship, of: entity.name, storage: storage, subject: subject, &recorder)
            } else {
                toOneChecks(relationship, of: entity.name, storage: storage, subject: subject, &recorder)
            }
            let found = figures[storage.identity] ?? PairFigures()
            let (checks, failures) = recorder.tally(of: subject)
            tallies.append(RelationshipTally(relationship: subject, storage: storage.label, edges: found.edges,
                                             dangling: found.dangling, duplicates: found.duplicates,
                                             checks: checks, failures: failures))
        }
        return tallies
    }

    // MARK: Pairs

    private func pairChecks(_ storage: RelationshipStorage, subject: String, _ recorder: inout CheckRecorder) -> PairFigures {
        var found = PairFigures()
        let table = SQL.quoted(storage.table)
        let present = storage.kind == .foreignKey ? "\(storage.source) IS NOT NULL AND \(storage.destination) IS NOT NULL" : "1"
        recorder.check(Self.section, subject: subject, code: "edge-count") { () throws(SQLiteError) in
            found.edges = try context.queries.integers("SELECT count(*) FROM \(table) p WHERE \(storage.rowFilter)\(present)").first ?? 0
            return nil
        }
        recorder.check(Self.section, subject: subject, code: "dangling") { () throws(SQLiteError) in
            guard let sourceTable = context.table(of: storage.sourceEntity), let destinationTable = context.table(of: storage.destinationEntity) else {
                return VerificationFailure(check: "dangling", subject: subject, message: "an end of the relationship has no table")
            }
            let key = storage.kind == .foreignKey ? "p.Z_PK AS Z_PK, " : ""
            let sql = """
                SELECT \(key)\(storage.source) AS source, \(storage.destination) AS destination, \
                s.Z_ENT AS source_entity, d.Z_ENT AS destination_entity \
                FROM \(table) p LEFT JOIN \(SQL.quoted(sourceTable.name)) s ON s.Z_PK = \(storage.source) \
                LEFT JOIN \(SQL.quoted(destinationTable.name)) d ON d.Z_PK = \(storage.destination) \
                WHERE \(storage.rowFilter)\(present) AND (s.Z_PK IS NULL OR d.Z_PK IS NULL \
                OR typeof(\(storage.source)) <> 'integer' OR typeof(\(storage.destination)) <> 'integer' \
                OR s.Z_ENT NOT IN (\(SQL.numbers(context.numbers(below: storage.sourceEntity)))) \
                OR d.Z_ENT NOT IN (\(SQL.numbers(context.numbers(below: storage.destinationEntity)))))
                """
            let rows = try context.queries.offending(sql, keyed: storage.kind == .foreignKey)
            found.dangling = rows.count
            guard rows.count > 0 else { return nil }
            return VerificationFailure(
                check: storage.kind == .foreignKey ? "dangling-foreign-key" : "dangling-join-row", subject: subject,
                message: "\(rows.count) pair(s) in \(storage.label) point at no row, or at a row that is not a \(storage.sourceEntity) → \(storage.destinationEntity)",
                count: rows.count, samples: rows.samples)
        }
        guard storage.kind == .joinTable else { return found }
        recorder.check(Self.section, subject: subject, code: "duplicate-join-row") { () throws(SQLiteError) in
            let rows = try context.queries.offending("""
                SELECT \(storage.source) AS source, \(storage.destination) AS destination, count(*) AS copies \
                FROM \(table) p GROUP BY 1, 2 HAVING count(*) > 1
                """, keyed: false)
            found.duplicates = rows.count
            guard rows.count > 0 else { return nil }
            return VerificationFailure(check: "duplicate-join-row", subject: subject,
                                       message: "\(rows.count) pair(s) are stored more than once in \(storage.table)",
                                       count: rows.count, samples: rows.samples)
        }
        for column in orderColumns(storage) {
            recorder.check(Self.section, subject: subject, code: "order-key") { () throws(SQLiteError) in
                try orderKeys(table: storage.table, parent: column.parent, order: column.order, rowFilter: "", subject: subject)
            }
        }
        return found
    }

    /// The `Z_FOK_` columns of a join table, each with the key column of the objects it orders within.
    private func orderColumns(_ storage: RelationshipStorage) -> [(parent: String, order: String)] {
        guard let table = context.layout.table(named: storage.table), table.columns.count >= 2,
              case .join(let namingEntity, let namingRelationship) = table.kind else { return [] }
        return table.columns.compactMap { column in
            guard case .joinOrderKey(let entity, let relationship) = column.role else { return nil }
            let ownSide = entity == namingEntity && relationship == namingRelationship
            return (table.columns[ownSide ? 0 : 1].name, column.name)
        }
    }

    // MARK: To-one

    private func toOneChecks(_ relationship: Relationship, of entity: String, storage: RelationshipStorage, subject: String,
                             _ recorder: inout CheckRecorder) {
        guard let table = context.table(of: entity) else { return }
        let name = SQL.quoted(table.name)
        let rows = "p.Z_ENT IN (\(SQL.numbers(context.numbers(below: entity))))"
        if let entityColumn = table.column(for: .toOneEntityNumber(entity: entity, relationship: relationship.name)),
           let destinationTable = context.table(of: relationship.destinationEntity) {
            recorder.check(Self.section, subject: subject, code: "foreign-key-entity") { () throws(SQLiteError) in
                let number = SQL.column("p", entityColumn.name)
                let found = try context.queries.offending("""
                    SELECT p.Z_PK, \(storage.destination) AS destination, \(number) AS \(SQL.quoted(entityColumn.name)), \
                    d.Z_ENT AS destination_entity FROM \(name) p LEFT JOIN \(SQL.quoted(destinationTable.name)) d ON d.Z_PK = \(storage.destination) \
                    WHERE \(rows) AND ((\(storage.destination) IS NULL AND \(number) IS NOT NULL) \
                    OR (d.Z_PK IS NOT NULL AND \(number) IS NOT d.Z_ENT))
                    """)
                guard found.count > 0 else { return nil }
                return VerificationFailure(check: "foreign-key-entity", subject: subject,
                                           message: "\(found.count) row(s) name another entity in \(entityColumn.name) than their destination's Z_ENT",
                                           count: found.count, samples: found.samples)
            }
        }
        if !relationship.isOptional {
            recorder.check(Self.section, subject: subject, code: "required-relationship") { () throws(SQLiteError) in
                let found = try context.queries.offending("SELECT p.Z_PK FROM \(name) p WHERE \(rows) AND \(storage.destination) IS NULL")
                guard found.count > 0 else { return nil }
                return VerificationFailure(check: "required-relationship", subject: subject,
                                           message: "\(found.count) row(s) have no destination for a required relationship",
                                           count: found.count, samples: found.samples)
            }
        }
        if let orderColumn = table.column(for: .orderKey(entity: entity, relationship: relationship.name)) {
            recorder.check(Self.section, subject: subject, code: "order-key") { () throws(SQLiteError) in
                try orderKeys(table: table.name, parent: storage.destinationColumn, order: orderColumn.name,
                              rowFilter: "\(rows) AND \(storage.destination) IS NOT NULL AND ", subject: subject)
            }
        }
        if let inverse = context.model.inverse(of: relationship), !inverse.isToMany,
           let inverseOwner = context.model.declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity),
           let destinationTable = context.table(of: relationship.destinationEntity),
           let inverseColumn = destinationTable.column(for: .toOne(entity: inverseOwner.name, relationship: inverse.name)) {
            let back = SQL.column("d", inverseColumn.name)
            let join = "FROM \(name) p JOIN \(SQL.quoted(destinationTable.name)) d ON d.Z_PK = \(storage.destination) WHERE \(rows)"
            // A one-to-one filled on one side only is what Core Data's own apps write (Apple
            // Notes' cloudState): a note. Pointing back at another object is a failure.
            do {
                let oneSided = try context.queries.offending("SELECT p.Z_PK \(join) AND \(back) IS NULL")
                if oneSided.count > 0 {
                    recorder.note("\(subject): \(oneSided.count) row(s) point at a destination whose \(inverse.name) is empty "
                        + "(Core Data keeps such one-sided one-to-ones; not a failure)")
                }
            } catch {
                recorder.failed(Self.section, VerificationFailure(check: "inverse-mismatch", subject: subject,
                                                                   message: "the check could not run: \(error)"))
            }
            recorder.check(Self.section, subject: subject, code: "inverse-mismatch") { () throws(SQLiteError) in
                let found = try context.queries.offending("""
                    SELECT p.Z_PK, \(storage.destination) AS destination, \(back) AS inverse \(join) \
                    AND \(back) IS NOT NULL AND \(back) <> p.Z_PK
                    """)
                guard found.count > 0 else { return nil }
                return VerificationFailure(check: "inverse-mismatch", subject: subject,
                                           message: "\(found.count) row(s) point at a destination whose \(inverse.name) does not point back",
                                           count: found.count, samples: found.samples)
            }
        }
    }

    /// Every ordered member has an order key, distinct within its parent.
    private func orderKeys(table: String, parent: String, order: String, rowFilter: String,
                           subject: String) throws(SQLiteError) -> VerificationFailure? {
        let found = try context.queries.offending("""
            SELECT \(SQL.column("p", parent)) AS parent, \(SQL.column("p", order)) AS \(SQL.quoted(order)), count(*) AS members \
            FROM \(SQL.quoted(table)) p WHERE \(rowFilter)1 GROUP BY 1, 2 HAVING \(SQL.column("p", order)) IS NULL OR count(*) > 1
            """, keyed: false)
        guard found.count > 0 else { return nil }
        return VerificationFailure(check: "order-key", subject: subject,
                                   message: "\(found.count) parent(s) have members without an order key in \(order), or sharing one",
                                   count: found.count, samples: found.samples)
    }

    // MARK: To-many

    /// Destinations per source within `minCount`…`maxCount`. A required to-many with `minCount` 0
    /// may be empty: Apple documents 0 as no minimum, counts enforced only on a value that is not
    /// nil (a required to-many's empty set is not), and SwiftData (framework 1523) writes such
    /// sources (CartKit's `CartModel.items`, required, a cart with no items). An empty set and no
    /// set look the same in a store, so a store cannot show a required to-many missing.
    private func toManyChecks(_ relationship: Relationship, of entity: String, storage: RelationshipStorage, subject: String,
                              _ recorder: inout CheckRecorder) {
        let minimum = relationship.minCount
        let maximum = relationship.maxCount
        guard minimum > 0 || maximum > 0, let sourceTable = context.table(of: entity) else { return }
        recorder.check(Self.section, subject: subject, code: "relationship-count") { () throws(SQLiteError) in
            var bounds = ["count(\(storage.destination)) < \(minimum)"]
            if maximum > 0 { bounds.append("count(\(storage.destination)) > \(maximum)") }
            let found = try context.queries.offending("""
                SELECT s.Z_PK, count(\(storage.destination)) AS destinations FROM \(SQL.quoted(sourceTable.name)) s \
                LEFT JOIN \(SQL.quoted(storage.table)) p ON \(storage.rowFilter)\(storage.source) = s.Z_PK \
                WHERE s.Z_ENT IN (\(SQL.numbers(context.numbers(below: entity)))) GROUP BY s.Z_PK HAVING \(bounds.joined(separator: " OR "))
                """)
            guard found.count > 0 else { return nil }
            return VerificationFailure(check: "relationship-count", subject: subject,
                                       message: "\(found.count) row(s) have fewer than \(minimum)\(maximum > 0 ? " or more than \(maximum)" : "") destinations",
                                       count: found.count, samples: found.samples)
        }
    }
}
