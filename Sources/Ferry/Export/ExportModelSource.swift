import FerryFormats
import FerryModel
import FerryStore

/// The model an export reads a store through, as `StoreModelMatch` finds it: the version of a
/// model bundle the store's version hashes match, or the model archived in its `Z_MODELCACHE`.
enum ExportModelSource {
    static func resolve(bundlePath: String?, store: CoreDataStoreReader) throws(ExportError)
        -> (model: ManagedObjectModel, info: ExportManifest.ModelInfo)
    {
        let bundle: ModelBundle?
        do { bundle = try bundlePath.map { path throws(ModelLoadError) in try XcodeModelLoader.loadBundle(at: path) } } catch {
            throw .model(reason: error.description)
        }
        let model: ManagedObjectModel
        do { model = try StoreModelMatch.model(for: store, bundle: bundle).model } catch {
            throw .model(reason: error.description)
        }
        guard let bundle, let bundlePath else {
            return (model, info(model, bundle: nil, origin: "Z_MODELCACHE", hashes: store.metadata.versionHashes))
        }
        return (model, info(model, bundle: bundle.name, origin: bundlePath, hashes: VersionHasher.hashes(of: model).entityHashes))
    }

    private static func info(_ model: ManagedObjectModel, bundle: String?, origin: String,
                             hashes: [String: [UInt8]]) -> ExportManifest.ModelInfo {
        ExportManifest.ModelInfo(bundle: bundle, versionName: model.name, versionIdentifier: model.versionIdentifier,
                                 origin: origin, versionHashes: hashes.mapValues { PropertyListBase64.text($0) })
    }
}
