import FerryFormats
import FerryModel
import FerryStore
import FoundationEssentials

/// `ferry model extract`: writes the model a store carries in its `Z_MODELCACHE` as an Xcode
/// `.xcdatamodeld` bundle of one version, so that a store without its model source (SwiftData, a
/// model built in code) can be versioned, diffed and migrated like any other.
///
/// The bundle is built in a hidden folder beside the output and loaded back there; it is renamed
/// into place only when that model has the store's own version hashes (`NSStoreModelVersionHashes`,
/// or, for a store whose metadata lost them, the cached model's), so Core Data and Ferry take it
/// for the store's model. What the XML cannot hold (validation rules, say) is left out and listed
/// in the summary; were any of it part of the hashes, nothing would be kept.
public struct ModelExtractJob {
    public let storePath: String
    /// The bundle to write; it must end in `.xcdatamodeld`.
    public let outputPath: String
    /// The version's name; nil names it after the bundle, as Xcode names a model's first version.
    public let versionName: String?
    /// Whether an existing output is replaced (atomically).
    public let replaceExisting: Bool

    public init(storePath: String, outputPath: String, versionName: String? = nil, replaceExisting: Bool = false) {
        self.storePath = storePath
        self.outputPath = outputPath
        self.versionName = versionName
        self.replaceExisting = replaceExisting
    }

    public func run() throws(ModelExtractError) -> ModelExtractSummary {
        let output = try ModelBundleOutput(path: outputPath)
        let version = try output.versionName(versionName)
        if let (out, store) = PathOverlap.first(outputs: [output.path], inputs: [storePath]) {
            throw .invalidRequest("--out \(out) is the store \(store)")
        }
        if FileManager.default.fileExists(atPath: output.path), !replaceExisting { throw .destinationExists(output.path) }

        let (model, storedHashes) = try storeModel(named: version)
        let reference = storedHashes.isEmpty ? VersionHasher.hashes(of: model).entityHashes : storedHashes
        let unwritten = XcodeModelWriter.unwrittenParts(of: model)
        do {
            try output.write(model, replacing: replaceExisting) { written throws(ModelExtractError) in
                let differing = VersionHasher.hashes(of: written).differingEntities(from: reference)
                guard differing.isEmpty else { throw .hashesDiffer(store: storePath, entities: differing, unwritten: unwritten) }
            }
        } catch .doesNotLoadBack(_, let reason) {
            throw .doesNotLoadBack(source: storePath, reason: reason)
        }
        return ModelExtractSummary(bundlePath: output.path, versionName: version, entities: model.entities.map(\.name),
                                   versionHashes: reference, hashesFromMetadata: !storedHashes.isEmpty, unwritten: unwritten)
    }

    /// The store's cached model, named `version`, and the store's version hashes.
    private func storeModel(named version: String) throws(ModelExtractError) -> (ManagedObjectModel, [String: [UInt8]]) {
        let store: CoreDataStoreReader
        let cache: [UInt8]?
        do {
            store = try CoreDataStoreReader(path: storePath)
            cache = try store.modelCache()
        } catch {
            throw .store(error)
        }
        guard let cache else { throw .noModelCache(path: storePath) }
        do {
            return (try ModelArchiveDecoder.decodeModelCache(cache, name: version), store.metadata.versionHashes)
        } catch {
            throw .modelCache(path: storePath, error)
        }
    }
}
