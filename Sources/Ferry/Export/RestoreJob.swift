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

    /// Restores the store; `progress` is told each phase: the check of the backup, each entity
    /// hierarchy restored, link resolution.
    public func run(progress: (JobProgress) -> Void = { _ in }) throws(ExportError) -> Summary {
        progress(JobProgress(phase: "checking the backup"))
        let manifest = try ExportVerifier.verify(folder: folder, countRecords: true)
        let model = try RestoreModel.version(in: modelPath, hashes: manifest.model.versionHashes, recordedVersion: manifest.model.versionName)
        if FileManager.default.fileExists(atPath: outputPath), !replaceExisting { throw .destinationExists(outputPath) }
        let writer = try RestoreModel.writer(at: outputPath, model: model, storeUUID: UUID(uuidString: manifest.storeUUID) ?? UUID())
        do {
            let graph = StoreGraphWriter(writer: writer, model: model)
            var records: [String: Int] = [:]
            for root in model.entitiesInStoreOrder where root.parentName == nil {
                progress(JobProgress(phase: "restoring \(root.name)"))
                try restoreHierarchy(root.name, manifest: manifest, model: model, graph: graph, records: &records)
            }
            progress(JobProgress(phase: "resolving links"))
            let links = try graph.resolveLinks()
            try writer.finish(replacing: replaceExisting)
            return Summary(records: records, links: links)
        } catch let error as ExportError {
            writer.discard()
            throw error
        } catch {
            writer.discard()
            throw WriteFailure.of(error).map(ExportError.noRoom) ?? .restore(reason: "\(outputPath): \(error)")
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
        var insert = KeyPreservingInsert(graph: graph, root: root)
        while let source = sources.filter({ $0.pending != nil }).min(by: { ($0.pending?.primaryKey ?? 0) < ($1.pending?.primaryKey ?? 0) }),
              let pending = source.pending {
            try insert.insert(pending.record, primaryKey: pending.primaryKey, schema: source.schema, origin: source.path)
            records[source.schema.entity.name, default: 0] += 1
            try source.advance()
        }
        for source in sources where records[source.schema.entity.name, default: 0] != source.expectedCount {
            throw ExportError.verification(path: source.path, reason: "holds \(records[source.schema.entity.name, default: 0]) records, the manifest says \(source.expectedCount)")
        }
    }
}
