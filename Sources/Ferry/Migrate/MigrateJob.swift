import FerryMigration
import FerryModel
import FerryStore
import FoundationEssentials

/// `ferry migrate`: brings any mix of stores (of any version) and legacy files to the current
/// version of a model, through every version in between, into one new store.
///
/// Records stream one at a time through the chain of mappings (inferred, plus written mapping
/// files kept beside the model) and into the store; links are resolved once everything is in.
/// Every record read is written, merged, rejected or filtered, per source and entity. The store
/// is built beside the destination and renamed into place only when complete; sources are only
/// read.
public struct MigrateJob {
    public let request: MigrateRequest

    public init(request: MigrateRequest) {
        self.request = request
    }

    public func run(progress: (MigrationSummary) -> Void = { _ in }) throws(MigrateError) -> MigrationSummary {
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: request.modelPath) } catch { throw .model(error) }
        var planner = MigrationPlanner(bundle: bundle, modelPath: request.modelPath, variables: request.variables, target: request.targetVersion)
        planner.defaultFailure = request.lenient ? .null : .reject
        let chain = try planner.chain(options: request.files.coercion)
        let final = chain.last
        if !request.dryRun, !request.replaceExisting, FileManager.default.fileExists(atPath: request.outputPath) {
            throw .destinationExists(request.outputPath)
        }
        let output = request.dryRun ? temporaryOutput() : request.outputPath
        let hashes = VersionHasher.hashes(of: final)
        let writer: CoreDataStoreWriter
        do {
            writer = try CoreDataStoreWriter.create(
                at: output, model: final, versionHashes: hashes.entityHashes, versionIdentifiers: [final.versionIdentifier ?? ""],
                hashesDigest: hashes.digest, checksum: hashes.checksum, batchSize: request.batchSize)
        } catch {
            throw .writer(error)
        }
        var run = MigrationRun(request: request, chain: chain, writer: writer, final: final)
        run.summary.suggestions = chain.steps.flatMap { step in step.suggestions.map { "\(step.sourceVersion) → \(step.destinationVersion): \($0)" } }
        do throws(MigrateError) {
            try run.openRejectLog()
            for (namespace, source) in request.sources.enumerated() where !run.summary.stoppedEarly {
                switch source.kind {
                case .store: try run.migrateStore(source.path, namespace: namespace)
                case let .file(entity, version): try run.migrateFile(source, entity: entity, version: version, namespace: namespace)
                }
                progress(run.summary)
            }
            try run.closeRejectLog()
            if run.summary.stoppedEarly {
                writer.discard()
            } else {
                do { run.summary.links = try run.graph.resolveLinks() } catch { throw MigrateError.links(error) }
                if request.dryRun {
                    writer.discard()
                } else {
                    do { try writer.finish(durable: request.durable) } catch { throw MigrateError.writer(error) }
                }
            }
        } catch {
            writer.discard()
            throw error
        }
        run.summary.dryRun = request.dryRun
        if request.verify, !request.dryRun, !run.summary.stoppedEarly {
            do {
                run.summary.verification = try JobVerification.verify(store: request.outputPath, model: final,
                                                                      accounting: run.summary.accounting(model: final))
            } catch {
                throw .store(source: request.outputPath, reason: "cannot verify the written store: \(error)")
            }
        }
        progress(run.summary)
        return run.summary
    }

    /// A store path for a dry run, in the temporary folder.
    private func temporaryOutput() -> String {
        FileManager.default.temporaryDirectory.path + "/ferry-plan-\(UUID().uuidString).sqlite"
    }
}
