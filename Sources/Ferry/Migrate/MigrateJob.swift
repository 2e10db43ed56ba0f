import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryVerify
import FoundationEssentials

/// `ferry migrate`: brings any mix of stores (of any version) and legacy files to the current
/// version of a model, through every version in between, into one new store.
///
/// Records stream one at a time through the chain of mappings (inferred, plus written mapping
/// files kept beside the model) and into the store; links are resolved once everything is in.
/// Every record read is written, merged, rejected or filtered, per source and entity. The store
/// is built beside the destination, verified there, and renamed into place only when complete;
/// sources are only read. A store whose checks all hold gets a `MigrationReceipt` (its inputs'
/// digests are taken on the second core while the records stream).
public struct MigrateJob {
    public let request: MigrateRequest

    public init(request: MigrateRequest) {
        self.request = request
    }

    /// Runs the migration; `progress` is told the phase and how far it is (every
    /// `JobProgress.interval` records).
    public func run(progress: @escaping (JobProgress) -> Void = { _ in }) throws(MigrateError) -> MigrationSummary {
        if let (output, input) = PathOverlap.first(outputs: [request.dryRun ? nil : request.outputPath, request.rejectLogPath],
                                                   inputs: request.sources.map(\.path) + [request.modelPath]) {
            throw .outputIsInput(output: output, input: input)
        }
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: request.modelPath) } catch { throw .model(error) }
        let chain = try MigrationPlanner(bundle: bundle, request: request).chain(options: request.files.coercion)
        try refuseFilesWithoutEntity(chain)
        let final = chain.last
        if !request.dryRun, !request.replaceExisting, FileManager.default.fileExists(atPath: request.outputPath) {
            throw .destinationExists(request.outputPath)
        }
        let output = request.dryRun ? temporaryOutput() : request.outputPath
        let hashes = VersionHasher.hashes(of: final)
        let identity = try StoreIdentity.choose(for: request.sources)
        let writer: CoreDataStoreWriter
        do {
            writer = try CoreDataStoreWriter.create(
                at: output, model: final, versionHashes: hashes.entityHashes, versionIdentifiers: [final.versionIdentifier ?? ""],
                storeUUID: UUID(uuidString: identity.uuid) ?? UUID(),
                hashesDigest: hashes.digest, checksum: hashes.checksum, batchSize: request.batchSize)
        } catch {
            throw .writer(error)
        }
        let inputs = request.verify && !request.dryRun ? BackgroundWork<MigrationInputs, MigrateError> { [request] in
            Result { () throws(MigrateError) in try MigrationInputs.of(request, bundle: bundle) }
        } : nil
        var run = MigrationRun(request: request, chain: chain, writer: writer, final: final)
        run.onProgress = progress
        run.summary.identity = identity
        if let kept = identity.keptFrom {
            // Its objects keep their keys: no other record may take one of them first.
            run.identitySource = request.sources.firstIndex { $0.kind == .store && $0.path == kept }
            writer.reservePrimaryKeys(through: identity.largestPrimaryKey)
        }
        run.summary.suggestions = chain.steps.flatMap { step in step.suggestions.map { "\(step.sourceVersion) → \(step.destinationVersion): \($0)" } }
        do throws(MigrateError) {
            try run.openRejectLog()
            for (namespace, source) in request.sources.enumerated() where !run.summary.stoppedEarly {
                switch source.kind {
                case .store: try run.migrateStore(source.path, namespace: namespace)
                case let .file(entity, version): try run.migrateFile(source, entity: entity, version: version, namespace: namespace)
                }
            }
            if !run.summary.stoppedEarly { try run.resolveLinks() }
            try run.closeRejectLog()
            if run.summary.stoppedEarly {
                writer.discard()
            } else {
                if request.dryRun {
                    writer.discard()
                } else {
                    // Verified where it is built, so that its receipt is renamed into place with it;
                    // a check that cannot run is reported once the store is in place.
                    var verification: Result<Void, MigrateError> = .success(())
                    // Committed first: a store that cannot be written is discarded, not verified.
                    do { try writer.commit() } catch { throw MigrateError.writer(error) }
                    if let inputs {
                        run.startPhase("verifying", total: nil)
                        verification = Result { () throws(MigrateError) in
                            try verify(writer, model: final, inputs: inputs, carried: run.carriedValues, summary: &run.summary)
                        }
                    }
                    if let report = run.summary.verification, !report.passed {
                        // A store that failed its checks never replaces anything (`--force` included).
                        writer.discard()
                        run.summary.discarded = "it failed verification"
                    } else {
                        do { try writer.finish(durable: request.durable, replacing: request.replaceExisting) } catch { throw MigrateError.writer(error) }
                    }
                    try verification.get()
                }
            }
        } catch {
            writer.discard()
            // No room to write: nothing of the run is left behind, its reject log included.
            if error.writeFailure != nil, let log = request.rejectLogPath { FilePath.removeRegularFile(log) }
            throw error
        }
        run.summary.dryRun = request.dryRun
        return run.summary
    }

    /// A source given as a store whose name or first bytes say it is a file of records (CSV, JSON,
    /// a property list) lacks its `ENTITY:`: refused, naming what is missing, before anything is read.
    private func refuseFilesWithoutEntity(_ chain: MigrationChain) throws(MigrateError) {
        for source in request.sources where source.kind == .store {
            guard let format = SourceFormat.recognize(path: source.path) else { continue }
            throw .entityMissing(source: source.path, format: format, entities: Set(chain.versions.flatMap { $0.entities.map(\.name) }).sorted())
        }
    }

    /// Verifies the store where it is built (with the values records carried unchanged) and,
    /// when every check holds, writes the receipt into it, so that it is renamed into place with it.
    private func verify(_ writer: CoreDataStoreWriter, model: ManagedObjectModel, inputs: BackgroundWork<MigrationInputs, MigrateError>,
                        carried: CarriedValueCheck?, summary: inout MigrationSummary) throws(MigrateError) {
        let accounting = summary.accounting(model: model)
        var report: VerificationReport
        do {
            report = try JobVerification.verify(store: request.outputPath, at: writer.temporaryPath, model: model,
                                                accounting: accounting, fingerprints: true)
            if let carried {
                let (section, note) = try carried.section(store: writer.temporaryPath, model: model, links: summary.links)
                report.append(section)
                if let note { report.notes.append(note) }
            }
        } catch {
            throw .store(source: request.outputPath, reason: "cannot verify the written store: \(error)")
        }
        summary.verification = report
        guard report.passed else {
            summary.receiptMissing = "the store failed verification"
            return
        }
        do {
            let receipt = MigrationReceipt(inputs: try inputs.wait(), accounting: accounting, report: report)
            try writer.setMetadataEntry(MigrationReceipt.metadataKey, to: try receipt.metadataValue())
        } catch {
            summary.receiptMissing = "\(error)"
        }
    }

    /// A store path for a dry run, in the temporary folder.
    private func temporaryOutput() -> String {
        FileManager.default.temporaryDirectory.path + "/ferry-plan-\(UUID().uuidString).sqlite"
    }
}
