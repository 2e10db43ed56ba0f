import FerryFormats
import FerryModel
import FerryStore

/// Where the verifier takes the store's model from.
public enum VerificationModel: Sendable {
    /// This model version.
    case model(ManagedObjectModel)
    /// The version of this bundle whose entity hashes match the store's metadata (the one that
    /// matches most entities; a store with corrupted hashes is then still read with its version,
    /// and the hash check reports the difference).
    case bundle(ModelBundle)
    /// The model Core Data cached in the store (`Z_MODELCACHE`, framework 754 on).
    case modelCache
}

/// Picks the model a store is verified with.
enum ModelChoice {
    /// The model, and how it was chosen (for the report).
    static func resolve(_ source: VerificationModel, store: CoreDataStoreReader) throws(VerificationError) -> (model: ManagedObjectModel, description: String) {
        switch source {
        case .model(let model):
            return (model, "\(model.name) (given)")
        case .bundle(let bundle):
            // The one matching rule; when no version matches, the closest is checked, so that
            // its differences are reported as failures rather than refused.
            switch StoreVersionMatch.match(store.metadata.versionHashes, in: bundle.versions) {
            case .success(let match):
                return (match.version, "\(bundle.name) / \(match.version.name) (matched by version hashes)")
            case .failure(let mismatch):
                guard let closest = mismatch.closest,
                      mismatch.differing.count < Set(VersionHasher.hashes(of: closest).entityHashes.keys).union(store.metadata.versionHashes.keys).count
                else { throw .noMatchingVersion(path: store.path, bundle: bundle.name) }
                return (closest, "\(bundle.name) / \(closest.name) (closest by version hashes: differs in \(mismatch.differing.joined(separator: ", ")))")
            }
        case .modelCache:
            do { return (try StoreModelMatch.archivedModel(of: store), "the store's Z_MODELCACHE") } catch {
                throw .noModel(path: store.path, reason: ErrorText.reason(of: error, at: store.path))
            }
        }
    }
}
