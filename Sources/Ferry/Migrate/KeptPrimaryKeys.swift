import FerryMigration
import FerryModel
import FerryStore
import FerryVerify

/// The `Z_MAX` each root entity of a migration's last version starts from: the largest `Z_MAX`
/// of the roots of the store whose identity the new store keeps (`StoreIdentity`) whose records
/// flow into its hierarchy, as Core Data keeps `Z_MAX` per entity. Renamed entities, entities
/// moved into another hierarchy (two source roots merged under one new root take the larger of
/// the two, so their objects keep keys no new object can take) and records that mappings'
/// further entity mappings make are followed through the chain; a root no kept record reaches
/// starts from 0. A root whose `Z_MAX` the source left below its own keys (a damaged store, which
/// `ferry verify` fails) starts from the largest key of its rows instead: from its `Z_MAX`, the
/// records of another source took keys of the kept objects, which moved to new keys and URIs.
struct KeptPrimaryKeys {
    /// Entity of the last version → the `Z_MAX` its root starts from (present for every entity of a root that any kept record reaches).
    private let largestByEntity: [String: Int64]
    /// Root entity of the last version → the `Z_MAX` it starts from.
    let largestByRoot: [String: Int64]

    /// No key is kept (no store's identity is kept).
    static let none = KeptPrimaryKeys(largestByRoot: [:], model: nil)

    private init(largestByRoot: [String: Int64], model: ManagedObjectModel?) {
        self.largestByRoot = largestByRoot
        var byEntity: [String: Int64] = [:]
        for entity in model?.entities ?? [] {
            if let root = model?.rootEntity(of: entity.name)?.name, let largest = largestByRoot[root] { byEntity[entity.name] = largest }
        }
        largestByEntity = byEntity
    }

    /// The keys the objects of the store at `path`, read as a version of `chain`, keep in its last version.
    static func of(store path: String, chain: MigrationChain) throws(MigrateError) -> KeptPrimaryKeys {
        let store: CoreDataStoreReader
        let layout: StoreLayout
        do { store = try CoreDataStoreReader(path: path) } catch { throw .store(source: path, reason: ErrorText.reason(of: error, at: path)) }
        let (version, model): (Int, ManagedObjectModel)
        do { (version, model) = try StoreRecordCursor.version(of: store, in: chain) } catch { throw MigrateError(error) }
        do { layout = try store.layout(for: model) } catch { throw .store(source: path, reason: ErrorText.reason(of: error, at: path)) }
        let maxima = Dictionary(store.primaryKeys.map { ($0.entityNumber, $0.maxPrimaryKey) }, uniquingKeysWith: max)
        let census: StoreCensus
        do { census = try StoreCensus(path: path) } catch { throw .store(source: path, reason: ErrorText.reason(of: error, at: path)) }
        let largestKeys = Dictionary(census.entities.map { ($0.number, $0.largestPrimaryKey) }, uniquingKeysWith: max)
        let final = chain.last
        var largest: [String: Int64] = [:]
        for entity in model.entities where !entity.isAbstract {
            // `Z_MAX` is kept on the root's row.
            guard let root = model.rootEntity(of: entity.name), let number = layout.entityNumbers[root.name] else { continue }
            let rowsLargest = layout.entityNumbers[entity.name].flatMap { largestKeys[Int64($0)] }
            guard maxima[Int64(number)] != nil || rowsLargest != nil else { continue }
            let sourceMax = max(maxima[Int64(number)] ?? 0, rowsLargest ?? 0)
            for reached in chain.finalEntities(of: entity.name, from: version) {
                guard let destination = final.rootEntity(of: reached)?.name else { continue }
                largest[destination] = max(largest[destination] ?? 0, sourceMax)
            }
        }
        return KeptPrimaryKeys(largestByRoot: largest, model: final)
    }

    /// Which rows of `entity` (of the last version) are the kept store's objects with their own
    /// `Z_PK`: those at or below its root's starting `Z_MAX`, since the writer hands out no key up
    /// to it (`RecordKeying`).
    func keying(for entity: String) -> RecordKeying {
        RecordKeying(through: largestByEntity[entity] ?? 0)
    }
}
