import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FoundationEssentials

/// `ferry restore`: rebuilds a store from an export or backup folder, keeping every `Z_PK`.
///
/// Every file is checked against the manifest first. Records of each entity hierarchy are then
/// inserted in `Z_PK` order (the files of its concrete entities merged by `Z_PK`), with the keys
/// between them reserved so each record gets its original key, and its relationships are staged
/// as links to destination keys. Each relationship is staged from one side only (its own when it
/// has no inverse, the to-many side of a one-to-many, so ordered relationships keep their order).
/// Order keys (`Z_FOK_`) are renumbered 2048, 3072, … in the restored store; the order itself is
/// kept.
public struct RestoreJob {
    public let folder: String
    public let modelPath: String
    public let outputPath: String
    public let replaceExisting: Bool

    public init(folder: String, modelPath: String, outputPath: String, replaceExisting: Bool = false) {
        self.folder = folder
        self.modelPath = modelPath
        self.outputPath = outputPath
        self.replaceExisting = replaceExisting
    }

    /// What was restored.
    public struct Summary: Sendable {
        public var records: [String: Int]
        public var links: [LinkReport]
    }

    public func run() throws(ExportError) -> Summary {
        let manifest = try ExportVerifier.verify(folder: folder, countRecords: true)
        let model = try matchingModel(manifest)
        if FileManager.default.fileExists(atPath: outputPath), !replaceExisting { throw .destinationExists(outputPath) }
        let hashes = VersionHasher.hashes(of: model)
        let writer: CoreDataStoreWriter
        do {
            writer = try CoreDataStoreWriter.create(
                at: outputPath, model: model, versionHashes: hashes.entityHashes,
                versionIdentifiers: [model.versionIdentifier ?? ""], storeUUID: UUID(uuidString: manifest.storeUUID) ?? UUID(),
                hashesDigest: hashes.digest, checksum: hashes.checksum)
        } catch {
            throw .cannotWrite(path: outputPath, reason: ErrorText.reason(of: error, at: outputPath))
        }
        do {
            let graph = StoreGraphWriter(writer: writer, model: model)
            var records: [String: Int] = [:]
            for root in model.entitiesInStoreOrder where root.parentName == nil {
                try restoreHierarchy(root.name, manifest: manifest, model: model, graph: graph, records: &records)
            }
            let links = try graph.resolveLinks()
            try writer.finish()
            return Summary(records: records, links: links)
        } catch let error as ExportError {
            writer.discard()
            throw error
        } catch {
            writer.discard()
            throw .restore(reason: "\(outputPath): \(error)")
        }
    }

    /// The version of the bundle whose hashes are those the manifest recorded.
    private func matchingModel(_ manifest: ExportManifest) throws(ExportError) -> ManagedObjectModel {
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: modelPath) } catch { throw .model(reason: error.description) }
        let wanted = manifest.model.versionHashes.compactMapValues { PropertyListBase64.decode($0.utf8, padding: .required) }
        switch StoreVersionMatch.match(wanted, in: bundle.versions) {
        case .success(let match): return match.model
        case .failure(let mismatch):
            throw .model(reason: "no version of \(modelPath) has the version hashes of the backup (\(manifest.model.versionName)); "
                + "closest: \(mismatch.closest?.name ?? "none"), differing in \(mismatch.differing.joined(separator: ", "))")
        }
    }

    /// Inserts the records of one hierarchy in `Z_PK` order across its files.
    private func restoreHierarchy(_ root: String, manifest: ExportManifest, model: ManagedObjectModel, graph: StoreGraphWriter,
                                  records: inout [String: Int]) throws {
        var sources: [RestoreSource] = []
        for entity in model.hierarchy(below: root) where !entity.isAbstract {
            guard let entry = manifest.file(for: entity.name) else { continue }
            sources.append(try RestoreSource(folder: folder, entry: entry, format: manifest.format, model: model))
        }
        var nextKey: Int64 = 1
        while let source = sources.filter({ $0.pending != nil }).min(by: { ($0.pending?.primaryKey ?? 0) < ($1.pending?.primaryKey ?? 0) }),
              let pending = source.pending {
            if pending.primaryKey < nextKey {
                throw ExportError.verification(path: source.path, reason: "Z_PK \(pending.primaryKey) is out of order or repeated (restore needs files in Z_PK order, as written without --sort)")
            }
            if pending.primaryKey > nextKey {
                _ = try graph.writer.reservePrimaryKeys(root: root, count: Int(pending.primaryKey - nextKey))
            }
            switch try graph.write(pending.record, schema: source.schema, namespace: 0) {
            case .inserted: break
            case .merged, .rejected(_):
                throw ExportError.restore(reason: "\(source.path): Z_PK \(pending.primaryKey) collides with another record on a uniqueness constraint")
            }
            nextKey = pending.primaryKey + 1
            records[source.schema.entity.name, default: 0] += 1
            try source.advance()
        }
        for source in sources where records[source.schema.entity.name, default: 0] != source.expectedCount {
            throw ExportError.verification(path: source.path, reason: "holds \(records[source.schema.entity.name, default: 0]) records, the manifest says \(source.expectedCount)")
        }
    }
}
