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
/// repeatable-read transaction. Records are written per root table in `Z_PK` order; then the
/// pairs of every relationship are staged from the side that carries them (`RelationshipSide`)
/// and resolved. Before the new store is renamed into place, its rows per entity and pairs per
/// relationship are counted with SQL and compared with the database's counts.
public struct PostgresRestoreJob {
    public var target: ConnectionTarget
    public var schema: String
    /// The store's UUID, as `ferry export --to` printed it.
    public var storeUUID: UUID
    /// Where the model version comes from: a bundle holding it, or the version itself. Either
    /// way its version hashes must be those the catalog recorded.
    public var model: ModelSource
    public var outputPath: String
    public var replaceExisting: Bool

    public enum ModelSource: Sendable {
        /// An `.xcdatamodeld` bundle (or one `.xcdatamodel`), searched by version hashes.
        case bundle(String)
        /// A model version already loaded (a store's own, say), described for messages.
        case version(ManagedObjectModel, origin: String)
    }

    public init(target: ConnectionTarget, schema: String = "ferry", storeUUID: UUID, model: ModelSource, outputPath: String,
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
        /// Rows and pairs of the new store (equal to the database's).
        public var counts: TransferCounts
        public var links: [LinkReport]
    }

    public func run() throws(PostgresTransferError) -> Summary {
        let connection = try database { () throws(PostgresError) in try PostgresConnection(target) }
        let catalog = PostgresCatalog(connection: connection, schema: schema)
        let uuid = storeUUID.uuidString
        guard let entry = try catalog.entry(store: uuid) else { throw .notLoaded(store: uuid, schema: schema) }
        let model: ManagedObjectModel
        do throws(ExportError) {
            switch self.model {
            case .bundle(let path):
                model = try RestoreModel.version(in: path, hashes: entry.versionHashes, recordedVersion: entry.modelVersion)
            case let .version(version, origin):
                model = try RestoreModel.version(among: [version], from: origin, hashes: entry.versionHashes, recordedVersion: entry.modelVersion)
            }
        } catch {
            throw .export(error)
        }
        let layout = try PostgresLayout(model: model)
        guard let existing = try catalog.layout() else { throw .notLoaded(store: uuid, schema: schema) }
        guard existing.digest == PostgresTableDefinitions(layout: layout, schema: schema).digest else {
            throw .otherLayout(schema: schema, model: existing.model)
        }
        if FileManager.default.fileExists(atPath: outputPath), !replaceExisting { throw .export(.destinationExists(outputPath)) }
        let writer: CoreDataStoreWriter
        do { writer = try RestoreModel.writer(at: outputPath, model: model, storeUUID: storeUUID) } catch { throw .export(error) }
        do {
            try database { () throws(PostgresError) in try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") }
            let rows = PostgresRowReader(connection: connection, schema: schema, store: uuid, model: model)
            let graph = StoreGraphWriter(writer: writer, model: model)
            for table in layout.entityTables { try rows.records(of: table, into: graph) }
            for table in layout.entityTables { try rows.stageToOnePairs(of: table, into: graph) }
            for join in layout.joinTables { try rows.stagePairs(of: join, into: graph) }
            let links: [LinkReport]
            do { links = try graph.resolveLinks() } catch { throw PostgresTransferError.export(.restore(reason: "\(outputPath): \(error)")) }
            let held = try database { () throws(PostgresError) in
                try TransferCounts.database(store: uuid, layout: layout, schema: schema, connection: connection)
            }
            try database { () throws(PostgresError) in try connection.execute("COMMIT") }
            let written = try counts(ofStoreAt: writer, model: model, layout: layout)
            let problems = written.differences(from: held, mine: "restored store", theirs: "database")
            guard problems.isEmpty else { throw PostgresTransferError.verification(store: outputPath, problems: problems) }
            do { try writer.finish(replacing: replaceExisting) } catch { throw PostgresTransferError.export(.writing(outputPath, error)) }
            return Summary(modelVersion: model.name, counts: written, links: links)
        } catch {
            writer.discard()
            _ = try? connection.execute("ROLLBACK")
            throw error as? PostgresTransferError ?? .export(.restore(reason: "\(outputPath): \(error)"))
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
}
