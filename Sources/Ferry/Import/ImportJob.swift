import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FoundationEssentials

/// `ferry import`: reads legacy files into a store of one model version, all or nothing.
///
/// Each source streams through a record reader; every record is written, merged into an earlier
/// one on a uniqueness constraint, or rejected with its location and reason, and every line that
/// holds no record (an empty or comment line of CSV) is read and skipped, so
/// `read == written + merged + rejected + skipped` always holds. The records a record carries
/// (nested objects) are written just before it and counted per entity in `carried`. Links named
/// by the records (a task's attachments, its tags) are resolved once everything is in. The store is built beside the
/// destination (a new one, or a copy of the existing one when appending), verified there, and
/// renamed into place only when everything is written and every check holds.
public struct ImportJob {
    public let request: ImportRequest

    public init(request: ImportRequest) {
        self.request = request
    }

    /// Runs the import; `progress` is told the phase and how far it is (every
    /// `JobProgress.interval` records).
    public func run(progress: @escaping (JobProgress) -> Void = { _ in }) throws(ImportError) -> ImportSummary {
        if let (output, input) = PathOverlap.first(outputs: [request.outputPath, request.rejectLogPath],
                                                   inputs: request.sources + [request.modelPath]) {
            throw .outputIsInput(output: output, input: input)
        }
        if let twice = PathOverlap.sharedOutput([request.outputPath, request.rejectLogPath]) { throw .outputTwice(twice) }
        let model = try resolveModel()
        guard let schema = RecordSchema(model: model, entityName: request.entity) else {
            throw .unknownEntity(request.entity, version: model.name, available: model.entities.map(\.name))
        }
        guard !schema.entity.isAbstract else { throw .abstractEntity(request.entity) }
        if let unknown = (request.identityKey ?? []).first(where: { schema.index(of: $0) == nil }) {
            throw .unknownKeyAttribute(unknown, entity: request.entity)
        }
        let createMissing: Set<String>
        do {
            try UnknownOptionName.check(request.files, entities: [(model, request.entity)], versions: [model])
            createMissing = try LinkCreation.relationships(in: model, imported: [request.entity], linkAttributes: request.files.linkAttributes,
                                                           requested: request.createMissing)
        } catch { throw .unknownName(error) }
        for source in request.sources where source != "-" {
            do { try FileRecordSource.checkReadable(source) } catch { throw .source(error) }
        }
        let appending = request.existingStore == .append && FileManager.default.fileExists(atPath: request.outputPath)
        // Also where a uniqueness constraint or `--key` would catch its records: a record whose
        // key is NULL is caught by neither, and a second run of an upsert is a choice (`--again`).
        let imported = try ImportedFileCheck(sources: request.sources, entity: request.entity, store: appending ? request.outputPath : nil,
                                             refuses: !request.importsAgain)
        let writer = try openWriter(model: model)
        var rejects: RejectCollector
        do { rejects = try RejectCollector(logPath: request.rejectLogPath, limit: request.maxErrors) } catch {
            writer.discard()
            throw .failedRejectLog(error)
        }
        var summary = ImportSummary(entity: request.entity, modelVersion: model.name, outputPath: request.outputPath)
        do throws(ImportError) {
            let graph = StoreGraphWriter(writer: writer, model: model, duplicates: request.duplicates,
                                         identityKeys: request.identityKey.map { [request.entity: $0] } ?? [:],
                                         createMissing: createMissing, filesEntities: [request.entity])
            if appending, request.identityKey != nil { try rememberExistingRecords(in: graph, schema: schema, model: model) }
            // A chain of one version: records are written as read.
            let chain = MigrationChain(versions: [model], steps: [], options: request.files.coercion, variables: [:])
            var pipeline = RecordPipeline(chain: chain, graph: graph, rejects: rejects)
            pipeline.onProgress = progress
            // The digests of the bytes each source's records were read from.
            var read: [String: ImportedFiles.Digest] = [:]
            // The stamps of the regular files read, checked again before the store is put in place.
            var stamps: [String: SourceFileStamp] = [:]
            for (index, source) in request.sources.enumerated() where !pipeline.stoppedEarly {
                let opened = try openReader(source, model: model, schema: schema)
                if let delimiter = opened.delimiter { summary.delimiters[source] = delimiter }
                let cursor = FileRecordCursor(path: source, records: opened.records, entity: request.entity, version: 0, versionName: model.name,
                                              onlyEntityOf: model, census: opened.census)
                do { try pipeline.read(cursor, namespace: index) } catch { throw ImportError(error) }
                stamps[source] = opened.openingStamp
                if let digest = opened.digest.result {
                    try imported.check(read: source, digest: digest, before: read)
                    read[source] = digest
                }
            }
            do { summary.links = try pipeline.finish() } catch { throw ImportError(error) }
            summary.tally(pipeline)
            summary.uncomputedDerivations = writer.layout.unkeptDerivations(of: Set(pipeline.written.keys), in: model).map(\.description)
            if !summary.stoppedEarly {
                let list = imported.list(after: summary.ledgers, read: read)
                do { try writer.setMetadataEntries([ImportedFiles.metadataKey: try list.metadataValue()]) } catch let error as StoreWriterError {
                    throw ImportError.store(error)
                } catch {
                    throw ImportError.store(.metadataEncoding("\(ImportedFiles.metadataKey): \(error)"))
                }
            }
            if summary.stoppedEarly {
                writer.discard()
                summary.discarded = "the run stopped at the reject limit (--max-errors)"
            } else {
                if request.verify {
                    progress(JobProgress(phase: "verifying"))
                    // Verified where it is built: a store that fails never replaces anything.
                    do { try writer.commit() } catch { throw ImportError.store(error) }
                    do {
                        summary.verification = try JobVerification.verify(
                            store: request.outputPath, at: writer.temporaryPath, model: model,
                            accounting: summary.accounting(model: model, appended: appending), derivedValues: writer.derivedValues)
                    } catch {
                        throw ImportError.store(.unverifiable(path: request.outputPath, reason: JobVerification.unverifiableReason(
                            error, builtAt: writer.temporaryPath, for: request.outputPath)))
                    }
                }
                if let changed = FileRecordSource.firstChanged(stamps) { throw ImportError.source(changed) }
                if let report = summary.verification, !report.passed {
                    writer.discard()
                    summary.discarded = "it failed verification"
                } else {
                    do { try writer.finish(replacing: request.existingStore == .replace) } catch { throw ImportError.store(error) }
                    summary.externalFileWarnings = writer.externalFileWarnings
                }
            }
        } catch {
            writer.discard()
            // No room to write: nothing of the run is left behind, its reject log included.
            if error.writeFailure != nil, let log = request.rejectLogPath { FilePath.removeRegularFile(log) }
            throw error
        }
        return summary
    }

    /// Puts the records already in the store under their identity key, for `--key` upserts.
    private func rememberExistingRecords(in graph: StoreGraphWriter, schema: RecordSchema, model: ManagedObjectModel) throws(ImportError) {
        do {
            let cursor = try CoreDataStoreReader(path: request.outputPath).records(model: model).records(of: schema.entity.name)
            while let stored = try cursor.next() {
                try graph.rememberExisting(schema.attributes.map { stored.attributes[$0.name] ?? .null }, schema: schema,
                                           primaryKey: stored.primaryKey)
            }
        } catch let error as GraphWriteError {
            throw .links(error)
        } catch {
            throw .store(.existingStore(path: request.outputPath, reason: ErrorText.reason(of: error, at: request.outputPath)))
        }
    }

    private func resolveModel() throws(ImportError) -> ManagedObjectModel {
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: request.modelPath) } catch { throw .model(error) }
        let name = request.modelVersion ?? bundle.currentVersionName
        guard let model = bundle.version(named: name) else {
            throw .unknownVersion(name, available: bundle.versions.map(\.name))
        }
        return model
    }

    /// A writer for a new store, or for a copy of the existing one when appending.
    private func openWriter(model: ManagedObjectModel) throws(ImportError) -> CoreDataStoreWriter {
        // A link to nothing is there too: it is replaced only with --force.
        let exists = FileInfo.kind(atPath: request.outputPath) != nil
        do {
            try CoreDataStoreWriter.refuseUnreplaceable(at: request.outputPath)
            if exists, request.existingStore == .append {
                return try CoreDataStoreWriter.append(to: request.outputPath, model: model, batchSize: request.batchSize)
            }
            guard !exists || request.existingStore == .replace else { throw ImportError.destinationExists(request.outputPath) }
            let hashes = VersionHasher.hashes(of: model)
            return try CoreDataStoreWriter.create(
                at: request.outputPath, model: model, versionHashes: hashes.entityHashes,
                versionIdentifiers: model.versionIdentifiers, hashesDigest: hashes.digest, checksum: hashes.checksum,
                batchSize: request.batchSize)
        } catch let error as ImportError {
            throw error
        } catch let error as StoreWriterError {
            throw .store(error)
        } catch {
            throw .store(.existingStore(path: request.outputPath, reason: ErrorText.reason(of: error, at: request.outputPath)))
        }
    }

    private func openReader(_ path: String, model: ManagedObjectModel, schema: RecordSchema) throws(ImportError) -> FileRecordSource.Opened {
        do { return try request.files.open(path, model: model, schema: schema) } catch { throw .source(error) }
    }
}
