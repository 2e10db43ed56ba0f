import FerryModel

/// Finds the model a store was written with: the version of a model bundle that its version
/// hashes match (`StoreVersionMatch`, the one rule), or (without a bundle) the model Core Data
/// archived in the store's `Z_MODELCACHE`.
public enum StoreModelMatch {
    /// The store's model and, when it came from a bundle, the version's name.
    public static func model(for store: CoreDataStoreReader, bundle: ModelBundle?) throws(StoreReaderError)
        -> (model: ManagedObjectModel, version: String?)
    {
        guard let bundle else { return (try archivedModel(of: store), nil) }
        switch StoreVersionMatch.match(store.metadata.versionHashes, in: bundle.versions) {
        case .success(let match): return (match.model, match.version.name)
        case .failure(let mismatch):
            throw .modelMismatch(path: store.path, closestVersion: mismatch.closest?.name ?? bundle.name, differing: mismatch.differing)
        }
    }

    /// The model archived in `Z_MODELCACHE` (stores of framework version 754 and later have one),
    /// when it has the version hashes of the store's metadata: a cache of another model (an
    /// Integer 64 read as a Double) was read as the store's, and values exported changed, exit 0.
    public static func archivedModel(of store: CoreDataStoreReader) throws(StoreReaderError) -> ManagedObjectModel {
        guard store.schema.table(named: "Z_MODELCACHE") != nil else {
            throw .invalidModel(path: store.path, reason: "the store has no Z_MODELCACHE (an old store): give its model with --model")
        }
        guard let content = try store.modelCache() else { throw .invalidModel(path: store.path, reason: "Z_MODELCACHE is empty: give the store's model with --model") }
        let model: ManagedObjectModel
        do {
            model = try ModelArchiveDecoder.decodeModelCache(content, name: "store model")
        } catch {
            throw .invalidModel(path: store.path, reason: "Z_MODELCACHE cannot be decoded: \(error.description)")
        }
        let stored = store.metadata.versionHashes
        let differing = VersionHasher.hashes(of: model).differingEntities(from: stored)
        guard stored.isEmpty || differing.isEmpty else {
            throw .invalidModel(path: store.path, reason: "the model in Z_MODELCACHE is not the one the store's metadata names (version hashes differ for "
                + "\(differing.joined(separator: ", "))): give the store's model with --model")
        }
        return model
    }
}
