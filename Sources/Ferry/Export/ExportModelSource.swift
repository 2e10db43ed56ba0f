import FerryFormats
import FerryModel
import FerryStore

/// The model an export reads a store through: the version of a model bundle whose version
/// hashes are the store's, or the model archived in the store's `Z_MODELCACHE`.
enum ExportModelSource {
    static func resolve(bundlePath: String?, store: CoreDataStoreReader) throws(ExportError)
        -> (model: ManagedObjectModel, info: ExportManifest.ModelInfo)
    {
        let stored = store.metadata.versionHashes
        guard let bundlePath else {
            let cache: [UInt8]?
            do { cache = try store.modelCache() } catch { throw .store(error) }
            guard let cache else { throw .model(reason: "\(store.path) has no Z_MODELCACHE; give the model with --model") }
            let model: ManagedObjectModel
            do { model = try ModelArchiveDecoder.decodeModelCache(cache, name: "Z_MODELCACHE") } catch {
                throw .model(reason: "\(store.path): Z_MODELCACHE: \(error)")
            }
            return (model, info(model, bundle: nil, origin: "Z_MODELCACHE", hashes: stored))
        }
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: bundlePath) } catch { throw .model(reason: error.description) }
        guard let model = bundle.versions.first(where: { VersionHasher.hashes(of: $0).differingEntities(from: stored).isEmpty }) else {
            throw .model(reason: "no version of \(bundlePath) (\(bundle.versions.map(\.name).joined(separator: ", "))) has the version hashes of \(store.path)")
        }
        return (model, info(model, bundle: bundle.name, origin: bundlePath, hashes: VersionHasher.hashes(of: model).entityHashes))
    }

    private static func info(_ model: ManagedObjectModel, bundle: String?, origin: String,
                             hashes: [String: [UInt8]]) -> ExportManifest.ModelInfo {
        ExportManifest.ModelInfo(bundle: bundle, versionName: model.name, versionIdentifier: model.versionIdentifier,
                                 origin: origin, versionHashes: hashes.mapValues { PropertyListBase64.text($0) })
    }
}
