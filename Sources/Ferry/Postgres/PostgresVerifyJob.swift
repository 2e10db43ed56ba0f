import FerryFormats
import FerryModel
import FerryPostgres
import FerryStore
import FerryVerify
import FoundationEssentials

/// `ferry verify postgresql://… --against STORE [--store UUID]`: proves that a schema holds
/// what a store holds, without trusting the load.
///
/// The store's rows are rebuilt from the database into a private store (`PostgresRestoreJob`,
/// which checks its own counts against the database's), then compared with STORE two ways:
/// rows per entity and pairs per relationship counted with SQL on both sides (`counts`), and
/// the order-independent fingerprints `ferry verify` computes of every entity's records over all
/// their attributes and of every relationship's pairs between records (`fingerprints`: a pair
/// naming a row of another entity, STORE's own damage the load kept, is counted but no store
/// rebuilt can keep it), and by what identifies
/// the store besides its records (`identity`): its UUID (part of every object's URI: `--store`
/// naming another store fails), each root entity's `Z_MAX` and the application's own metadata
/// keys. The model is STORE's (the version of `--model` its hashes match, or its own cache); the
/// UUID is STORE's unless `--store` names another.
public struct PostgresVerifyJob {
    public var target: ConnectionTarget
    public var schema: String
    public var againstPath: String
    public var storeUUID: UUID?
    public var modelPath: String?

    public init(target: ConnectionTarget, schema: String = "ferry", againstPath: String, storeUUID: UUID? = nil, modelPath: String? = nil) {
        self.target = target
        self.schema = schema
        self.againstPath = againstPath
        self.storeUUID = storeUUID
        self.modelPath = modelPath
    }

    /// The failures of `ferry verify`'s relationship checks on STORE, one line each: damage the
    /// comparison cannot see (the load reads such a store's rows as they are, the export names
    /// them), for the verb to name; or why they could not run (STORE or its model could not be
    /// read for them, a check's query failed), which is no verdict.
    public func storeRelationshipFailures() -> Result<[String], VerificationError> {
        Result { () throws(VerificationError) in
            let store: CoreDataStoreReader
            do throws(StoreReaderError) { store = try CoreDataStoreReader(path: againstPath) } catch { throw .unreadableStore(error) }
            let model: ManagedObjectModel
            do { model = try ExportModelSource.resolve(bundlePath: modelPath, store: store).model } catch {
                throw .noModel(path: againstPath, reason: "\(error)")
            }
            return try StoreVerifier(path: againstPath, model: .model(model)).relationshipFailures().map(VerificationReportText.line)
        }
    }

    public func run() throws(PostgresTransferError) -> VerificationReport {
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: againstPath) } catch { throw .export(.store(error)) }
        let model: ManagedObjectModel
        do { model = try ExportModelSource.resolve(bundlePath: modelPath, store: store).model } catch { throw .export(error) }
        let uuid = storeUUID ?? store.metadata.storeUUID.value
        let scratch: ScratchFolder
        do { scratch = try ScratchFolder.make(purpose: "verify") } catch {
            throw .export(.cannotWrite(path: error.path, reason: error.reason))
        }
        defer { scratch.remove() }
        let rebuilt = scratch.database("database.sqlite")
        let restored = try PostgresRestoreJob(target: target, schema: schema, storeUUID: uuid, model: .version(model, origin: againstPath),
                                              outputPath: rebuilt).run()
        var report = VerificationReport(store: "\(target) schema \(schema) store \(uuid.uuidString)", model: model.name)
        report.notes.append("the database's rows were rebuilt into a private store and compared with \(againstPath)")
        for link in restored.links where link.unresolved > 0 {
            report.notes.append("\(link.relationship): the database holds \(link.unresolved) pair(s) whose destination is no record of the "
                + "relationship's entity (as the store does): counted, not compared pair by pair (no store rebuilt from it can keep them)")
        }
        let layout = try PostgresLayout(model: model)
        let own: TransferCounts
        do {
            own = try TransferCounts.store(census: try store.census(), reader: try store.records(model: model), layout: layout)
        } catch {
            throw .export(.store(error))
        }
        var counts = VerificationSection(name: "counts", checks: own.entities.count + own.relationships.count)
        counts.failures = own.differences(from: restored.databaseCounts, mine: "store", theirs: "database").map {
            VerificationFailure(check: "count", subject: schema, message: $0)
        }
        report.append(counts)
        do throws(StoreReaderError) {
            report.append(Self.identity(of: store, rebuilt: try CoreDataStoreReader(path: rebuilt), storeUUID: uuid, model: model))
        } catch {
            throw .export(.restore(reason: "the rebuilt store: \(error)"))
        }
        do throws(VerificationError) {
            // The rebuilt store keeps every Z_PK: pairs are compared by Z_PK at both ends, which
            // tells apart objects a uniqueness constraint's NULL values would name alike.
            // Only pairs between records: those of the store's own damage, which the database holds
            // as loaded (counted above), cannot be kept by the rebuilt store.
            let expected = try StoreVerifier(path: againstPath, model: .model(model)).fingerprints(pairKeying: .primaryKeys,
                                                                                                   pairsBetweenRecordsOnly: true)
            let actual = try StoreVerifier(path: rebuilt, model: .model(model)).fingerprints(pairKeying: .primaryKeys)
            report.append(FingerprintComparison.section(expected: expected.records + expected.edges, actual: actual.records + actual.edges))
            report.fingerprints = actual.records
            report.edgeFingerprints = actual.edges
        } catch {
            throw .export(.restore(reason: "fingerprints: \(error)"))
        }
        return report
    }

    /// The `identity` section: the store the schema's rows are (`storeUUID`) is STORE itself,
    /// and the store rebuilt from them keeps STORE's `Z_MAX` of every root entity and its
    /// application's metadata keys, so objects made after a restore get the keys and URIs
    /// they would have got in STORE.
    static func identity(of store: CoreDataStoreReader, rebuilt: CoreDataStoreReader, storeUUID: UUID,
                         model: ManagedObjectModel) -> VerificationSection {
        let roots = model.entities.filter { $0.parentName == nil }.map(\.name)
        var section = VerificationSection(name: "identity", checks: 2 + roots.count)
        if store.metadata.storeUUID.value != storeUUID {
            section.failures.append(VerificationFailure(check: "uuid", subject: "store", message: "the schema's rows are of store \(storeUUID.uuidString); "
                + "\(store.path) is store \(store.metadata.storeUUID)"))
        }
        for root in roots {
            let (own, back) = (store.primaryKeyEntry(named: root)?.maxPrimaryKey ?? 0, rebuilt.primaryKeyEntry(named: root)?.maxPrimaryKey ?? 0)
            if own != back {
                section.failures.append(VerificationFailure(check: "z-max", subject: root, message: "Z_PRIMARYKEY.Z_MAX is \(own) in the store, "
                    + "\(back) in the store rebuilt from the database"))
            }
        }
        let (own, back) = (store.metadata.applicationEntries, rebuilt.metadata.applicationEntries)
        // Compared as restore compares them (a NaN kept is the same value).
        let differing = Set(own.keys).union(back.keys).filter { !PropertyListValue.sameKept(own[$0], back[$0]) }.sorted()
        if !differing.isEmpty {
            section.failures.append(VerificationFailure(check: "metadata", subject: "store", message: "the application's metadata keys "
                + "\(differing.joined(separator: ", ")) differ between the store and the store rebuilt from the database"))
        }
        return section
    }
}
