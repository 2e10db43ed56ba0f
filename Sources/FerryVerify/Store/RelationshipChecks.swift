import FerryModel
import FerryStore

/// The `relationships` section: every pair points at existing rows of the right entities,
/// `Z<n>_` columns name the target's real entity, one-to-one sides agree, join tables hold each
/// pair once, order keys are set and distinct per parent, required to-ones are set, and to-many
/// counts respect min and max. Pairs read in both directions are checked once.
struct RelationshipChecks {
    static let section = "relationships"
    let context: StoreContext
    private var scan: PairScan { PairScan(context.connection, model: context.model, layout: context.layout) }

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
            guard let storage = RelationshipPairs(relationship, declaredBy: entity.name, rowsOf: entity.name,
                                                  model: context.model, layout: context.layout) else {
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

    private func pairChecks(_ storage: RelationshipPairs, subject: String, _ recorder: inout CheckRecorder) -> PairFigures {
        var found = PairFigures()
        recorder.check(Self.section, subject: subject, code: "edge-count") { () throws(SQLiteError) in
            found.edges = try scan.edges(of: storage)
            return nil
        }
        recorder.check(Self.section, subject: subject, code: "dangling") { () throws(SQLiteError) in
            guard let sourceTable = context.table(of: storage.sourceEntity), let destinationTable = context.table(of: storage.destinationEntity) else {
                return VerificationFailure(check: "dangling", subject: subject, message: "an end of the relationship has no table")
            }
            let rows = try scan.danglingPairs(of: storage, sourceTable: sourceTable.name, destinationTable: destinationTable.name)
            found.dangling = rows.count
            guard rows.count > 0 else { return nil }
            return VerificationFailure(
                check: storage.kind == .foreignKey ? ChangeCheck.danglingForeignKey : "dangling-join-row", subject: subject,
                message: "\(rows.count) pair(s) in \(storage.label) point at no row, or at a row that is not a \(storage.sourceEntity) → \(storage.destinationEntity)",
                count: rows.count, samples: rows.samples)
        }
        recorder.check(Self.section, subject: subject, code: "stale-index") { () throws(SQLiteError) in
            staleIndexFailure(try PairIndexScan(context.connection).disagreements(of: storage), subject: subject)
        }
        guard storage.kind == .joinTable else { return found }
        recorder.check(Self.section, subject: subject, code: "duplicate-join-row") { () throws(SQLiteError) in
            let rows = try scan.duplicateJoinRows(of: storage)
            found.duplicates = rows.count
            guard rows.count > 0 else { return nil }
            return VerificationFailure(check: "duplicate-join-row", subject: subject,
                                       message: "\(rows.count) pair(s) are stored more than once in \(storage.table)",
                                       count: rows.count, samples: rows.samples)
        }
        for key in scan.joinOrderKeys(of: storage) {
            recorder.check(Self.section, subject: subject, code: "order-key") { () throws(SQLiteError) in
                orderKeyFailure(try scan.orderKeyProblems(of: storage, key), order: key.order, subject: subject)
            }
        }
        return found
    }

    /// The failure of the indexes that disagree with the pairs' table (`PairIndexScan`): Core
    /// Data's to-many faults and Ferry's reader find the lists through them, the fingerprints read
    /// the table.
    private func staleIndexFailure(_ found: [IndexDisagreement], subject: String) -> VerificationFailure? {
        guard !found.isEmpty else { return nil }
        let names = found.map { "index \($0.index) disagrees with table \($0.table) over \($0.columns.joined(separator: ", "))" }
        let entries = found.reduce(Int64(0)) { $0 + $1.entries.count }
        let reindex = found.map { "REINDEX \($0.index)" }.joined(separator: "; ")
        return VerificationFailure(
            check: "stale-index", subject: subject,
            message: "\(names.joined(separator: "; ")) (\(entries) entries differ): Core Data and ferry read the lists through it, "
                + "so they see other pairs than the table holds (SQLite's quick_check does not compare them); "
                + "rebuild it from the table with `sqlite3 \(context.connection.path) '\(reindex)'`",
            count: entries, samples: Array(found.flatMap(\.entries.samples).prefix(context.connection.sampleLimit)))
    }

    // MARK: To-one

    private func toOneChecks(_ relationship: Relationship, of entity: String, storage: RelationshipPairs, subject: String,
                             _ recorder: inout CheckRecorder) {
        guard let table = context.table(of: entity) else { return }
        if let entityColumn = table.column(for: .toOneEntityNumber(entity: entity, relationship: relationship.name)),
           let destinationTable = context.table(of: relationship.destinationEntity) {
            recorder.check(Self.section, subject: subject, code: "foreign-key-entity") { () throws(SQLiteError) in
                let found = try scan.entityNumberMismatches(of: storage, entityColumn: entityColumn.name,
                                                            destinationTable: destinationTable.name)
                guard found.count > 0 else { return nil }
                return VerificationFailure(check: "foreign-key-entity", subject: subject,
                                           message: "\(found.count) row(s) name another entity in \(entityColumn.name) than their destination's Z_ENT",
                                           count: found.count, samples: found.samples)
            }
        }
        if !relationship.isOptional {
            recorder.check(Self.section, subject: subject, code: "required-relationship") { () throws(SQLiteError) in
                let found = try scan.missingDestinations(of: storage)
                guard found.count > 0 else { return nil }
                return VerificationFailure(check: "required-relationship", subject: subject,
                                           message: "\(found.count) row(s) have no destination for a required relationship",
                                           count: found.count, samples: found.samples)
            }
        }
        if let orderColumn = table.column(for: .orderKey(entity: entity, relationship: relationship.name)) {
            recorder.check(Self.section, subject: subject, code: "order-key") { () throws(SQLiteError) in
                orderKeyFailure(try scan.orderKeyProblems(of: storage, orderColumn: orderColumn.name), order: orderColumn.name, subject: subject)
            }
        }
        if let inverse = context.model.inverse(of: relationship), !inverse.isToMany,
           let inverseOwner = context.model.declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity),
           let destinationTable = context.table(of: relationship.destinationEntity),
           let inverseColumn = destinationTable.column(for: .toOne(entity: inverseOwner.name, relationship: inverse.name)) {
            // A one-to-one filled on one side only is what Core Data's own apps write (Apple
            // Notes' cloudState): a note. Pointing back at another object is a failure.
            do {
                let oneSided = try scan.oneSidedPairs(of: storage, destinationTable: destinationTable.name, inverseColumn: inverseColumn.name)
                if oneSided.count > 0 {
                    recorder.note("\(subject): \(oneSided.count) row(s) point at a destination whose \(inverse.name) is empty "
                        + "(Core Data keeps such one-sided one-to-ones; not a failure)")
                }
            } catch {
                recorder.couldNotRun(Self.section, check: "inverse-mismatch", subject: subject, error)
            }
            recorder.check(Self.section, subject: subject, code: "inverse-mismatch") { () throws(SQLiteError) in
                let found = try scan.inverseMismatches(of: storage, destinationTable: destinationTable.name, inverseColumn: inverseColumn.name)
                guard found.count > 0 else { return nil }
                return VerificationFailure(check: "inverse-mismatch", subject: subject,
                                           message: "\(found.count) row(s) point at a destination whose \(inverse.name) does not point back",
                                           count: found.count, samples: found.samples)
            }
        }
    }

    /// The failure of an order-key check: parents with members lacking a key in `order`, or sharing one.
    private func orderKeyFailure(_ found: OffendingRows, order: String, subject: String) -> VerificationFailure? {
        guard found.count > 0 else { return nil }
        return VerificationFailure(check: "order-key", subject: subject,
                                   message: "\(found.count) parent(s) have members without an integer order key in \(order) (NULL, text, a real), or sharing one",
                                   count: found.count, samples: found.samples)
    }

    // MARK: To-many

    /// Destinations per source within `minCount`…`maxCount`. A required to-many with `minCount` 0
    /// may be empty: Apple documents 0 as no minimum, counts enforced only on a value that is not
    /// nil (a required to-many's empty set is not), and SwiftData (framework 1523) writes such
    /// sources (CartKit's `CartModel.items`, required, a cart with no items). An empty set and no
    /// set look the same in a store, so a store cannot show a required to-many missing.
    private func toManyChecks(_ relationship: Relationship, of entity: String, storage: RelationshipPairs, subject: String,
                              _ recorder: inout CheckRecorder) {
        let minimum = relationship.minCount
        let maximum = relationship.maxCount
        guard minimum > 0 || maximum > 0, let sourceTable = context.table(of: entity) else { return }
        recorder.check(Self.section, subject: subject, code: "relationship-count") { () throws(SQLiteError) in
            let found = try scan.destinationCounts(of: storage, sourceTable: sourceTable.name, below: minimum, above: maximum)
            guard found.count > 0 else { return nil }
            return VerificationFailure(check: "relationship-count", subject: subject,
                                       message: "\(found.count) row(s) have fewer than \(minimum)\(maximum > 0 ? " or more than \(maximum)" : "") destinations",
                                       count: found.count, samples: found.samples)
        }
    }
}
