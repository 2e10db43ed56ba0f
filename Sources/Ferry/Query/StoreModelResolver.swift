import FerryModel
import FerryStore

/// The model a store was written with, for the query and mutation verbs: the version of a
/// `--model` bundle whose version hashes equal the store's metadata, or else the model archived in
/// the store's `Z_MODELCACHE` (both found by `StoreModelMatch`), with its layout as the store has
/// it (its own entity numbers).
public enum StoreModelResolver {
    public static func resolve(forStore path: String, bundlePath: String?)
        throws(QueryError) -> (model: ManagedObjectModel, layout: StoreLayout)
    {
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: path) } catch { throw .store(error) }
        let bundle: ModelBundle?
        do { bundle = try bundlePath.map { path throws(ModelLoadError) in try XcodeModelLoader.loadBundle(at: path) } } catch {
            throw .model(error)
        }
        do {
            let model = try StoreModelMatch.model(for: store, bundle: bundle).model
            return (model, try store.layout(for: model))
        } catch let .modelMismatch(_, version, differing) {
            throw .modelMismatch(store: path, closestVersion: version, differing: differing)
        } catch let .invalidModel(_, reason) {
            throw .modelCache(store: path, reason: reason)
        } catch {
            throw .store(error)
        }
    }
}
