import FerryModel
import FerryStore

/// The model a store was written with, for the query and mutation verbs: the version of a
/// `--model` bundle whose version hashes equal the store's metadata, or else the model archived in
/// the store's `Z_MODELCACHE` (both found by `StoreModelMatch`).
public enum StoreModelResolver {
    public static func model(forStore path: String, bundlePath: String?) throws(QueryError) -> ManagedObjectModel {
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: path) } catch { throw .store(error) }
        let bundle: ModelBundle?
        do { bundle = try bundlePath.map { path throws(ModelLoadError) in try XcodeModelLoader.loadBundle(at: path) } } catch {
            throw .model(error)
        }
        do {
            return try StoreModelMatch.model(for: store, bundle: bundle).model
        } catch let .modelMismatch(_, version, differing) {
            throw .modelMismatch(store: path, closestVersion: version, differing: differing)
        } catch let .invalidModel(_, reason) {
            throw .modelCache(store: path, reason: reason)
        } catch {
            throw .store(error)
        }
    }
}
