import FerryModel

/// Finds the model a store was written with: the version of a model bundle whose version hashes
/// equal the store's metadata, or (without a bundle) the model Core Data archived in the store's
/// `Z_MODELCACHE`.
public enum StoreModelMatch {
    /// The store's model and, when it came from a bundle, the version's name.
    public static func model(for store: CoreDataStoreReader, bundle: ModelBundle?) throws(StoreReaderError)
        -> (model: ManagedObjectModel, version: String?)
    {
        guard let bundle else { return (try archivedModel(of: store), nil) }
        var closest: (name: String, differing: [String])?
        for version in bundle.versions.reversed() {
            let differing = VersionHasher.hashes(of: version).differingEntities(from: store.metadata.versionHashes)
            if differing.isEmpty { return (version, version.name) }
            if differing.count < closest?.differing.count ?? .max { closest = (version.name, differing) }
        }
        throw .modelMismatch(path: store.path, closestVersion: closest?.name ?? bundle.name, differing: closest?.differing ?? [])
    }

    /// The model archived in `Z_MODELCACHE` (stores of framework version 754 and later have one).
    public static func archivedModel(of store: CoreDataStoreReader) throws(StoreReaderError) -> ManagedObjectModel {
        guard store.schema.table(named: "Z_MODELCACHE") != nil else {
            throw .invalidModel(path: store.path, reason: "the store has no Z_MODELCACHE (an old store): give its model with --model")
        }
        let content: [UInt8]? = try StoreReaderError.sqlite { () throws(SQLiteError) in
            let statement = try store.database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE")
            return try statement.step() ? statement.bytes(at: 0) : nil
        }
        guard let content else { throw .invalidModel(path: store.path, reason: "Z_MODELCACHE is empty: give the store's model with --model") }
        do {
            return try ModelArchiveDecoder.decodeModelCache(content, name: "store model")
        } catch {
            throw .invalidModel(path: store.path, reason: "Z_MODELCACHE cannot be decoded: \(error.description)")
        }
    }
}
