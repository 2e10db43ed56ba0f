import FerryFormats
import FerryModel
import FerryStore

/// Verifies a Core Data store on its own: the file's health and bookkeeping, every relationship,
/// every value, and fingerprints of records and pairs that a migration can compare with the ones
/// it computes over its sources (see `Fingerprint`, `FingerprintComparison`).
///
/// The big checks are set-based SQL (counts, `LEFT JOIN`s for dangling keys, `GROUP BY … HAVING`
/// for duplicates) over names taken from the model's `StoreLayout`; fingerprints stream records,
/// in `verify` on a worker thread with a connection of its own (`FingerprintPass`) while the SQL
/// checks run, as does SQLite's integrity check. One scan per table counts its rows per entity
/// and the values that break a condition (`ValueChecks.scan`). Memory does not grow with the store. The store is opened read-only and never
/// changed. A verifier is used by one thread.
public final class StoreVerifier {
    public let path: String
    /// The model version the store is read with.
    public let model: ManagedObjectModel
    /// How that model was chosen, for reports.
    public let modelDescription: String
    public let layout: StoreLayout
    private let store: CoreDataStoreReader
    private let connection: ScanConnection
    /// Nil when the store lacks a table or column of the model (reported by `verify`).
    private let records: StoreRecordReader?
    private let schemaProblem: StoreReaderError?
    /// The store file's and its `-wal`'s stamp just before it was opened: a report is only of one
    /// state when it is the same after the checks.
    private let openingStamp: StoreFileStamp

    /// Opens the store read-only and picks its model.
    /// - Throws: `VerificationError` when the store cannot be read or no model fits it.
    public init(path: String, model source: VerificationModel = .modelCache) throws(VerificationError) {
        self.path = path
        openingStamp = StoreFileStamp(path)
        do { store = try CoreDataStoreReader(path: path) } catch { throw .unreadableStore(error) }
        do { connection = try ScanConnection(path: path, sampleLimit: VerificationOptions().sampleLimit) } catch {
            throw .unreadableStore(.sqlite(error))
        }
        (model, modelDescription) = try ModelChoice.resolve(source, store: store)
        do { layout = try StoreLayout(model: model, existing: store.facts) } catch {
            throw .invalidModel(path: path, reason: ErrorText.reason(of: error, at: path))
        }
        do {
            records = try store.records(model: model)
            schemaProblem = nil
        } catch {
            switch error {
            case .missingTable, .missingColumn:
                records = nil
                schemaProblem = error
            default:
                throw .unreadableStore(error)
            }
        }
    }

    /// Runs every store-side check and computes the fingerprints. `progress` is told each phase
    /// as it begins (for a progress line).
    public func verify(options: VerificationOptions = VerificationOptions(),
                       progress: (String) -> Void = { _ in }) throws(VerificationError) -> VerificationReport {
        let context = makeContext(options.sampleLimit)
        var recorder = CheckRecorder()
        var report = VerificationReport(store: path, model: modelDescription)
        // Before the schema: a store numbered otherwise than Core Data numbers the model lacks
        // the tables and columns named by its numbers, and this says why.
        EntityNumberingChecks(context: context, primaryKeys: store.primaryKeys).run(&recorder)
        guard records != nil, schemaProblem == nil else {
            recorder.check(StoreHealthChecks.section, subject: "store", code: "schema") {
                VerificationFailure(check: "schema", subject: "store", message: schemaProblem.map { "\($0)" } ?? "the store does not fit the model")
            }
            report.sections = recorder.sections
            return report
        }
        // The fingerprints read every record once; the SQL checks mostly scan in SQLite: each on
        // its own connection and thread, and
        // SQLite's integrity check too. One scan per table counts its rows per entity and the
        // values that break a condition.
        let fingerprintPass = options.fingerprints ? FingerprintPass(path: path, model: model, layout: layout) : nil
        let integrity = StoreHealthChecks.startIntegrityCheck(path: path, full: options.fullIntegrityCheck)
        let values = ValueChecks(context: context)
        progress("scanning every table")
        let scans = values.scan()
        progress("checking the store")
        let counts = StoreHealthChecks(context: context, store: store, integrity: integrity).run(scans, &recorder)
        SchemaObjectChecks(context: context, schema: store.schema).run(&recorder)
        progress("checking relationships")
        report.relationships = RelationshipChecks(context: context).run(&recorder)
        progress("checking values")
        values.run(scans, &recorder)
        DerivedValueChecks(context: context, computed: options.derivedCountsAreComputed).run(&recorder)
        if let fingerprintPass {
            progress("fingerprinting records")
            let results = try fingerprintPass.wait()
            report.fingerprints = results.records.map(\.entry)
            report.edgeFingerprints = results.edges
            noteUnreadable(results, sampleLimit: options.sampleLimit, &recorder)
        }
        report.sections = recorder.sections
        report.notes += recorder.notes
        report.entities = model.entitiesInStoreOrder.map { entity in
            let rows = context.numbers(below: entity.name).reduce(Int64(0)) { $0 + (counts[$1] ?? 0) }
            let (checks, failures) = recorder.tally(of: entity.name)
            return EntityTally(entity: entity.name, rows: rows, checks: checks, failures: failures)
        }
        // Each check reads on its own connection (or a copy, or the file as immutable bytes): a
        // store written meanwhile gives failures of no state the store was ever in.
        guard StoreFileStamp(path) == openingStamp else { throw .changedWhileVerifying(path: path) }
        // Checks that could not run, and no failure besides: nothing is known to fail or to hold.
        if let error = recorder.noVerdict(path: path, failures: report.failures.count) { throw error }
        return report
    }

    /// The failures of `verify`'s relationship checks (`RelationshipChecks`), and nothing else:
    /// the damage a reader of the store's records passes over or mends without a word (a key
    /// naming no row, an entity column naming another entity than its row's, a one-to-one whose
    /// sides disagree, an empty required relationship, order keys missing or repeated). Set-based
    /// SQL over the pairs: it reads no values. For the verbs that read a store (export, migrate)
    /// to say what of it they could not keep as it is. Empty when the store lacks a table or
    /// column of the model (a reader refuses such a store).
    /// - Throws: `VerificationError.checksCouldNotRun` when one of them could not run: the rest
    ///   are no verdict on the relationships.
    public func relationshipFailures(sampleLimit: Int = VerificationOptions().sampleLimit) throws(VerificationError) -> [VerificationFailure] {
        guard records != nil, schemaProblem == nil else { return [] }
        var recorder = CheckRecorder()
        _ = RelationshipChecks(context: makeContext(sampleLimit)).run(&recorder)
        if !recorder.unrun.isEmpty, let error = recorder.noVerdict(path: path, failures: recorder.unrun.count) { throw error }
        return recorder.sections.flatMap(\.failures)
    }

    /// The check (`VerificationFailure.check`) failing schema objects Core Data never writes
    /// (triggers, `CHECK`, `NOT NULL`, collations, foreign keys, unique and partial indexes): a
    /// copy of the store's records (a backup, which a restore writes into Core Data's own
    /// schema) holds none of them.
    public static let schemaObjectsCheck = "schema-objects"

    /// The revision of the fingerprints `verify` and `fingerprints()` compute, for whoever keeps
    /// them to compare later (a migration receipt): fingerprints kept at another revision are not
    /// comparable. 2: each record's term includes its `Z_PK`.
    public static let fingerprintRevision = 2

    /// The fingerprints `verify` reports, without its checks: of every entity's records over all
    /// their stored attributes, each tied to its `Z_PK`, and of every relationship's pairs. For a store known to be sound
    /// (one this process just wrote) whose fingerprints are all that is wanted.
    /// - Throws: `VerificationError` when the store cannot be read or a record cannot be read
    ///   as its model says.
    /// - Parameters:
    ///   - pairKeying: how the ends of each pair are named (`.preferred`: as `verify` reports them).
    ///   - pairsBetweenRecordsOnly: leave out the pairs with an end that names no record of its
    ///     entity (a dangling key or join row), which `verify` counts: the pairs a copy of the
    ///     store holds that could keep only pairs between records (a restore of its backup).
    public func fingerprints(pairKeying: PairKeying = .preferred, pairsBetweenRecordsOnly: Bool = false) throws(VerificationError)
        -> (records: [FingerprintEntry], edges: [FingerprintEntry])
    {
        let results = try storeFingerprints().all(pairKeying: pairKeying, pairsBetweenRecordsOnly: pairsBetweenRecordsOnly)
        if let unreadable = results.records.lazy.compactMap(\.unreadable.first).first { throw .unreadableStore(unreadable) }
        return (results.records.map(\.entry), results.edges)
    }

    /// The fingerprint of an entity's records (sub-entities' included) over `attributes`, the
    /// records `keying` names tied to their `Z_PK`.
    /// - Throws: `VerificationError` when the store cannot be read, or a value does not fit its
    ///   attribute (such a store cannot be fingerprinted, and `verify` reports why).
    public func fingerprint(of entity: String, attributes: [String], keying: RecordKeying = .none) throws(VerificationError) -> Fingerprint {
        let fingerprints = try storeFingerprints()
        do throws(StoreReaderError) {
            let result = try fingerprints.records(of: entity, attributes: attributes, keying: keying)
            if let first = result.unreadable.first { throw first }
            return result.fingerprint
        } catch {
            throw .unreadableStore(error)
        }
    }

    /// The fingerprint of the pairs of `relationship` of `entity` (declared by it or an ancestor;
    /// sources are rows of `entity` and below), each end named by its key, with each pair's rank
    /// in the ordered lists at `rankedEnds` (`orderedEnds`; all of them when nil). `reversed`
    /// names each pair's destination first, as the inverse relationship holds the pair.
    /// `ownRowsOnly`: only the pairs of rows of `entity` itself, not of entities below it.
    public func edgeFingerprint(of relationship: String, of entity: String, sourceKey: EdgeKey,
                                destinationKey: EdgeKey, rankedEnds: Set<PairOrder.End>? = nil,
                                reversed: Bool = false, ownRowsOnly: Bool = false) throws(VerificationError) -> Fingerprint {
        let fingerprints = try storeFingerprints()
        return try fingerprints.edges(of: try pairs(of: relationship, of: entity), sourceKey: sourceKey, destinationKey: destinationKey,
                                      rankedEnds: rankedEnds, reversed: reversed, ownSourceRowsOnly: ownRowsOnly)
    }

    /// The fingerprint of the pairs of `relationship` of `entity` as `edgeFingerprint` computes it
    /// with both ends named by `Z_PK`, of those pairs only whose ends are both among `kept`: the
    /// pairs a copy of the store holds when it left out every other object. Ranks are counted
    /// among the pairs kept, as such a copy numbers its lists. `ownRowsOnly` as above.
    public func edgeFingerprint(of relationship: String, of entity: String, keeping kept: KeptPairEnds, rankedEnds: Set<PairOrder.End>,
                                reversed: Bool = false, ownRowsOnly: Bool = false) throws(VerificationError) -> Fingerprint {
        let fingerprints = try storeFingerprints()
        return try fingerprints.edges(of: try pairs(of: relationship, of: entity), sourceKey: .primaryKey, destinationKey: .primaryKey,
                                      rankedEnds: rankedEnds, reversed: reversed, keeping: kept, ownSourceRowsOnly: ownRowsOnly)
    }

    /// The pairs of one relationship of the rows of `entity` itself, as a part of a union
    /// (`edgeFingerprint(ofUnion:)`): read as the relationship holds them, or `reversed`
    /// (destination first, as its inverse holds them), those `keeping` keeps (all when nil).
    public struct PairPart: Sendable {
        public let relationship: String
        public let entity: String
        public let reversed: Bool
        public let keeping: KeptPairEnds?

        public init(relationship: String, of entity: String, reversed: Bool = false, keeping: KeptPairEnds? = nil) {
            (self.relationship, self.entity, self.reversed, self.keeping) = (relationship, entity, reversed, keeping)
        }
    }

    /// The fingerprint of the union of the pairs of `parts`, both ends named by `Z_PK`: a pair
    /// that several parts hold (an app that set both sides of two relationships that later
    /// become inverses) counts once, as the one relationship they become holds it once.
    public func edgeFingerprint(ofUnion parts: [PairPart]) throws(VerificationError) -> Fingerprint {
        let fingerprints = try storeFingerprints()
        var union = Set<SIMD2<Int64>>()
        for part in parts {
            for pair in try fingerprints.primaryKeyPairs(of: try pairs(of: part.relationship, of: part.entity), ownSourceRowsOnly: true,
                                                         keeping: part.keeping) {
                union.insert(part.reversed ? SIMD2(pair.destination, pair.source) : SIMD2(pair.source, pair.destination))
            }
        }
        var fingerprint = Fingerprint()
        var bytes: [UInt8] = []
        for pair in union {
            bytes.removeAll(keepingCapacity: true)
            KeyValueReader.appendPrimaryKey(pair.x, to: &bytes)
            KeyValueReader.appendPrimaryKey(pair.y, to: &bytes)
            fingerprint.add(encoded: bytes)
        }
        return fingerprint
    }

    /// The `Z_PK`s of the rows of `entity` itself (not of entities below it), read with plain SQL.
    public func primaryKeys(of entity: String) throws(VerificationError) -> Set<Int64> {
        guard let table = layout.table(forEntity: entity), let number = layout.entityNumbers[entity] else {
            throw .invalidModel(path: path, reason: "\(entity) has no table in the store's layout")
        }
        var keys = Set<Int64>()
        do {
            _ = try EntityRowScan(table: table.name, columns: [], numbers: [number]).forEachRow(on: connection) { row in
                keys.insert(row.int64(at: 0))
                return true
            }
        } catch {
            throw .unreadableStore(.sqlite(error))
        }
        return keys
    }

    /// The ends of the pairs of `relationship` of `entity` whose objects keep their lists in order.
    public func orderedEnds(of relationship: String, of entity: String) throws(VerificationError) -> Set<PairOrder.End> {
        Set(try pairs(of: relationship, of: entity).orders.map(\.end))
    }

    private func pairs(of relationship: String, of entity: String) throws(VerificationError) -> RelationshipPairs {
        guard let declaring = model.declaringEntity(ofProperty: relationship, in: entity),
              let declared = declaring.relationship(named: relationship),
              let storage = RelationshipPairs(declared, declaredBy: declaring.name, rowsOf: entity, model: model, layout: layout) else {
            throw .unreadableStore(.unknownRelationship(path: path, entity: entity, relationship: relationship))
        }
        return storage
    }

    // MARK: Private

    private func makeContext(_ sampleLimit: Int) -> StoreContext {
        StoreContext(model: model, layout: layout, connection: connection.limited(to: sampleLimit))
    }

    private func storeFingerprints() throws(VerificationError) -> StoreFingerprints {
        guard let records else { throw .unreadableStore(schemaProblem ?? .invalidModel(path: path, reason: "the store does not fit the model")) }
        return StoreFingerprints(context: makeContext(VerificationOptions().sampleLimit), records: { records })
    }

    /// Notes, per entity, the records the fingerprints had to leave out.
    private func noteUnreadable(_ results: StoreFingerprints.Results, sampleLimit: Int, _ recorder: inout CheckRecorder) {
        for (entry, unreadable) in results.records {
            recorder.check("fingerprints", subject: entry.subject, code: "unreadable-record") {
                guard !unreadable.isEmpty else { return nil }
                return VerificationFailure(
                    check: "unreadable-record", subject: entry.subject,
                    message: "\(unreadable.count) record(s) cannot be read as the model says and are left out of the fingerprint",
                    count: Int64(unreadable.count),
                    samples: unreadable.prefix(sampleLimit).map { error in
                        if case let .invalidValue(_, _, key, column, reason) = error {
                            return FailureSample(primaryKey: key, values: ["column": column, "reason": reason])
                        }
                        return FailureSample(primaryKey: nil, values: ["reason": "\(error)"])
                    })
            }
        }
    }
}
