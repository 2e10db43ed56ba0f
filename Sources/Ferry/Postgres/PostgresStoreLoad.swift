import FerryModel
import FerryPostgres
import FerryStore
import FoundationEssentials

/// Loads one Core Data store into a schema, whole or not at all: its rows go in with binary COPY,
/// table by table, in one transaction that also registers the store in the catalog, and
/// (unless `verify` is off) counts rows per entity and pairs per relationship in PostgreSQL with
/// SQL and compares them with the store's own counts before committing (the two sides are
/// counted at the same time, `StoreSideCount`). Foreign keys are checked at the commit. Anything
/// that fails rolls the transaction back.
///
/// The store is read in one read transaction, as `ferry export` reads it. The connection comes
/// from the worker's session (kept from store to store); the caller discards the session's
/// connection when the load fails.
struct PostgresStoreLoad {
    /// The store, opened (`PostgresOpenedStore`).
    let opened: PostgresOpenedStore
    /// What the catalog records as the store's source.
    let source: String
    let session: PostgresSession
    let schema: String
    let replace: Bool
    let verify: Bool

    func run() throws(PostgresTransferError) -> PostgresLoadReport {
        let (store, model, reader, layout, storePath) = (opened.store, opened.model, opened.reader, opened.layout, opened.path)
        let connection = try session.connection()
        try session.prepare(PostgresTableDefinitions(layout: layout, schema: schema), schema: schema, model: model.name)
        let catalog = PostgresCatalog(connection: connection, schema: schema)
        let uuid = store.metadata.storeUUID.uuidString
        let entry = PostgresCatalog.StoreEntry(store: uuid, modelVersion: model.name, versionHashes: opened.info.versionHashes,
                                               source: source)
        return try catalog.transaction { () throws(PostgresTransferError) in
            let replaced = try catalog.register(entry, layout: layout, replace: replace)
            var state = try read { () throws(StoreReaderError) in try store.beginRead() }
            // A file read as immutable must not have changed since it was opened, possibly a store
            // earlier (`PostgresOpenedStore`): the end of the read compares with that stamp.
            state.fileStamp = opened.fileStamp
            // The store's own census is taken while the rows go out (on a second connection where
            // one reads the same bytes), not after them while the server waits.
            let census = verify ? store.startCensus() : nil
            let copier = PostgresCopier(connection: connection, schema: schema, storeUUID: store.metadata.storeUUID, reader: reader)
            var sent = TransferCounts()
            for table in layout.entityTables { try copier.copy(table, counts: &sent) }
            for join in layout.joinTables { try copier.copy(join, counts: &sent) }
            var report = PostgresLoadReport(storePath: storePath, storeUUID: uuid, modelVersion: model.name, storeCounts: nil,
                                            databaseCounts: sent, exactDates: copier.exactDates, replaced: replaced)
            guard let census else {
                try endRead(store, state)
                return report
            }
            let storeSide = StoreSideCount(census: census, reader: reader, layout: layout)
            let held: TransferCounts
            do throws(PostgresTransferError) {
                // Deferred foreign keys are checked now, so that a broken pair fails before the counts
                // (a round trip saved when the tables have none).
                if layout.hasForeignKeys {
                    try database { () throws(PostgresError) in try connection.execute("SET CONSTRAINTS ALL IMMEDIATE") }
                }
                held = try database { () throws(PostgresError) in
                    try TransferCounts.database(store: uuid, layout: layout, schema: schema, connection: connection)
                }
            } catch {
                _ = try? storeSide.wait()
                throw error
            }
            let own = try read { () throws(StoreReaderError) in try storeSide.wait() }
            try endRead(store, state)
            report.storeCounts = own.transfer
            report.databaseCounts = held
            report.frameworkRecords = own.census.frameworkRecords
            let problems = own.census.discrepancies(delivered: [:], among: []) + own.transfer.differences(from: held, mine: "store", theirs: "database")
            guard problems.isEmpty else { throw .verification(store: storePath, problems: problems) }
            return report
        }
    }

    /// Ends the store's read transaction (`CoreDataStoreReader.endRead(begunAt:)`).
    private func endRead(_ store: CoreDataStoreReader, _ state: StoreReadState) throws(PostgresTransferError) {
        do throws(ExportError) { try store.endRead(begunAt: state) } catch { throw .export(error) }
    }

    /// Runs store reading, its errors as `PostgresTransferError.export`.
    private func read<Result>(_ body: () throws(StoreReaderError) -> Result) throws(PostgresTransferError) -> Result {
        do { return try body() } catch { throw .export(.store(error)) }
    }
}
