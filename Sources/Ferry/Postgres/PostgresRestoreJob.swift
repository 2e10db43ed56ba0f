import FerryFormats
import FerryMigration
import FerryModel
import FerryPostgres
import FerryStore
import FoundationEssentials

/// `ferry restore postgresql://… --store UUID --model M --out STORE`: rebuilds a Core Data
/// store from the rows one store left in a schema, with every `Z_PK`, every relationship
/// (ordered ones in order) and the original store UUID.
///
/// The catalog row of the store gives the model version (the bundle's version with its version
/// hashes) and the schema's layout digest must be that version's. Everything is read in one
/// repeatable-read transaction, through the record pipeline (a chain of one version, keys kept):
/// `PostgresRecordCursor` gives the records of each root table in `Z_PK` order with their to-one
/// keys as links, then the pairs kept apart (join tables, ordered to-ones from the parent), and
/// checks what was read against the database's counts. Each root entity's `Z_MAX` and the
/// application's own metadata keys come back from the catalog row, as a folder restore takes
/// them from its manifest (`RestoreModel.keepState`). Before the new store is renamed into
/// place, its rows per entity and pairs per relationship are counted with SQL and compared with
/// the database's counts, the pairs it could not keep (a key naming a row of another entity than
/// its relationship's, which the load kept and named as `ferry verify` does) counted as not kept.
public struct PostgresRestoreJob {
    public var target: ConnectionTarget
    public var schema: String
    /// The store's UUID, as `ferry export --to` printed it.
    public var storeUUID: UUID
    /// Where the model version comes from: a bundle holding it, or the version itself. Either
    /// way its version hashes must be those the catalog recorded.
    public var model: RestoreModelSource
    public var outputPath: String
    public var replaceExisting: Bool

    public init(target: ConnectionTarget, schema: String = "ferry", storeUUID: UUID, model: RestoreModelSource, outputPath: String,
                replaceExisting: Bool = false) {
        self.target = target
        self.schema = schema
        self.storeUUID = storeUUID
        self.model = model
        self.outputPath = outputPath
        self.replaceExisting = replaceExisting
    }

    /// What was restored.
    public struct Summary: Sendable {
        public var modelVersion: String
        /// Records written per entity (the pipeline's ledger).
        public var records: [String: Int]
        /// Rows and pairs of the new store: the database's, less the pairs not kept (`links`).
        public var counts: TransferCounts
        /// Rows and pairs of the store in the database, counted there with SQL.
        public var databaseCounts: TransferCounts
        public var links: [LinkReport]
        /// Whether the catalog row recorded the store's `Z_MAX` values and application metadata;
        /// false for a row an older Ferry wrote: `Z_MAX` is then the largest key restored, and the
        /// application's metadata keys are not restored.
        public var catalogRecordsState: Bool
        /// The failures of `ferry verify`'s relationship checks the load named on the store
        /// (kept in its catalog row): the database holds its rows as they were loaded.
        public var relationshipFailures: [String]
        /// Why those checks did not run on the state loaded (kept in its catalog row); nil when they ran.
        public var relationshipsNotChecked: String?
        /// Files of the replaced store's values (`--force`) that the new store does not name and
        /// that could not be removed (`CoreDataStoreWriter.externalFileWarnings`): left beside it.
        public var externalFileWarnings: [String] = []
    }

    /// Restores the store; `progress` is told the phase and how far it is (every
    /// `JobProgress.interval` records): the records, link resolution, verification.
    public func run(progress: @escaping (JobProgress) -> Void = { _ in }) throws(PostgresTransferError) -> Summary {
        let connection = try database { () throws(PostgresError) in try PostgresConnection(target) }
        let catalog = PostgresCatalog(connection: connection, schema: schema)
        let uuid = storeUUID.uuidString
        guard let entry = try catalog.entry(store: uuid) else { throw .notLoaded(store: uuid, schema: schema, held: try catalog.storeList()) }
        let model: ManagedObjectModel
        do throws(ExportError) {
            model = try self.model.resolve(hashes: entry.versionHashes, recordedVersion: entry.modelVersion)
        } catch {
            throw .export(error)
        }
        if let foreign = RestoreModel.foreignNames(in: entry.primaryKeyMaxima ?? [:], model: model).first {
            throw .export(.model(reason: "schema \(schema) keeps a Z_MAX of \(foreign) for store \(uuid), which is no entity of model \(model.name)"))
        }
        let layout = try PostgresLayout(model: model)
        guard let existing = try catalog.layout() else { throw .notLoaded(store: uuid, schema: schema, held: []) }
        guard existing.digest == PostgresTableDefinitions(layout: layout, schema: schema).digest else {
            throw .otherLayout(schema: schema, model: existing.model)
        }
        if FileInfo.kind(atPath: outputPath) != nil, !replaceExisting { throw .export(.destinationExists(outputPath)) }
        let writer: CoreDataStoreWriter
        // Spelled as the store spelled it, where the catalog row says (an older Ferry's does not).
        let identity = entry.spelling ?? StoreUUID(storeUUID)
        do { writer = try RestoreModel.writer(at: outputPath, model: model, storeUUID: identity) } catch { throw .export(error) }
        do {
            try database { () throws(PostgresError) in try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") }
            let cursor = try PostgresRecordCursor(connection: connection, schema: schema, store: uuid, model: model, layout: layout,
                                                  path: origin(uuid))
            var pipeline = RestoreModel.pipeline(writer: writer, model: model, progress: progress)
            let links: [LinkReport]
            do {
                try pipeline.read(cursor, namespace: 0)
                links = try pipeline.finish()
            } catch {
                throw restoreError(error)
            }
            do throws(ExportError) {
                try RestoreModel.keepState(primaryKeyMaxima: entry.primaryKeyMaxima ?? [:],
                                           applicationMetadata: entry.applicationMetadata.flatMap(ExportManifest.applicationMetadataEntries(of:)) ?? [:],
                                           model: model, writer: writer, outputPath: outputPath)
                try RestoreExternalData.keep(try externalNames(entry, model: model), in: writer, source: origin(uuid), outputPath: outputPath)
            } catch {
                throw PostgresTransferError.export(error)
            }
            try database { () throws(PostgresError) in try connection.execute("COMMIT") }
            progress(JobProgress(phase: "verifying"))
            let written = try counts(ofStoreAt: writer, model: model, layout: layout)
            do throws(ExportError) {
                try RestoreIdentityCheck.check(writer.temporaryPath, storeUUID: identity, primaryKeyMaxima: entry.primaryKeyMaxima ?? [:],
                                               applicationMetadata: entry.applicationMetadata.flatMap(ExportManifest.applicationMetadataEntries(of:)) ?? [:],
                                               model: model, outputPath: outputPath)
            } catch {
                throw PostgresTransferError.export(error)
            }
            // A pair the store cannot keep (a key naming a row of another entity) is not restored, and
            // said so (`LinkReport.unresolved`), as a restore from files does: counted as not kept.
            let problems = written.adding(pairsNotKept: links, model: model)
                .differences(from: cursor.databaseCounts, mine: "restored store (with the pairs not kept)", theirs: "database")
            guard problems.isEmpty else { throw PostgresTransferError.verification(store: outputPath, problems: problems) }
            do { try writer.finish(replacing: replaceExisting) } catch { throw PostgresTransferError.export(.writing(outputPath, error)) }
            return Summary(modelVersion: model.name, records: pipeline.written, counts: written, databaseCounts: cursor.databaseCounts, links: links,
                           catalogRecordsState: entry.recordsState, relationshipFailures: entry.relationshipFailures ?? [],
                           relationshipsNotChecked: entry.relationshipsNotChecked, externalFileWarnings: writer.externalFileWarnings)
        } catch {
            writer.discard()
            _ = try? connection.execute("ROLLBACK")
            throw error as? PostgresTransferError ?? .export(.restore(reason: "\(outputPath): \(error)"))
        }
    }

    /// The restore's error for a pipeline's: the source's own, what it read not matching the
    /// database's counts (a verification failure), or a restore's error writing the store.
    private func restoreError(_ error: PipelineError) -> PostgresTransferError {
        switch error {
        case .sourceFailure(let failure as PostgresTransferError): failure
        case let .notAccounted(source, problems): .export(.notAccounted(store: source, problems: problems))
        default: .export(ExportError(restoring: error, into: outputPath))
        }
    }

    /// The rows and pairs of the store being written, committed and counted with SQL on a
    /// connection of their own.
    private func counts(ofStoreAt writer: CoreDataStoreWriter, model: ManagedObjectModel,
                        layout: PostgresLayout) throws(PostgresTransferError) -> TransferCounts {
        do {
            try writer.commit()
            let store = try CoreDataStoreReader(path: writer.temporaryPath)
            let reader = try store.records(model: model)
            return try TransferCounts.store(census: try store.census(), reader: reader, layout: layout)
        } catch {
            throw .export(.restore(reason: "\(outputPath): the new store cannot be counted: \(error)"))
        }
    }

    /// Where the store's rows are, for messages and the progress line.
    private func origin(_ uuid: String) -> String {
        "\(target) schema \(schema) store \(uuid)"
    }

    /// The values the catalog row names as kept in the store's external data folder, by entity.
    /// - Throws: `ExportError.notAnExport` for names a restore cannot keep (`ExternalDataText.names`).
    private func externalNames(_ entry: PostgresCatalog.StoreEntry, model: ManagedObjectModel) throws(ExportError) -> [RestoreExternalData.EntityNames] {
        var named: [RestoreExternalData.EntityNames] = []
        for (entity, text) in (entry.externalData ?? [:]).sorted(by: { $0.key < $1.key }) {
            do { named.append((entity, try ExternalDataText.names(text, of: entity, model: model))) } catch {
                throw .notAnExport(path: origin(entry.store), reason: "external_data of \(entity): \(error.reason)")
            }
        }
        return named
    }
}
