import FerryFormats
import FerryModel
import FerryStore

/// The model an export reads a store through, as `StoreModelMatch` finds it: the version of a
/// model bundle the store's version hashes match, or the model archived in its `Z_MODELCACHE`.
enum ExportModelSource {
    /// A model bundle loaded once for many stores (a fleet load), or why it could not be.
    struct Bundle: Sendable {
        let path: String
        let loaded: Result<ModelBundle, ExportError>

        init(path: String) {
            self.path = path
            loaded = Result { () throws(ExportError) in try ExportModelSource.load(path) }
        }
    }

    static func resolve(bundlePath: String?, store: CoreDataStoreReader) throws(ExportError)
        -> (model: ManagedObjectModel, info: ExportManifest.ModelInfo)
    {
        try resolve(bundle: bundlePath.map(Bundle.init(path:)), store: store)
    }

    /// As `resolve(bundlePath:store:)`, with the bundle already loaded.
    static func resolve(bundle: Bundle?, store: CoreDataStoreReader) throws(ExportError)
        -> (model: ManagedObjectModel, info: ExportManifest.ModelInfo)
    {
        let loaded = try bundle?.loaded.get()
        let model: ManagedObjectModel
        do { model = try StoreModelMatch.model(for: store, bundle: loaded).model } catch {
            throw .model(reason: error.description)
        }
        guard let loaded, let bundle else {
            return (model, info(model, bundle: nil, origin: "Z_MODELCACHE", hashes: store.metadata.versionHashes))
        }
        return (model, info(model, bundle: loaded.name, origin: bundle.path, hashes: VersionHasher.hashes(of: model).entityHashes))
    }

    private static func load(_ path: String) throws(ExportError) -> ModelBundle {
        do { return try XcodeModelLoader.loadBundle(at: path) } catch { throw .model(reason: error.description) }
    }

    private static func info(_ model: ManagedObjectModel, bundle: String?, origin: String,
                             hashes: [String: [UInt8]]) -> ExportManifest.ModelInfo {
        ExportManifest.ModelInfo(bundle: bundle, versionName: model.name, versionIdentifier: model.versionIdentifier,
                                 origin: origin, versionHashes: hashes.mapValues { PropertyListBase64.text($0) })
    }
}
