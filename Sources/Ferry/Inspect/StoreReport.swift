import FerryFormats
import FerryModel
import FerryStore

/// What `ferry inspect STORE` shows: the store's identity, the model it matches (given or
/// recovered from the store), the receipt of the migration that wrote it, and its rows per entity.
public struct StoreReport: Codable, Sendable, Equatable {
    public var path: String
    /// `Core Data` or `plain SQLite`.
    public var kind: String
    public var storeUUID: String?
    public var frameworkVersion: Int?
    /// Where the model came from: a bundle's version, or the store's `Z_MODELCACHE`.
    public var modelSource: String
    /// The matching version, when a bundle was given.
    public var version: String?
    /// The store's `MigrationReceipt` in a line (when it was written and from how many inputs),
    /// or why it cannot be read; nil when it has none.
    public var receipt: String?
    /// The files `ferry import` wrote into the store (`ImportedFiles`) in a line: how many, and
    /// the newest; nil when it lists none.
    public var importedFiles: String?
    /// Entity → rows, its sub-entities' rows included (abstract entities with sub-entities are left
    /// out), as the model's reader counts them; from the census when there is no model.
    public var counts: [String: Int64]
    /// The same counted with plain SQL by `Z_ENT` through the store's own `Z_PRIMARYKEY`
    /// (`StoreCensus`), by `Z_NAME`; nil for plain SQLite databases.
    public var plainSQLCounts: [String: Int64]?
    /// Where the two counts differ, and rows of no entity, one line each: empty when every row
    /// is accounted for.
    public var discrepancies: [String] = []
    /// The model the rows were read with; nil when the store has no model cache and none was given.
    public var model: ModelReport?
    /// Core Data's own records (`StoreCensus.frameworkRecords`: its persistent history, CloudKit's
    /// mirroring), by `Z_NAME`; empty when there are none.
    public var frameworkRecords: [String: Int64] = [:]
    /// Rows of the tables outside Core Data's layout (`LeftBehind.otherTables`), by table; empty
    /// when there are none.
    public var otherTables: [String: Int64] = [:]
    /// The views and triggers Core Data does not make (`LeftBehind.otherSchema`); empty when there
    /// are none.
    public var otherSchema: [String] = []

    /// Inspects a store file. `bundlePath` is a model to match the store against.
    public init(path: String, bundlePath: String?) throws(InspectError) {
        self.path = path
        let bundle: ModelBundle?
        do { bundle = try bundlePath.map { path throws(ModelLoadError) in try XcodeModelLoader.loadBundle(at: path) } } catch {
            throw .model(error)
        }
        do {
            let store = try CoreDataStoreReader(path: path)
            kind = "Core Data"
            storeUUID = store.metadata.storeUUID.text
            frameworkVersion = store.metadata.frameworkVersion
            receipt = Self.describeReceipt(in: store.metadata)
            importedFiles = Self.describeImportedFiles(in: store.metadata)
            let census = try store.census()
            var plain: [String: Int64] = [:]
            for entity in census.appEntities { plain[entity.name] = census.rowsIncludingSubentities(of: entity.number) }
            plainSQLCounts = plain
            frameworkRecords = census.frameworkRecords
            (otherTables, otherSchema) = Self.leftBehind(census, readWith: nil)
            let matched: (model: ManagedObjectModel, version: String?)
            do { matched = try StoreModelMatch.model(for: store, bundle: bundle) } catch .invalidModel(_, let reason) where bundle == nil {
                // An old store (no Z_MODELCACHE) and no model: its rows are still counted.
                modelSource = "none (\(reason))"
                counts = plain
                discrepancies = census.discrepancies(delivered: Dictionary(uniqueKeysWithValues: census.appEntities.map { ($0.number, $0.rows) }))
                model = nil
                return
            }
            let (model, version) = matched
            self.version = version
            modelSource = version.map { "version \($0) of \(bundle?.name ?? "")" } ?? "Z_MODELCACHE"
            var counts: [String: Int64] = [:]
            var delivered: [Int64: Int64] = [:]
            let records = try store.records(model: model)
            (otherTables, otherSchema) = Self.leftBehind(census, readWith: records.layout)
            for entity in model.entities {
                let number = records.layout.entityNumbers[entity.name].map(Int64.init) ?? -1
                delivered[number] = try records.count(for: entity.name) - model.subentities(of: entity.name).reduce(0) { total, sub in
                    total + ((try? records.count(for: sub.name)) ?? 0)
                }
                if !entity.isAbstract || model.subentities(of: entity.name).isEmpty {
                    counts[entity.name] = try records.count(for: entity.name)
                }
            }
            self.counts = counts
            discrepancies = census.discrepancies(delivered: delivered)
            self.model = ModelReport(bundle: ModelBundle(name: model.name, versions: [model], currentVersionName: model.name))
        } catch .notCoreDataStore {
            let plain: PlainSQLiteReader
            do { plain = try PlainSQLiteReader(path: path) } catch { throw .store(error) }
            kind = "plain SQLite"
            modelSource = "tables and declared types"
            var counts: [String: Int64] = [:]
            for entity in plain.model.entities {
                do { counts[entity.name] = try plain.count(for: entity.name) } catch { throw .store(error) }
            }
            self.counts = counts
            model = ModelReport(bundle: ModelBundle(name: plain.model.name, versions: [plain.model], currentVersionName: plain.model.name))
        } catch {
            throw .store(error)
        }
    }

    /// The tables and the views and triggers outside the layout the store is read with.
    private static func leftBehind(_ census: StoreCensus, readWith layout: StoreLayout?) -> (tables: [String: Int64], schema: [String]) {
        let leftBehind = census.leftBehind(readWith: layout)
        return (leftBehind.otherTables, leftBehind.otherSchema)
    }

    private static func describeReceipt(in metadata: StoreMetadataInfo) -> String? {
        do {
            guard let receipt = try MigrationReceipt.read(from: metadata) else { return nil }
            let sources = receipt.inputs.inputs.filter(\.isSource).count
            return "written \(receipt.written) by a verified migration of \(sources) source(s); verify --against compares with it"
        } catch {
            return "unreadable: \(error)"
        }
    }

    private static func describeImportedFiles(in metadata: StoreMetadataInfo) -> String? {
        let files: [ImportedFiles.File]
        do { files = try ImportedFiles(metadata: metadata.propertyList).files } catch { return "the list cannot be read: \(error)" }
        guard let newest = files.last else { return nil }
        return "\(files.count) file\(files.count == 1 ? "" : "s"), the newest \(newest.name) (\(newest.importedAt), \(newest.written) "
            + "\(newest.entity) record\(newest.written == 1 ? "" : "s")); import --append refuses them again"
    }

    /// Whether a path is an SQLite database file (by its first 16 bytes).
    public static func isSQLiteFile(_ path: String) -> Bool {
        (try? LockKeepingFileReader.read(path, count: 16)) == Array("SQLite format 3\0".utf8)
    }
}

/// Why something could not be inspected.
public enum InspectError: Error, CustomStringConvertible {
    case model(ModelLoadError)
    case store(StoreReaderError)

    public var description: String {
        switch self {
        case .model(let error): error.description
        case .store(let error): error.description
        }
    }
}
