import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryVerify
import FoundationEssentials

/// `ferry migrate`: brings any mix of stores (of any version) and legacy files to the current
/// version of a model into one new store.
///
/// Records stream one at a time through the chain of mappings (inferred, plus written mapping
/// files kept beside the model), each source's by the way of its version (`MigrationPlanner`),
/// and into the store; links are resolved once everything is in.
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
                                                   inputs: request.sources.map(\.path) + [request.modelPath]
                                                       + MigrationPlanner.mappingInputs(modelPath: request.modelPath, given: request.mappingModels)) {
            throw .outputIsInput(output: output, input: input)
        }
        if let twice = PathOverlap.sharedOutput([request.dryRun ? nil : request.outputPath, request.rejectLogPath]) { throw .outputTwice(twice) }
        // Taken before any source store is opened: the run reads each several times (its
        // version, records, census, the verification's counts), which must all be one state.
        let sourceStamps = request.sources.filter { $0.kind == .store }.map { ($0.path, StoreFileStamp($0.path)) }
        /// A source store that another process wrote since the run began: what it read may mix two states.
        func changedSource() -> MigrateError? {
            sourceStamps.first { StoreFileStamp($0.0) != $0.1 }.map {
                .store(source: $0.0, reason: "it changed while it was read (another process wrote it): run again")
            }
        }
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: request.modelPath) } catch { throw .model(error) }
        try refuseFilesWithoutEntity(bundle.versions)
        let planner = MigrationPlanner(bundle: bundle, request: request)
        let (chain, unreadMappings) = try planner.planned(options: request.files.coercion)
        try checkFileSources(chain)
        let duplicates = try DuplicateRules(chain: chain, mappingFile: planner.mappingFilePath(from:to:))
        let unreadVariables: [String]
        do { unreadVariables = try chain.checkVariables() } catch { throw .mapping(error) }
        let final = chain.last
        if !request.dryRun { do { try CoreDataStoreWriter.refuseUnreplaceable(at: request.outputPath) } catch { throw .writer(error) } }
        if !request.dryRun, !request.replaceExisting, FileInfo.kind(atPath: request.outputPath) != nil {
            throw .destinationExists(request.outputPath)
        }
        let output = request.dryRun ? temporaryOutput() : request.outputPath
        let hashes = VersionHasher.hashes(of: final)
        let identity = try StoreIdentity.choose(for: request.sources, given: request.storeUUID)
        let writer: CoreDataStoreWriter
        do {
            writer = try CoreDataStoreWriter.create(
                at: output, model: final, versionHashes: hashes.entityHashes, versionIdentifiers: final.versionIdentifiers,
                storeUUID: identity.uuid,
                hashesDigest: hashes.digest, checksum: hashes.checksum, batchSize: request.batchSize)
        } catch {
            throw .writer(error)
        }
        let inputs = request.verify ? BackgroundWork<MigrationInputs, MigrateError> { [request] in
            Result { () throws(MigrateError) in try MigrationInputs.of(request, bundle: bundle) }
        } : nil
        let sourceChecks = request.verify ? startSourceChecks(chain) : nil
        // Not left running when the run fails: it reads the source stores on the other core.
        defer { _ = sourceChecks?.wait() }
        let graph = try self.graph(writer: writer, chain: chain, duplicates: duplicates)
        var summary = MigrationSummary(chains: chain.chains, outputPath: request.outputPath)
        summary.identity = identity
        summary.warnings += unreadVariables + planner.misnamedMappingFiles() + unreadMappings
        // The source (by position) whose objects keep their `Z_PK` and `Z_OPT`: the store whose
        // UUID the new store keeps. Its objects keep their keys: no other record may take one first.
        var identitySource: Int?
        var keptKeys = KeptPrimaryKeys.none
        if let kept = identity.keptFrom {
            identitySource = request.sources.firstIndex { $0.kind == .store && $0.path == kept }
            keptKeys = try KeptPrimaryKeys.of(store: kept, chain: chain)
            for (root, largest) in keptKeys.largestByRoot {
                do { try writer.keepPrimaryKeys(through: largest, root: root) } catch { throw .writer(error) }
            }
        }
        summary.suggestions = chain.steps.flatMap { step in step.suggestions.map { "\(step.sourceVersion) → \(step.destinationVersion): \($0)" } }
        do throws(MigrateError) {
            var rejects = RejectCollector(limit: request.maxErrors)
            do { try rejects.openLog(at: request.rejectLogPath) } catch { throw .failedRejectLog(error) }
            var pipeline = RecordPipeline(chain: chain, graph: graph, rejects: rejects)
            // The kept store's objects keep their keys, up to their root's `Z_MAX`: their values are checked on them.
            let sourceEntities = try sourceEntities(chain)
            let carried = inputs != nil ? CarriedValueWatch(chain: chain, keptKeys: keptKeys, sourceEntities: sourceEntities) : nil
            pipeline.observer = carried
            pipeline.onProgress = progress
            pipeline.sourceEntities = sourceEntities
            // The digests of the bytes each file's records were read from, for the list of files read.
            var digests: [String: ReadDigest] = [:]
            // The stamps of the regular files read, checked again before the store is put in place.
            var stamps: [String: SourceFileStamp] = [:]
            for (namespace, source) in request.sources.enumerated() where !pipeline.stoppedEarly {
                let cursor = try self.cursor(for: source, chain: chain, keepsIdentity: namespace == identitySource, summary: &summary,
                                             digests: &digests, stamps: &stamps)
                do { try pipeline.read(cursor, namespace: namespace) } catch { throw MigrateError(error) }
            }
            do { summary.links = try pipeline.finish() } catch { throw MigrateError(error) }
            if let checked = sourceChecks?.wait() {
                (summary.sourceRelationshipFailures, summary.sourceRelationshipsNotChecked) = (checked.failures, checked.notChecked)
            }
            do {
                try writer.setMetadataEntries(sourceMetadata(read: pipeline.ledgers, digests: digests.compactMapValues(\.result), chain: chain,
                                                             summary: &summary))
            } catch {
                throw MigrateError.writer(error)
            }
            summary.ledgers = pipeline.ledgers
            summary.written = pipeline.written
            summary.uncomputedDerivations = writer.layout.unkeptDerivations(of: Set(pipeline.written.keys), in: final).map(\.description)
            summary.sampleRejects = pipeline.sampleRejects
            summary.stoppedEarly = pipeline.stoppedEarly
            summary.suggestions += pipeline.notes.filter { !$0.isWarning }.map(\.description)
            summary.warnings += (pipeline.notes + chain.uncarriedValues).filter(\.isWarning).flatMap(\.lines)
            summary.notes = chain.notedRecords
            summary.renumbered = writer.renumberedObjects
            for (entity, count) in summary.renumbered.sorted(by: { $0.key < $1.key }) {
                summary.warnings.append("\(entity): \(count) object\(count == 1 ? "" : "s") of the store whose UUID is kept got a new Z_PK, "
                    + "as an object of another entity now in the same table (the hierarchy changed) kept that key: URIs saved for "
                    + (count == 1 ? "it no longer name it" : "them no longer name them"))
            }
            summary.absentDefaults = pipeline.absentDefaults
            if summary.stoppedEarly {
                writer.discard()
                summary.discarded = "the run stopped at the reject limit (--max-errors)"
            } else {
                // Verified where it is built, so that its receipt is renamed into place with it.
                // A store whose check could not run (too many open files) is not placed: its
                // verdict is unknown. A dry run checks its store as the run would, then discards
                // it: its verdict is the run's.
                var verification: Result<Void, MigrateError> = .success(())
                // Committed first: a store that cannot be written is discarded, not verified.
                do { try writer.commit(flushing: request.durable && !request.dryRun) } catch { throw MigrateError.writer(error) }
                if let inputs {
                    pipeline.startPhase("verifying", total: nil)
                    verification = Result { () throws(MigrateError) in
                        try verify(writer, chain: chain, inputs: inputs, carried: carried?.check, summary: &summary)
                    }
                }
                if let changed = changedSource() { throw changed }
                if let changed = FileRecordSource.firstChanged(stamps) { throw MigrateError.source(changed) }
                try verification.get()
                if request.dryRun {
                    writer.discard()
                } else if let report = summary.verification, !report.passed {
                    // A store that failed its checks never replaces anything (`--force` included).
                    writer.discard()
                    summary.discarded = "it failed verification"
                } else {
                    do { try writer.finish(durable: request.durable, replacing: request.replaceExisting) } catch { throw MigrateError.writer(error) }
                    // Files of the replaced store's values that could not be removed (`--force`).
                    summary.warnings += writer.externalFileWarnings
                }
            }
        } catch {
            writer.discard()
            // No room to write: nothing of the run is left behind, its reject log included.
            if error.writeFailure != nil, let log = request.rejectLogPath { FilePath.removeRegularFile(log) }
            // Counts that differ because a source changed under the run are that change, not a loss.
            if case .notAccounted = error, let changed = changedSource() { throw changed }
            throw error
        }
        summary.dryRun = request.dryRun
        return summary
    }

    /// Starts `ferry verify`'s relationship checks of each source store on a worker thread
    /// (`StoreVerifier.relationshipFailures`), read with the version the run reads its records
    /// as: the damage the run passes over or mends without a word (an entity column naming
    /// another entity than its row's is read as the row's). The failures' lines by store, and
    /// why the checks could not run on a store whose records the run reads (no verdict: the run
    /// says so). A store the run cannot read is the run's to refuse.
    private func startSourceChecks(_ chain: MigrationChain) -> BackgroundWork<(failures: [String: [String]], notChecked: [String: String]), Never> {
        let stores = request.sources.filter { $0.kind == .store }.compactMap { source -> (path: String, model: ManagedObjectModel)? in
            guard let reader = try? CoreDataStoreReader(path: source.path),
                  let (_, model) = try? StoreRecordCursor.version(of: reader, in: chain) else { return nil }
            return (source.path, model)
        }
        return BackgroundWork {
            var failures: [String: [String]] = [:]
            var notChecked: [String: String] = [:]
            for store in stores {
                do throws(VerificationError) {
                    let found = try StoreVerifier(path: store.path, model: .model(store.model)).relationshipFailures().map(VerificationReportText.line)
                    if !found.isEmpty { failures[store.path] = found }
                } catch {
                    notChecked[store.path] = "\(error)"
                }
            }
            return .success((failures, notChecked))
        }
    }

    /// The graph writer of the last version, with the written mappings' duplicate policies and
    /// identities of the steps into it (`DuplicateRules`).
    private func graph(writer: CoreDataStoreWriter, chain: MigrationChain, duplicates: DuplicateRules) throws(MigrateError) -> StoreGraphWriter {
        let final = chain.last
        let createMissing: Set<String>
        // The files' entities by name: one renamed on the way is not known by its last name here.
        let imported = Set(request.sources.compactMap { source in if case .file(let entity, _) = source.kind { entity } else { nil } })
        do {
            createMissing = try LinkCreation.relationships(in: final, imported: imported, linkAttributes: request.files.linkAttributes, requested: [])
        } catch {
            throw .unknownName(error)
        }
        return StoreGraphWriter(
            writer: writer, model: final, duplicates: request.duplicates, duplicatesByEntity: duplicates.policies, identityKeys: duplicates.identities,
            createMissing: createMissing, filesEntities: imported)
    }

    /// A source opened as a record cursor: a store (its version found by its hashes), or a
    /// legacy file read as records of its entity in the oldest version that has it (or the
    /// version it names).
    private func cursor(for source: MigrationSource, chain: MigrationChain, keepsIdentity: Bool,
                        summary: inout MigrationSummary, digests: inout [String: ReadDigest],
                        stamps: inout [String: SourceFileStamp]) throws(MigrateError) -> any RecordCursor {
        switch source.kind {
        case .store:
            do { return try StoreRecordCursor(path: source.path, chain: chain, keepsIdentity: keepsIdentity) } catch { throw MigrateError(error) }
        case let .file(entity, version):
            let (index, schema) = try fileVersion(of: source.path, entity: entity, version: version, chain: chain)
            let opened: FileRecordSource.Opened
            do { opened = try request.files.open(source.path, model: chain.versions[index], schema: schema) } catch { throw .source(error) }
            if let delimiter = opened.delimiter { summary.delimiters[source.path] = delimiter }
            digests[source.path] = opened.digest
            stamps[source.path] = opened.openingStamp
            return FileRecordCursor(path: source.path, records: opened.records, entity: entity, version: index,
                                    versionName: chain.versions[index].name, census: opened.census, chain: chain)
        }
    }

    /// The entities each version's sources hold records of: every entity of a store's version,
    /// a file's entity in its version (`RecordPipeline.sourceEntities`).
    private func sourceEntities(_ chain: MigrationChain) throws(MigrateError) -> [Int: Set<String>] {
        var entities: [Int: Set<String>] = [:]
        for source in request.sources {
            switch source.kind {
            case .store:
                do {
                    let store = try StoreRecordCursor.entities(ofStoreAt: source.path, in: chain)
                    entities[store.version, default: []].formUnion(store.entities)
                } catch {
                    throw MigrateError(error)
                }
            case let .file(entity, named):
                entities[try fileVersion(of: source.path, entity: entity, version: named, chain: chain).index, default: []].insert(entity)
            }
        }
        return entities
    }

    /// The version a file source's records are read in (the one it names, or the oldest that has
    /// its entity) and the entity's schema there.
    private func fileVersion(of path: String, entity: String, version: String?,
                             chain: MigrationChain) throws(MigrateError) -> (index: Int, schema: RecordSchema) {
        let index: Int
        if let version {
            guard let found = chain.versions.firstIndex(where: { $0.name == version }) else {
                throw .unknownVersion(version, available: chain.versions.map(\.name))
            }
            index = found
        } else {
            guard let found = chain.versions.firstIndex(where: { $0.entity(named: entity) != nil }) else {
                throw .unknownEntity(source: path, entity: entity)
            }
            index = found
        }
        guard let schema = chain.schema(version: index, entity: entity) else { throw .unknownEntity(source: path, entity: entity) }
        return (index, schema)
    }

    /// Checks, before the destination is looked at, what file sources name: each one's entity
    /// and version, that the file can be read, and the names `--map` and `--link` give.
    private func checkFileSources(_ chain: MigrationChain) throws(MigrateError) {
        var entities: [(version: ManagedObjectModel, entity: String)] = []
        for source in request.sources {
            guard case let .file(entity, version) = source.kind else { continue }
            let index = try fileVersion(of: source.path, entity: entity, version: version, chain: chain).index
            entities.append((chain.versions[index], entity))
            if source.path != "-" {
                do { try FileRecordSource.checkReadable(source.path) } catch { throw .source(error) }
            }
        }
        do { try UnknownOptionName.check(request.files, entities: entities, versions: chain.versions) } catch { throw .unknownName(error) }
    }

    /// A source given as a store whose name or first bytes say it is a file of records (CSV, JSON,
    /// a property list) lacks its `ENTITY:`: refused, naming what is missing, before anything is read.
    private func refuseFilesWithoutEntity(_ versions: [ManagedObjectModel]) throws(MigrateError) {
        for source in request.sources where source.kind == .store {
            guard let format = SourceFormat.recognize(path: source.path) else { continue }
            throw .entityMissing(source: source.path, format: format, entities: Set(versions.flatMap { $0.entities.map(\.name) }).sorted())
        }
        // A version a file names is one of the bundle's, and has the file's entity: said with the
        // bundle's versions (the chain's are only its stops), and those that have the entity.
        for source in request.sources {
            guard case let .file(entity, named?) = source.kind else { continue }
            guard let version = versions.first(where: { $0.name == named }) else { throw .unknownVersion(named, available: versions.map(\.name)) }
            guard version.entity(named: entity) == nil else { continue }
            throw .entityNotInVersion(source: source.path, entity: entity, version: named,
                                      versionsWithIt: versions.filter { $0.entity(named: entity) != nil }.map(\.name))
        }
    }

    /// Verifies the store where it is built (with the values records carried unchanged, and the
    /// to-one pairs of a single source store against that store's own) and, when every check
    /// holds, writes the receipt into it, so that it is renamed into place with it.
    private func verify(_ writer: CoreDataStoreWriter, chain: MigrationChain, inputs: BackgroundWork<MigrationInputs, MigrateError>,
                        carried: CarriedValueCheck?, summary: inout MigrationSummary) throws(MigrateError) {
        let model = chain.last
        let accounting = summary.accounting(model: model)
        var report: VerificationReport
        do {
            report = try JobVerification.verify(store: request.outputPath, at: writer.temporaryPath, model: model,
                                                accounting: accounting, fingerprints: true, derivedValues: writer.derivedValues)
            if let carried {
                let (section, note) = try carried.section(store: writer.temporaryPath, model: model, links: summary.links)
                report.append(section)
                if let note { report.notes.append(note) }
            }
            let (pairs, note) = try SourcePairCheck.section(store: writer.temporaryPath, model: model, chain: chain, summary: summary)
            if let pairs { report.append(pairs) }
            if let note { report.notes.append(note) }
            // A source store's own damage, carried as it was (a one-to-one two objects claim),
            // which the run names (`sourceRelationshipFailures`).
            report.accept(sourceFailures: Set(summary.sourceRelationshipFailures.values.joined()), from: "a source store")
        } catch {
            throw .writer(.unverifiable(path: request.outputPath, reason: JobVerification.unverifiableReason(
                error, builtAt: writer.temporaryPath, for: request.outputPath)))
        }
        summary.verification = report
        guard report.passed else {
            summary.receiptMissing = "the store failed verification"
            return
        }
        do {
            let receipt = MigrationReceipt(inputs: try inputs.wait(), accounting: accounting, report: report,
                                           storeUUID: writer.storeUUID?.text)
            try writer.setMetadataEntry(MigrationReceipt.metadataKey, to: try receipt.metadataValue())
        } catch {
            summary.receiptMissing = "\(error)"
        }
    }

    /// The metadata keys the new store takes from its sources: the application's own keys of the
    /// one store migrated (its `setMetadata` keys, as Core Data's migration of a store keeps
    /// them), its receipt of an earlier migration aside, none when several stores are sources,
    /// whose keys could disagree; and the files imported into them (`ImportedFiles`, every
    /// store's list), with the files this run read (`digests`: the regular ones), each as the
    /// entity its records became in the last version, so that `import --append` refuses them in
    /// the new store too. A list that cannot be read is warned.
    private func sourceMetadata(read ledgers: [SourceLedger], digests: [String: ImportedFiles.Digest], chain: MigrationChain,
                                summary: inout MigrationSummary) -> [String: PropertyListValue] {
        let stores = request.sources.filter { $0.kind == .store }.compactMap { try? CoreDataStoreReader(path: $0.path) }
        var entries: [String: PropertyListValue] = [:]
        if stores.count == 1, request.sources.filter({ $0.kind == .store }).count == 1 {
            entries = stores[0].metadata.applicationEntries
            entries[MigrationReceipt.metadataKey] = nil
        }
        var imported = ImportedFiles.none
        for store in stores {
            do { imported = imported.adding(try ImportedFiles(metadata: store.metadata.propertyList).files) } catch {
                summary.warnings.append("\(store.path): its list of imported files cannot be read (\(error)): the new store's list does not hold it, "
                    + "so import --append does not refuse those files again")
            }
        }
        imported = imported.adding(read: ledgers.filter { digests[$0.source] != nil }, digests: digests).map { file in
            guard let version = chain.versions.firstIndex(where: { $0.name == file.modelVersion }) else { return }
            file.entity = chain.route(entity: file.entity, from: version).finalEntity ?? file.entity
            file.modelVersion = chain.last.name
        }
        entries[ImportedFiles.metadataKey] = imported.files.isEmpty ? nil : try? imported.metadataValue()
        return entries
    }

    /// A store path for a dry run, in the temporary folder.
    private func temporaryOutput() -> String {
        FileManager.default.temporaryDirectory.path + "/ferry-plan-\(UUID().uuidString).sqlite"
    }
}
