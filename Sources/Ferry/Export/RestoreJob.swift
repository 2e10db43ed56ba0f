import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryVerify
import FoundationEssentials

/// `ferry restore`: rebuilds a store from an export or backup folder, keeping every `Z_PK`.
///
/// Every file is checked against the manifest first, and its records read from the descriptor its
/// check opened (`CheckedBackup`). Records of each entity hierarchy are then
/// inserted in `Z_PK` order (the files of its concrete entities merged by `Z_PK`), with the keys
/// between them reserved so each record gets its original key, and its relationships are staged
/// as links to destination keys. Each relationship is staged from one side only (its own when it
/// has no inverse, the to-many side of a one-to-many, so ordered relationships keep their order),
/// except a many-to-many ordered on both sides, staged from both so that each keeps its order
/// (`RelationshipSide.restoresLinks`).
/// Order keys (`Z_FOK_`) are renumbered 2048, 3072, … in the restored store; the order itself is
/// kept, and so are each root's `Z_MAX` and the application's own metadata keys. The records go through the record pipeline (`RestoreRecordCursor`, keys kept), and the
/// store is verified where it is built before it is renamed into place.
public struct RestoreJob {
    public let folder: String
    /// The model version the records are written with: its version hashes must be the manifest's.
    public let model: RestoreModelSource
    public let outputPath: String
    public let replaceExisting: Bool

    public init(folder: String, model: RestoreModelSource, outputPath: String, replaceExisting: Bool = false) {
        self.folder = FilePath.withoutTrailingSlashes(folder)
        self.model = model
        self.outputPath = outputPath
        self.replaceExisting = replaceExisting
    }

    /// A restore with the version of the bundle at `modelPath` whose hashes are the manifest's.
    public init(folder: String, modelPath: String, outputPath: String, replaceExisting: Bool = false) {
        self.init(folder: folder, model: .bundle(modelPath), outputPath: outputPath, replaceExisting: replaceExisting)
    }

    /// What was restored.
    public struct Summary: Sendable {
        public var records: [String: Int]
        /// Why the restored store was not compared with the backed-up store's fingerprints,
        /// when it was a whole backup (`RestoreFingerprintCheck.omission`); nil when it was.
        public var notCompared: String? = nil
        public var links: [LinkReport]
        /// For each relationship whose pairs the other side carries (`Entity.relationship`: a
        /// one-to-many's to-one, a side of a many-to-many), how many pairs it named that no
        /// record of the folder lists back: a partial export's links to what it left out, or a
        /// source's dangling keys. They are not restored.
        public var unmatchedPairs: [String: Int] = [:]
        /// Pairs the export could hold in no file (`ExportManifest.pairsWithoutSource`): not restored.
        public var pairsWithoutSource: [String: Int64] = [:]
        /// What the backed-up store held that the backup does not (`ExportManifest.leftBehind`).
        public var leftBehind = LeftBehind()
        /// Files in the folder that the manifest does not list (an entity's file whose entry was
        /// lost, a file of an entity the model lacks, a second copy in another format): nothing
        /// in them is restored. Hidden files (`.DS_Store`) are not counted.
        public var unlistedFiles: [String] = []
        /// The failures of `ferry verify`'s relationship checks on the backed-up store, as its
        /// export named them (`ExportManifest.relationshipFailures`): the restored store holds
        /// what its records say, not the store's damage.
        public var relationshipFailures: [String] = []
        /// Why the export could not run those checks (`ExportManifest.relationshipsNotChecked`):
        /// the backed-up store's relationships are then not known to have held.
        public var relationshipsNotChecked: String?
        /// Records not restored, rejected as Core Data could not save them (a required
        /// relationship without a destination, a link of one that found nothing), and the first
        /// of them: a store that held them failed `ferry verify`.
        public var rejected = 0
        public var sampleRejects: [Reject] = []
        /// Whether the restored store was compared with the backed-up store's fingerprints (a
        /// whole backup's manifest keeps them), not only checked by its counts.
        public var compared = false
        /// Why the manifest itself could not be checked (`ExportManifest.notChecked`: an older
        /// Ferry's, without a digest of its own); nil when it was.
        public var manifestNotChecked: String? = nil
        /// The files of the replaced store's values that the restored store does not name and
        /// that could not be removed (`CoreDataStoreWriter.externalFileWarnings`): left beside it.
        public var externalFileWarnings: [String] = []
    }

    /// Restores the folder; `progress` is told the phase and how far it is (every
    /// `JobProgress.interval` records): the check of the backup, the records, link resolution,
    /// verification.
    public func run(progress: @escaping (JobProgress) -> Void = { _ in }) throws(ExportError) -> Summary {
        progress(JobProgress(phase: "checking the backup"))
        let checked = try ExportVerifier.check(folder: folder, countRecords: true)
        let manifest = checked.manifest
        if let sort = manifest.sort {
            // Records keep their keys only in `Z_PK` order (`SourceKeyOrder`).
            throw .notAnExport(path: folder + "/" + ExportManifest.fileName, reason: "the export was written in another order "
                + "(--sort \(sort)); a restore needs its records in Z_PK order: export again without --sort")
        }
        try RestoreFingerprintCheck.refuseUnknownRevision(in: manifest, path: folder + "/" + ExportManifest.fileName)
        let model = try self.model.resolve(hashes: manifest.model.versionHashes, recordedVersion: manifest.model.versionName)
        try checkFiles(of: manifest, against: model)
        if let foreign = RestoreModel.foreignNames(in: manifest.state.primaryKeyMaxima, model: model).first {
            throw .notAnExport(path: folder + "/" + ExportManifest.fileName, reason: "state.primaryKeyMaxima names \(foreign), which is no entity "
                + "of model \(model.name): its Z_MAX would not be kept")
        }
        // The folder itself: a store restored into it would make it a backup no longer (the next
        // restore names it as a file the manifest does not list, retention keeps the folder).
        if let (output, input) = PathOverlap.first(outputs: [outputPath], inputs: [folder] + (self.model.path.map { [$0] } ?? [])) {
            throw .outputIsInput(output: output, input: input)
        }
        do { try CoreDataStoreWriter.refuseUnreplaceable(at: outputPath) } catch { throw .writing(outputPath, error) }
        if FileInfo.kind(atPath: outputPath) != nil, !replaceExisting { throw .destinationExists(outputPath) }
        let writer = try RestoreModel.writer(at: outputPath, model: model, storeUUID: manifest.storeUUID)
        do throws(ExportError) {
            var pipeline = RestoreModel.pipeline(writer: writer, model: model, progress: progress)
            let links: [LinkReport]
            let cursor = RestoreRecordCursor(folder: folder, checked: checked, model: model)
            do {
                try pipeline.read(cursor, namespace: 0)
                links = try pipeline.finish()
            } catch {
                throw ExportError(restoring: error, into: outputPath)
            }
            try RestoreModel.keepState(primaryKeyMaxima: manifest.state.primaryKeyMaxima, applicationMetadata: try manifest.applicationMetadataEntries(),
                                       model: model, writer: writer, outputPath: outputPath)
            try RestoreExternalData.keep(in: writer, manifest: manifest, model: model, folder: folder, outputPath: outputPath)
            progress(JobProgress(phase: "verifying"))
            let rejected = pipeline.ledgers.reduce(into: [String: Int]()) { $0[$1.entity, default: 0] += $1.rejected }
            let report = try verify(writer, model: model, manifest: manifest, written: pipeline.written, rejected: rejected, links: links)
            var unmatched: [String: Int] = [:]
            for (relationship, named) in cursor.namedPairs {
                let kept = Int(report.relationships.first { $0.relationship == relationship }?.edges ?? 0)
                if named > kept { unmatched[relationship] = named - kept }
            }
            try RestoreIdentityCheck.check(writer.temporaryPath, manifest: manifest, model: model, outputPath: outputPath)
            let unlisted = unlistedFiles(of: manifest, model: model)
            // Records of a file the manifest does not list are not restored, and said so (exit 1);
            // everything else is compared (a stray file turned the whole comparison off unseen).
            let check = RestoreFingerprintCheck(manifest: manifest, model: model, links: links,
                                                rejectedEntities: Set(rejected.filter { $0.value > 0 }.keys), unmatchedPairs: Set(unmatched.keys),
                                                unlistedEntities: unlisted.compactMap(\.entity))
            try check?.compare(with: writer.temporaryPath, outputPath: outputPath)
            do { try writer.finish(replacing: replaceExisting) } catch {
                throw WriteFailure.of(error).map(ExportError.noRoom) ?? .restore(reason: "\(outputPath): \(error)")
            }
            return Summary(records: pipeline.written, notCompared: RestoreFingerprintCheck.omission(in: manifest, model: model), links: links,
                           unmatchedPairs: unmatched, pairsWithoutSource: manifest.pairsWithoutSource ?? [:], leftBehind: manifest.leftBehind,
                           unlistedFiles: unlisted.map(\.file), relationshipFailures: manifest.relationshipFailures ?? [],
                           relationshipsNotChecked: manifest.relationshipsNotChecked,
                           rejected: rejected.values.reduce(0, +), sampleRejects: pipeline.sampleRejects, compared: check != nil,
                           manifestNotChecked: manifest.notChecked, externalFileWarnings: writer.externalFileWarnings)
        } catch {
            writer.discard()
            throw error
        }
    }

    /// The files in the folder that `manifest` does not list, other than itself and hidden files,
    /// each with the entity of `model` it is named for, if any (a manifest that lost an entry
    /// would restore a store without that entity's records; a file of another entity, or in
    /// another format, would be passed over unseen).
    private func unlistedFiles(of manifest: ExportManifest, model: ManagedObjectModel) -> [(entity: String?, file: String)] {
        let listed = Set(manifest.entities.map(\.file)).union([ExportManifest.fileName])
        let entities = Dictionary(model.entities.map { (manifest.format.fileName(for: $0.name, gzip: manifest.gzip), $0.name) },
                                  uniquingKeysWith: { first, _ in first })
        return FilePath.entries(of: folder).sorted()
            .filter { name in !name.hasPrefix(".") && !listed.contains(name) }
            .filter { FileInfo.kind(atPath: folder + "/" + $0) == .regularFile }
            .map { (entities[$0], $0) }
    }

    /// Refuses a manifest whose files do not hold what the model version says of their entities
    /// (attributes with their types, relationships): such files would be read into the wrong
    /// columns or lose keys without a word (a manifest's `model` edited to another version).
    private func checkFiles(of manifest: ExportManifest, against model: ManagedObjectModel) throws(ExportError) {
        let path = folder + "/" + ExportManifest.fileName
        for entry in manifest.entities {
            guard let layout = EntityExportLayout(model: model, entity: entry.entity) else {
                throw .notAnExport(path: path, reason: "lists \(entry.file) of entity \(entry.entity), which model \(model.name) does not have")
            }
            // Files name their fields: the model may declare them in another order (an Xcode
            // model in the order they were added, a store's model cache by name).
            func byName<Item>(_ items: [Item], _ name: KeyPath<Item, String>) -> [Item] { items.sorted { $0[keyPath: name] < $1[keyPath: name] } }
            guard byName(layout.manifestFields(), \.name) == byName(entry.attributes, \.name),
                  byName(layout.manifestLinks(model: model), \.name) == byName(entry.relationships, \.name) else {
                throw .notAnExport(path: path, reason: "\(entry.file) holds attributes or relationships of \(entry.entity) other than "
                    + "model \(model.name) has (the manifest's model does not match its files)")
            }
        }
    }

    /// Verifies the store where it is built, before it is renamed into place: the store checks,
    /// and every file's records (as the manifest counts them) written, no more rows than that.
    private func verify(_ writer: CoreDataStoreWriter, model: ManagedObjectModel, manifest: ExportManifest, written: [String: Int],
                        rejected: [String: Int], links: [LinkReport]) throws(ExportError) -> VerificationReport {
        // A record removed when a required link of it found nothing (a key dangling in the
        // backed-up store) is rejected: accounted for, and said (`LinkReport.rejectedRecords`).
        let accounting = JobAccounting(
            ledgers: manifest.entities.map {
                .init(subject: "\($0.entity) from \($0.file)", read: $0.count, accounted: written[$0.entity, default: 0] + rejected[$0.entity, default: 0])
            },
            written: written.values.reduce(0, +), created: links.reduce(0) { $0 + $1.created }, store: outputPath, model: model)
        var report: VerificationReport
        do {
            try writer.commit()
            report = try JobVerification.verify(store: outputPath, at: writer.temporaryPath, model: model, accounting: accounting,
                                                derivedValues: writer.derivedValues)
        } catch {
            throw WriteFailure.of(error).map(ExportError.noRoom) ?? .restore(reason: "\(outputPath): cannot verify the restored store: \(error)")
        }
        // The backed-up store's own damage, restored as it was, which the export named
        // (`ExportManifest.relationshipFailures`) and the restore says again.
        report.accept(sourceFailures: Set(manifest.relationshipFailures ?? []), from: "the backed-up store")
        guard let failure = report.failures.first else { return report }
        throw .verification(path: outputPath, reason: "the restored store fails \(report.failures.count) check(s), first \(failure.check) of \(failure.subject): \(failure.message)")
    }
}

extension ExportError {
    /// A restore's error for a pipeline's, writing the store at `outputPath`: the source's own,
    /// records out of `Z_PK` order (the backup does not verify), a key that collides, a full disk
    /// or file size limit, or the store that could not be written.
    init(restoring error: PipelineError, into outputPath: String) {
        switch error {
        case .sourceFailure(let failure as ExportError): self = failure
        case .keyOutOfOrder(let source, _): self = .verification(path: source, reason: error.keyReason ?? "")
        case .keyCollides: self = .restore(reason: error.description)
        case .links(let links) where links.writeFailure != nil: self = links.writeFailure.map(ExportError.noRoom) ?? .restore(reason: error.description)
        case .noRoom(let failure): self = .noRoom(failure)
        default: self = .restore(reason: "\(outputPath): \(error)")
        }
    }
}
