import FerryModel
import FerryPostgres
import FerryStore
import FoundationEssentials

/// Loads one Core Data store into a schema, whole or not at all: its rows go in with binary COPY,
/// table by table, in one transaction that also makes the schema's tables when missing
/// (`PostgresCatalog.prepare`), registers the store in the catalog, and
/// counts rows per entity and pairs per relationship in PostgreSQL with SQL and compares them
/// with the store's own counts before committing (the two sides are counted at the same time,
/// `StoreSideCount`). With `verify` off, PostgreSQL counts nothing, but the store's census of
/// its rows with plain SQL is still compared with the rows sent, as every export compares it
/// with what it wrote: a row no reader reads (its `Z_ENT` naming another root's entity) fails. Foreign keys are checked at the commit. Anything
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
        // `ferry verify`'s relationship checks, on their own connection while the rows go out.
        let checks = BackgroundWork<[String], VerificationError> {
            Result { () throws(VerificationError) in
                try StoreVerifier(path: storePath, model: .model(model)).relationshipFailures().map(VerificationReportText.line)
            }
        }
        defer { _ = try? checks.wait() }
        let connection = try session.connection()
        let catalog = PostgresCatalog(connection: connection, schema: schema)
        let uuid = store.metadata.storeUUID.text
        let applicationMetadata: String?
        do { applicationMetadata = try ExportManifest.applicationMetadata(of: store.metadata.applicationEntries) } catch { throw .export(error) }
        // The relationship checks' failures go into the report and, for `restore` to repeat (as a
        // backup's manifest keeps them), into the store's catalog row, before the commit; so does
        // why they have no verdict on the state loaded: the checker could not read the store, or
        // the store's files changed since it was opened (its connection may have read another state).
        func checked(_ report: PostgresLoadReport) throws(PostgresTransferError) -> PostgresLoadReport {
            var report = report
            do {
                let failures = try checks.wait()
                if StoreFileStamp(storePath) == opened.stamp {
                    report.relationshipFailures = failures
                } else {
                    report.relationshipsNotChecked = ExportManifest.writtenWhileExported
                }
            } catch {
                report.relationshipsNotChecked = "the checker could not read the store: \(error)"
            }
            try catalog.record(relationshipFailures: report.relationshipFailures, notChecked: report.relationshipsNotChecked, store: uuid)
            return report
        }
        return try catalog.transaction { () throws(PostgresTransferError) in
            // The schema's tables are made in the load's transaction: a load that fails leaves none.
            try session.prepare(PostgresTableDefinitions(layout: layout, schema: schema), with: catalog, model: model.name)
            // A file read as immutable must not have changed since it was opened, possibly a store
            // earlier (`PostgresOpenedStore`): the end of the read compares with the stamp then.
            let state = try read { () throws(StoreReaderError) in try store.beginRead() }
            // The catalog keeps the Z_MAX values this read saw, and the values the store keeps in
            // its external data folder, as a backup's manifest does.
            let external = try read { () throws(StoreReaderError) in try externalData(of: model, reader: reader) }
            let entry = PostgresCatalog.StoreEntry(store: uuid, modelVersion: model.name, versionHashes: opened.info.versionHashes,
                                                   source: source, primaryKeyMaxima: state.primaryKeyMaxima,
                                                   applicationMetadata: applicationMetadata, spelling: store.metadata.storeUUID,
                                                   externalData: external)
            let replaced = try catalog.register(entry, layout: layout, replace: replace)
            // Values no record carries would not reach the tables (as `export` refuses them).
            let stranded = try read { () throws(StoreReaderError) in try reader.strandedValues() }
            guard stranded.isEmpty else {
                throw .export(.notAccounted(store: storePath, problems: stranded.map { "\($0): no table would hold them" }))
            }
            // The store's own census is taken while the rows go out (on a second connection where
            // one reads the same bytes), not after them while the server waits.
            let census = store.startCensus()
            let copier = PostgresCopier(connection: connection, schema: schema, storeUUID: store.metadata.storeUUID.value, reader: reader)
            var sent = TransferCounts()
            for table in layout.entityTables { try copier.copy(table, counts: &sent) }
            for join in layout.joinTables { try copier.copy(join, counts: &sent) }
            try refuseUnknownOrders(uuid, layout: layout, model: model, connection: connection)
            var report = PostgresLoadReport(storePath: storePath, storeUUID: uuid, modelVersion: model.name, storeCounts: nil,
                                            databaseCounts: sent, exactDates: copier.exactDates, replaced: replaced)
            guard verify else {
                let counted = try read { () throws(StoreReaderError) in try census.wait() }
                try endRead(store, state)
                report.leftBehind = counted.leftBehind(readWith: reader.layout)
                try refuseUnsent(counted, sent: sent, reader: reader, storePath: storePath)
                return try checked(report)
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
                // Rows the census finds no entity for were not sent, so keys that name them fail
                // here: the census says why, as it does when no key names them.
                if let own = try? storeSide.wait(), case let problems = own.census.discrepancies(delivered: [:], among: []), !problems.isEmpty {
                    throw .verification(store: storePath, problems: problems)
                }
                throw error
            }
            let own = try read { () throws(StoreReaderError) in try storeSide.wait() }
            try endRead(store, state)
            report.storeCounts = own.transfer
            report.databaseCounts = held
            report.leftBehind = own.census.leftBehind(readWith: reader.layout)
            let problems = own.census.discrepancies(delivered: [:], among: []) + own.transfer.differences(from: held, mine: "store", theirs: "database")
            guard problems.isEmpty else { throw .verification(store: storePath, problems: problems) }
            return try checked(report)
        }
    }

    /// An ordered list with a member without a position, or two members at one position, has no
    /// known order: refused as every verb reading the store refuses it (a restore would make one
    /// up). Asked of the rows just sent, one query per ordered relationship.
    private func refuseUnknownOrders(_ uuid: String, layout: PostgresLayout, model: ManagedObjectModel,
                                     connection: PostgresConnection) throws(PostgresTransferError) {
        for query in PostgresPairQuery.all(in: layout, model: model) {
            guard let position = query.position else { continue }
            let (source, order) = (PostgresIdentifier.quoted(query.source), PostgresIdentifier.quoted(position))
            let condition = PostgresIdentifier.quoted(PostgresLayout.storeColumn) + " = $1"
                + (query.notNull.map { " AND \(PostgresIdentifier.quoted($0)) IS NOT NULL" } ?? "")
            let rows = try database { () throws(PostgresError) in
                try connection.execute("SELECT \(source)::text, \(order)::text FROM \(PostgresIdentifier.qualified(schema, query.table)) "
                    + "WHERE \(condition) GROUP BY \(source), \(order) HAVING \(order) IS NULL OR count(*) > 1 ORDER BY 1 LIMIT 1", [uuid])
            }
            guard let row = rows.first else { continue }
            let reason = row[1].map { "two members share order key \($0)" } ?? "a member has no order key"
            throw .invalidValue(entity: query.entity, primaryKey: Int64(row[0] ?? "") ?? 0, attribute: query.relationship,
                                reason: "\(reason) in the ordered list, so its order is not known")
        }
    }

    /// Refuses a store whose census (rows per entity, plain SQL) counts rows that were not sent:
    /// they were read by no reader, and the schema would not hold them.
    private func refuseUnsent(_ census: StoreCensus, sent: TransferCounts, reader: StoreRecordReader,
                              storePath: String) throws(PostgresTransferError) {
        var delivered: [Int64: Int64] = [:]
        for (entity, rows) in sent.entities { delivered[reader.layout.entityNumbers[entity].map(Int64.init) ?? -1, default: 0] += rows }
        let problems = census.discrepancies(delivered: delivered)
        guard !problems.isEmpty else { return }
        throw .export(.notAccounted(store: storePath, problems: problems))
    }

    /// The values each concrete entity's records keep in the store's external data folder
    /// (`ExternalDataText`); nil when none.
    private func externalData(of model: ManagedObjectModel, reader: StoreRecordReader) throws(StoreReaderError) -> [String: ExternalDataText.Names]? {
        var external: [String: ExternalDataText.Names] = [:]
        for entity in model.entitiesInStoreOrder where !entity.isAbstract
            && model.allAttributes(of: entity.name).contains(where: \.allowsExternalBinaryDataStorage) {
            external[entity.name] = ExternalDataText.text(try reader.externalValueNames(of: entity.name))
        }
        return external.isEmpty ? nil : external
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
