import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FoundationEssentials

/// `ferry export`: writes the records of a Core Data store into one file per concrete entity,
/// plus `manifest.json`, reading everything in one read transaction so the files agree with
/// each other even while another process writes the store.
///
/// Records are streamed: each entity hierarchy is read once in `Z_PK` order, to-many
/// relationships are merged in from edge cursors sorted the same way, and bytes go to the files
/// in chunks. Memory does not grow with the store (binary plists excepted, see `ExportFormat`).
public struct ExportJob {
    public let request: ExportRequest

    public init(request: ExportRequest) {
        self.request = request
    }

    /// Writes the files and the manifest, built aside and renamed into place (`ExportPlacement`);
    /// returns the manifest. `progress` is told which entity
    /// hierarchy is read and how far, out of the rows the store's census counted.
    public func run(progress: (JobProgress) -> Void = { _ in }) throws(ExportError) -> ExportManifest {
        if let level = request.gzipLevel, !(0...9).contains(level) {
            throw .invalidRequest("the gzip level must be 0 to 9, not \(level)")
        }
        if let problem = request.selectionProblem { throw .invalidRequest(problem) }
        // Taken before the store is opened: a connection may fix the state it reads when it opens.
        let stamp = StoreFileStamp(request.copyToRead?.path ?? request.storePath)
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: request.copyToRead?.path ?? request.storePath) } catch { throw .store(error) }
        let (model, modelInfo) = try ExportModelSource.resolve(bundlePath: request.modelPath, store: store)
        let reader: StoreRecordReader
        do { reader = try store.records(model: model) } catch { throw .store(error) }
        let units = try readUnits(model)
        let entities = units.flatMap { model.hierarchy(below: $0) }.filter { !$0.isAbstract }.map(\.name)
        try request.refuseClashingFileNames(of: entities)
        let planned = entities.map(request.fileName)
        let placement = try ExportPlacement(destination: request.outputFolder, owned: request.ownedFolder,
                                            inputs: [request.storePath] + [request.modelPath].compactMap { $0 },
                                            planned: planned + [ExportManifest.fileName])
        do {
            let manifest = try write(store: store, reader: reader, model: model, modelInfo: modelInfo, units: units,
                                     into: placement, since: stamp, progress: progress)
            try placement.complete(names: manifest.entities.map(\.file) + [ExportManifest.fileName])
            return manifest
        } catch {
            placement.abandon()
            throw placement.naming(error)
        }
    }

    /// `run`, for a store another process may write meanwhile (`ferry export`): read again once
    /// when it changed while it was read (`.changedWhileReading`: an app that opens, commits and
    /// closes it all the time), then from a copy of one committed state of it, made in a scratch
    /// folder through SQLite's online backup (`CommittedStoreCopy`). Returns the
    /// manifest, and whether it was read from such a copy.
    public func runReadingACopyWhenWritten(progress: (JobProgress) -> Void = { _ in }) throws(ExportError)
        -> (manifest: ExportManifest, readFromCopy: Bool)
    {
        do {
            do { return (try run(progress: progress), false) } catch .changedWhileReading where request.copyToRead == nil {
                return (try run(progress: progress), false)
            }
        } catch .changedWhileReading where request.copyToRead == nil {
            let folder: ScratchFolder
            do { folder = try ScratchFolder.make(purpose: "export") } catch { throw .writing(request.storePath, error) }
            defer { folder.remove() }
            var copied = request
            do { copied.copyToRead = try CommittedStoreCopy.make(of: request.storePath, in: folder) } catch {
                if let failure = error.writeFailure { throw .noRoom(failure) }
                throw error.primaryCode == 5 ? .changedWhileReading(request.storePath) : .store(.sqlite(error))
            }
            return (try ExportJob(request: copied).run(progress: progress), true)
        }
    }

    /// Writes the files and the manifest into the placement's building folder.
    private func write(store: CoreDataStoreReader, reader: StoreRecordReader, model: ManagedObjectModel, modelInfo: ExportManifest.ModelInfo,
                       units: [String], into placement: ExportPlacement, since stamp: StoreFileStamp,
                       progress: (JobProgress) -> Void) throws(ExportError) -> ExportManifest {
        var state: StoreReadState
        do { state = try store.beginRead() } catch { throw .store(error) }
        // Read from a copy: the manifest describes the store the user has, not the scratch copy.
        if let copy = request.copyToRead { state.files = copy.sourceFiles }
        // Every record is to be written (no selection): no value may lie outside them all.
        if request.entities.isEmpty && request.predicate == nil { try refuseStrandedValues(reader) }
        // Counted while the records are read, on the other core where the store allows it.
        let censusWork = store.startCensus()
        let checkWork = startStoreChecks(of: store.path, model: model)
        // Not left running when the export fails: it reads the whole store on the other core.
        defer { _ = try? checkWork?.wait() }
        let census: StoreCensus
        let checks: CheckedState
        var dropped: [String: Int64] = [:]
        var files: [ExportManifest.EntityFile] = []
        var streams: [String: ToManyStream] = [:]
        do {
            for unit in units {
                let numbers = model.hierarchy(below: unit).compactMap { reader.layout.entityNumbers[$0.name] }
                files += try export(unit, reader: reader, model: model, placement: placement, streams: &streams) { done, ended in
                    // Reports wait for the census's total, and the last one of a hierarchy with
                    // records waits for the census itself.
                    let counted = ended && done > 0 ? try censusWork.wait() : censusWork.countedSoFar
                    guard ended || counted != nil else { return }
                    let total = counted.map { counted in numbers.reduce(0) { $0 + Int(counted.entity(number: Int64($1))?.rows ?? 0) } }
                    progress(JobProgress(phase: "exporting \(unit)", done: done, total: total))
                }
            }
            // Every record of each file was written (no --where): which of their values the store
            // keeps outside their rows, and under which names, so a restore keeps them there.
            if request.predicate == nil {
                for index in files.indices { files[index].externalData = ExternalDataText.text(try reader.externalValueNames(of: files[index].entity)) }
            }
            // Every record's lists were written (no selection): they must hold every pair.
            if request.entities.isEmpty && request.predicate == nil {
                try accountPairs(streams, reader: reader)
                dropped = try pairsWithoutSource(streams, reader: reader)
            }
            census = try censusWork.wait()
            checks = try self.checks(checkWork, of: store.path, since: stamp)
            try store.endRead(begunAt: state)
        } catch let error as StoreReaderError {
            throw store.readFailure(error)
        } catch let error as ExportError {
            if case .store(let failure) = error { throw store.readFailure(failure) }
            throw error
        } catch {
            throw store.readFailure(WriteFailure.of(error).map(StoreReaderError.environment)
                                    ?? .cannotOpen(path: store.path, reason: ErrorText.reason(of: error, at: store.path)))
        }
        if request.predicate == nil {
            try account(for: files, units: units, census: census, reader: reader, model: model)
        }
        let leftBehind = census.leftBehind(readWith: reader.layout)
        let manifest = ExportManifest(
            formatVersion: ExportManifest.currentFormatVersion, tool: "ferry \(FerryVersion.current)",
            createdAt: ISO8601Date.format(Date().timeIntervalSinceReferenceDate) ?? "", source: request.storePath,
            resolvedSource: FileInfo.resolvedPath(of: request.storePath), storeUUID: store.metadata.storeUUID, model: modelInfo, format: request.format,
            gzip: request.gzipLevel != nil, predicate: request.predicate, sort: request.sort, state: state, entities: files,
            applicationMetadata: try ExportManifest.applicationMetadata(of: store.metadata.applicationEntries),
            frameworkRecords: leftBehind.frameworkRecords.isEmpty ? nil : leftBehind.frameworkRecords,
            otherTables: leftBehind.otherTables.isEmpty ? nil : leftBehind.otherTables,
            otherSchema: leftBehind.otherSchema.isEmpty ? nil : leftBehind.otherSchema,
            fingerprints: checks.fingerprints, fingerprintRevision: checks.fingerprints == nil ? nil : ExportManifest.fingerprintRevision,
            fingerprintsNotKept: checks.fingerprintsNotKept,
            pairsWithoutSource: dropped.isEmpty ? nil : dropped,
            relationshipFailures: checks.relationshipFailures.isEmpty ? nil : checks.relationshipFailures,
            relationshipsNotChecked: checks.relationshipsNotChecked)
        return try ManifestFile.write(manifest, to: placement.file(ExportManifest.fileName), durable: request.durable)
    }

    /// Whether a whole export keeps the store's fingerprints in its manifest.
    private var keepsFingerprints: Bool { request.fingerprints || request.requiresFingerprints }

    /// What a whole export learns of the store on the other core (`startStoreChecks`).
    private struct StoreChecks: Sendable {
        /// The lines of `StoreVerifier.relationshipFailures`.
        var relationshipFailures: [String]
        /// Nil when not asked for.
        var fingerprints: Result<[FingerprintEntry], VerificationError>?
    }

    /// What the manifest keeps of `StoreChecks`, once they are known to be of the state exported,
    /// and why they are not when they are not: a check that did not run is never one that held.
    private struct CheckedState {
        var fingerprints: [FingerprintEntry]?
        var fingerprintsNotKept: String?
        var relationshipFailures: [String] = []
        var relationshipsNotChecked: String?
    }

    /// Starts checking the store's relationships as `ferry verify` does and fingerprinting its
    /// records and pairs, on a worker thread, for a whole export (nil for a selection): SQL on
    /// the verifier's own connection while the records are read, inside the export's read
    /// transaction.
    private func startStoreChecks(of path: String, model: ManagedObjectModel) -> BackgroundWork<StoreChecks, VerificationError>? {
        guard request.entities.isEmpty, request.predicate == nil else { return nil }
        let fingerprinted = keepsFingerprints
        return BackgroundWork {
            Result { () throws(VerificationError) in
                let verifier = try StoreVerifier(path: path, model: .model(model))
                let failures = try verifier.relationshipFailures().map(VerificationReportText.line)
                guard fingerprinted else { return StoreChecks(relationshipFailures: failures, fingerprints: nil) }
                let fingerprints = Result { () throws(VerificationError) in
                    let computed = try verifier.fingerprints(pairKeying: ExportManifest.pairKeying, pairsBetweenRecordsOnly: true)
                    return computed.records + computed.edges
                }
                return StoreChecks(relationshipFailures: failures, fingerprints: fingerprints)
            }
        }
    }

    /// What `work` found, when it is of the state exported: the store's files show no change
    /// since `stamp` (a WAL commit, a checkpoint), taken before the export's connection was
    /// opened. A store written meanwhile gets no fingerprints and no relationship failures (they
    /// would be of another state), and a store the verifier cannot fingerprint (a value its model
    /// does not allow; `ferry verify` names it) gets none: then `fingerprintsNotKept` says why,
    /// for the manifest, and `relationshipsNotChecked` why the relationship checks have no
    /// verdict (the store written meanwhile, or the verifier unable to read it). A backup requires fingerprints: a change, or a failure on the store
    /// itself (a writer waiting to commit refuses new readers), is `.changedWhileReading`, and the
    /// backup reads a copy; a failure on that copy is the verification's.
    private func checks(_ work: BackgroundWork<StoreChecks, VerificationError>?, of path: String,
                        since stamp: StoreFileStamp) throws(ExportError) -> CheckedState {
        guard let work else { return CheckedState() }
        let computed: Result<[FingerprintEntry], VerificationError>?
        var state = CheckedState()
        do {
            let checks = try work.wait()
            computed = checks.fingerprints
            state.relationshipFailures = checks.relationshipFailures
        } catch {
            computed = keepsFingerprints ? .failure(error) : nil
            state.relationshipsNotChecked = "the checker could not read the store: \(error)"
        }
        guard StoreFileStamp(path) == stamp else {
            if request.requiresFingerprints { throw .changedWhileReading(request.storePath) }
            return CheckedState(fingerprintsNotKept: keepsFingerprints ? ExportManifest.writtenWhileExported : nil,
                                relationshipsNotChecked: ExportManifest.writtenWhileExported)
        }
        switch computed {
        case nil: break
        case .success(let fingerprints): state.fingerprints = fingerprints
        case .failure(let error) where request.requiresFingerprints:
            guard request.copyToRead != nil else { throw .changedWhileReading(request.storePath) }
            throw .verification(path: request.storePath, reason: "cannot fingerprint its records for the backup: \(error)")
        case .failure(let error): state.fingerprintsNotKept = "its records could not be fingerprinted (\(error))"
        }
        return state
    }

    /// Checks that the files hold every row of the entities exported, as the store's census
    /// counts them with plain SQL; on a difference the files are removed and nothing is kept.
    private func account(for files: [ExportManifest.EntityFile], units: [String], census: StoreCensus,
                         reader: StoreRecordReader, model: ManagedObjectModel) throws(ExportError) {
        var delivered: [Int64: Int64] = [:]
        for file in files {
            delivered[reader.layout.entityNumbers[file.entity].map(Int64.init) ?? -1, default: 0] += Int64(file.count)
        }
        let exported = Set(units.flatMap { model.hierarchy(below: $0) }.compactMap { reader.layout.entityNumbers[$0.name].map(Int64.init) })
        let problems = census.discrepancies(delivered: delivered, among: request.entities.isEmpty ? nil : exported)
        guard !problems.isEmpty else { return }
        throw .notAccounted(store: request.storePath, problems: problems)
    }

    /// The pairs no file can hold, by `Entity.relationship`: those of a relationship only its own
    /// lists hold (a reflexive many-to-many that is its own inverse, a to-many kept as a key on
    /// its destinations' rows) whose source key names no record of its entity, and the join rows
    /// of a many-to-many whose two keys both name none (a row or key left dangling). The manifest
    /// names them, and a restore says they are not restored. A pair with one end that is a record
    /// is in that record's file (a to-one, the other side's list).
    private func pairsWithoutSource(_ streams: [String: ToManyStream], reader: StoreRecordReader) throws(StoreReaderError) -> [String: Int64] {
        var dropped: [String: Int64] = [:]
        var joinTablesCounted = Set<String>()
        for (name, stream) in streams.sorted(by: { $0.key < $1.key }) {
            let count: Int64
            switch reader.layout.placement(of: stream.relationship, of: stream.entity) {
            case .joinTable(let join) where join.isOwnInverse: count = try stream.finish()
            case .destinationRows(let key) where key.isToManyKey: count = try stream.finish()
            case .joinTable(let join):
                guard joinTablesCounted.insert(join.table).inserted else { continue }
                count = try reader.joinRowsNamingNoRecord(of: stream.relationship, of: stream.entity) ?? 0
            default: continue
            }
            if count > 0 { dropped[name] = count }
        }
        return dropped
    }

    /// Checks that the to-many lists written hold exactly the pairs the store's tables keep for
    /// their records, read by a scan that uses no index (`StoreRecordReader.indexFreeEdgeDigest`)
    /// and compared by an order-independent digest: the lists are read through the key's index,
    /// which can lose entries, or keep a pair the table moved (every count unchanged), while
    /// SQLite's quick_check passes. The indexes that disagree with their table are named.
    private func accountPairs(_ streams: [String: ToManyStream], reader: StoreRecordReader) throws(ExportError) {
        var problems: [String] = []
        for (name, stream) in streams.sorted(by: { $0.key < $1.key }) {
            let held: KeyRowDigest
            let stale: [IndexDisagreement]
            do {
                guard let read = try reader.indexFreeEdgeDigest(of: stream.relationship, of: stream.entity), read != stream.delivered else { continue }
                held = read
                stale = try reader.indexDisagreements(of: stream.relationship, of: stream.entity)
            } catch {
                throw .store(error)
            }
            let pairs = held.count == stream.delivered.count
                ? "the \(held.count) pairs read are not those the store's table holds (read without an index)"
                : "the store holds \(held.count) pairs (read without an index), \(stream.delivered.count) were read"
            let indexes = stale.map { "; index \($0.index) disagrees with table \($0.table) (\($0.entries.count) entries differ): "
                + "rebuild it with `sqlite3 \(request.storePath) 'REINDEX \($0.index)'`" }
            problems.append("relationship \(name): \(pairs)\(indexes.joined())")
        }
        guard !problems.isEmpty else { return }
        throw .notAccounted(store: request.storePath, problems: problems)
    }

    /// Refuses a store holding values outside every record (`StrandedValues`): the files would
    /// leave them behind, and a backup made of them would restore a store without them.
    private func refuseStrandedValues(_ reader: StoreRecordReader) throws(ExportError) {
        let stranded: [StrandedValues]
        do { stranded = try reader.strandedValues() } catch { throw .store(error) }
        guard !stranded.isEmpty else { return }
        throw .notAccounted(store: request.storePath, problems: stranded.map { "\($0): no file would hold them" })
    }

    /// The entities whose hierarchies are read: every root, or those asked for (an entity whose
    /// ancestor is also asked for is read with it).
    private func readUnits(_ model: ManagedObjectModel) throws(ExportError) -> [String] {
        guard !request.entities.isEmpty else { return model.entitiesInStoreOrder.filter { $0.parentName == nil }.map(\.name) }
        for name in request.entities where model.entity(named: name) == nil {
            throw .invalidRequest("no entity \(name) in model \(model.name) (entities: \(model.entities.map(\.name).sorted().joined(separator: ", ")))")
        }
        let asked = Set(request.entities)
        return request.entities.filter { name in !model.ancestry(of: name).dropFirst().contains { asked.contains($0.name) } }
    }

    /// Exports one entity hierarchy; returns the manifest entries of its concrete entities.
    /// `progress` is told the records read so far, and whether that is all of them.
    private func export(_ unit: String, reader: StoreRecordReader, model: ManagedObjectModel, placement: ExportPlacement,
                        streams: inout [String: ToManyStream],
                        progress: (_ done: Int, _ ended: Bool) throws -> Void) throws -> [ExportManifest.EntityFile] {
        let records = try reader.records(of: unit)
        var outputs: [String: EntityRows] = [:]
        var order: [String] = []
        for entity in model.hierarchy(below: unit) where !entity.isAbstract {
            guard let layout = EntityExportLayout(model: model, entity: entity.name) else { continue }
            let fileName = request.fileName(for: entity.name)
            let output = try EntityFileOutput(layout: layout, format: request.format, path: placement.file(fileName),
                                              fileName: fileName, gzipLevel: request.gzipLevel, durable: request.durable)
            var toMany: [ToManyStream] = []
            for (relationship, owner) in zip(layout.toMany, layout.toManyOwners) {
                let name = owner + "." + relationship.name
                let stream = try streams[name]
                    ?? ToManyStream(cursor: try reader.edges(of: relationship.name, of: owner), entity: owner, relationship: relationship.name)
                streams[name] = stream
                toMany.append(stream)
            }
            outputs[entity.name] = EntityRows(output: output, cursor: records, toMany: toMany)
            order.append(entity.name)
        }
        let selection = try RecordSelection(request: request, entity: unit, reader: reader)
        let sortOrder = try ExportSortOrder(request: request, entity: unit, reader: reader)
        var held: [Int64: (EntityFileOutput, ExportRow)] = [:]
        var last: (entity: String, rows: EntityRows?)?
        var read = 0
        try progress(0, false)
        while let record = try records.advance() {
            read += 1
            if read % JobProgress.interval == 0 { try progress(read, false) }
            guard try selection.contains(record.primaryKey) else { continue }
            if last?.entity != record.entity { last = (record.entity, outputs[record.entity]) }
            guard let rows = last?.rows else { continue }
            let row = try rows.row(record.primaryKey)
            if sortOrder == nil { try rows.output.write(row) } else { held[row.primaryKey] = (rows.output, try row.held()) }
        }
        for key in sortOrder?.keys ?? [] {
            guard let (output, row) = held.removeValue(forKey: key) else { continue }
            try output.write(row)
        }
        try progress(read, true)
        return try order.compactMap { name throws(ExportError) in try outputs[name]?.output.finish(model: model) }
    }

    /// How the cursor's rows of one concrete entity become `ExportRow`s for its file. (A class:
    /// the loop holds one per row, and a reference costs one retain where a struct of arrays
    /// costs one per field.)
    private final class EntityRows {
        let output: EntityFileOutput
        let cursor: StoredRecordCursor
        /// The cursor's positions of the layout's attributes and to-one relationships (nil: the
        /// store has no column for it, so it is NULL).
        let attributePositions: [Int?]
        let toOnePositions: [Int?]
        let toMany: [ToManyStream]

        init(output: EntityFileOutput, cursor: StoredRecordCursor, toMany: [ToManyStream]) {
            self.output = output
            self.cursor = cursor
            self.toMany = toMany
            let layout = output.layout
            let attributes = cursor.attributeNames(of: layout.entity) ?? []
            let toOne = cursor.toOneNames(of: layout.entity) ?? []
            attributePositions = layout.attributes.map { attributes.firstIndex(of: $0.name) }
            toOnePositions = layout.toOne.map { toOne.firstIndex(of: $0.name) }
        }

        /// The cursor's current row, which has key `primaryKey`.
        func row(_ primaryKey: Int64) throws -> ExportRow {
            let toOne = try toOnePositions.map { position throws(StoreReaderError) in
                try position.flatMap { position throws(StoreReaderError) in try cursor.reference(at: position)?.primaryKey }
            }
            var row = ExportRow(current: cursor, primaryKey: primaryKey, positions: attributePositions, toOne: toOne)
            row.toMany = try toMany.map { stream throws(StoreReaderError) in try stream.destinations(of: primaryKey) }
            return row
        }
    }
}
