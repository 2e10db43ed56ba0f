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
/// their attributes and of every relationship's pairs (`fingerprints`). The model is STORE's
/// (the version of `--model` its hashes match, or its own cache); the UUID is STORE's unless
/// `--store` names another.
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

    public func run() throws(PostgresTransferError) -> VerificationReport {
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: againstPath) } catch { throw .export(.store(error)) }
        let model: ManagedObjectModel
        do { model = try ExportModelSource.resolve(bundlePath: modelPath, store: store).model } catch { throw .export(error) }
        let uuid = storeUUID ?? store.metadata.storeUUID
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
        let layout = try PostgresLayout(model: model)
        let own: TransferCounts
        do {
            own = try TransferCounts.store(census: try store.census(), reader: try store.records(model: model), layout: layout)
        } catch {
            throw .export(.store(error))
        }
        var counts = VerificationSection(name: "counts", checks: own.entities.count + own.relationships.count)
        counts.failures = own.differences(from: restored.counts, mine: "store", theirs: "database").map {
            VerificationFailure(check: "count", subject: schema, message: $0)
        }
        report.append(counts)
        do throws(VerificationError) {
            let expected = try StoreVerifier(path: againstPath, model: .model(model)).fingerprints()
            let actual = try StoreVerifier(path: rebuilt, model: .model(model)).fingerprints()
            report.append(FingerprintComparison.section(expected: expected.records + expected.edges, actual: actual.records + actual.edges))
            report.fingerprints = actual.records
            report.edgeFingerprints = actual.edges
        } catch {
            throw .export(.restore(reason: "fingerprints: \(error)"))
        }
        return report
    }
}
