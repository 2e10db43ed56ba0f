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
        var output = outputPath
        while output.count > 1, output.hasSuffix("/") { output.removeLast() }
        let bundleName = String((output.split(separator: "/").last ?? "").dropLast(".xcdatamodeld".count))
        guard output.hasSuffix(".xcdatamodeld"), !bundleName.isEmpty else {
            throw .invalidRequest("--out must name an .xcdatamodeld bundle, not '\(outputPath)'")
        }
        let version = versionName ?? bundleName
        do { try XcodeModelWriter.checkFileName(version) } catch { throw .invalidRequest("--name: \(error.description)") }
        if let (out, store) = PathOverlap.first(outputs: [output], inputs: [storePath]) {
            throw .invalidRequest("--out \(out) is the store \(store)")
        }
        if FileManager.default.fileExists(atPath: output), !replaceExisting { throw .destinationExists(output) }

        let (model, storedHashes) = try storeModel(named: version)
        let bundle = ModelBundle(name: bundleName, versions: [model], currentVersionName: version)
        let building = FolderPlacement.temporaryPath(beside: output, label: "incomplete")
        do throws(ModelExtractError) {
            let written = try build(bundle, at: building)
            let reference = storedHashes.isEmpty ? VersionHasher.hashes(of: model).entityHashes : storedHashes
            let differing = VersionHasher.hashes(of: written).differingEntities(from: reference)
            let unwritten = XcodeModelWriter.unwrittenParts(of: model)
            guard differing.isEmpty else { throw .hashesDiffer(store: storePath, entities: differing, unwritten: unwritten) }
            try FolderPlacement.place(building, at: output, replacing: replaceExisting)
            return ModelExtractSummary(bundlePath: output, versionName: version, entities: model.entities.map(\.name),
                                       versionHashes: reference, hashesFromMetadata: !storedHashes.isEmpty, unwritten: unwritten)
        } catch {
            try? FileManager.default.removeItem(atPath: building)
            throw error
        }
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

    /// Writes the bundle at `path` and loads its version back from there.
    private func build(_ bundle: ModelBundle, at path: String) throws(ModelExtractError) -> ManagedObjectModel {
        do {
            try XcodeModelWriter.writeBundle(bundle, to: path)
        } catch {
            throw .cannotWrite(path: outputPath, reason: ErrorText.reason(of: error, at: outputPath))
        }
        let loaded: ModelBundle
        do { loaded = try XcodeModelLoader.loadBundle(at: path) } catch {
            throw .cannotWrite(path: outputPath, reason: "the written bundle does not load back: \(error.description)")
        }
        guard loaded.currentVersionName == bundle.currentVersionName, let current = loaded.current else {
            throw .cannotWrite(path: outputPath, reason: "the written bundle does not name \(bundle.currentVersionName) its current version")
        }
        return current
    }
}
