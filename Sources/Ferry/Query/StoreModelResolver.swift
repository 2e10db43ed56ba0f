import FerryFormats
import FerryModel
import FerryStore

/// Finds the model a store was written with: the version of a `--model` bundle whose version
/// hashes equal the store's metadata, or else the model archived in the store's `Z_MODELCACHE`.
public enum StoreModelResolver {
    public static func model(forStore path: String, bundlePath: String?) throws(QueryError) -> ManagedObjectModel {
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: path) } catch { throw .store(error) }
        guard let bundlePath else { return try cachedModel(path) }
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: bundlePath) } catch { throw .model(error) }
        var closest: (name: String, differing: [String])?
        for version in bundle.versions {
            let differing = VersionHasher.hashes(of: version).differingEntities(from: store.metadata.versionHashes)
            if differing.isEmpty { return version }
            if differing.count < closest?.differing.count ?? Int.max { closest = (version.name, differing) }
        }
        throw .modelMismatch(store: path, closestVersion: closest?.name ?? bundle.name, differing: closest?.differing ?? [])
    }

    /// The model decoded from `Z_MODELCACHE`.
    private static func cachedModel(_ path: String) throws(QueryError) -> ManagedObjectModel {
        let bytes: [UInt8]?
        do {
            let database = try SQLiteDatabase(path: path, mode: .readOnly)
            let statement = try database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
            bytes = try statement.step() ? statement.bytes(at: 0) : nil
        } catch {
            throw .modelCache(store: path, reason: error.description)
        }
        guard let bytes, !bytes.isEmpty else { throw .modelCache(store: path, reason: "Z_MODELCACHE is empty; give --model") }
        do { return try ModelArchiveDecoder.decodeModelCache(bytes, name: "store model cache") } catch {
            throw .modelCache(store: path, reason: error.description)
        }
    }
}
