import FerryFormats
import FerryModel
import FerryStore
import FoundationEssentials

/// The `store` section: SQLite integrity, the bookkeeping tables, the version hashes, the model
/// cache, each entity's parent in `Z_SUPER`, the unique indexes that enforce uniqueness
/// constraints, `Z_MAX` against the keys in use (of the persistent history's tables too), the
/// entity number of every row, rows in tables
/// the model does not have, and values in one entity's columns on rows of another.
struct StoreHealthChecks {
    static let section = "store"
    let context: StoreContext
    let store: CoreDataStoreReader
    /// SQLite's own check, started with `startIntegrityCheck` on a connection of its own.
    let integrity: BackgroundWork<[String], SQLiteError>

    private var bookkeeping: BookkeepingScan { BookkeepingScan(context.connection) }

    /// Starts `PRAGMA integrity_check` (`quick_check` unless `full`) on a worker thread with a
    /// read-only connection of its own, so it runs while the verifier scans the tables.
    static func startIntegrityCheck(path: String, full: Bool) -> BackgroundWork<[String], SQLiteError> {
        BackgroundWork { Result { () throws(SQLiteError) in try BookkeepingScan.integrity(path: path, full: full) } }
    }

    /// Runs the checks; returns the rows per concrete entity number, as the value scan counted them.
    func run(_ scans: [ValueChecks.TableScan], _ recorder: inout CheckRecorder) -> [Int: Int64] {
        let subject = "store"
        recorder.check(Self.section, subject: subject, code: "integrity") { () throws(SQLiteError) in try integrityFailure() }
        recorder.check(Self.section, subject: subject, code: "metadata-row") { () throws(SQLiteError) in try metadataRows() ?? storeType() }
        let expected = VersionHasher.hashes(of: context.model)
        recorder.check(Self.section, subject: subject, code: "metadata-hashes") { metadataHashes(expected) }
        if store.schema.table(named: BookkeepingTables.modelCache.name) != nil {
            recorder.check(Self.section, subject: subject, code: "model-cache") { () throws(SQLiteError) in
                try modelCacheRows() ?? modelCache(expected)
            }
        }
        let superNumbers = Result { () throws(SQLiteError) in try bookkeeping.superEntityNumbers() }
        for entity in context.model.entitiesInStoreOrder {
            recorder.check(Self.section, subject: entity.name, code: "z-super") { () throws(SQLiteError) in
                superNumber(of: entity, stored: try superNumbers.get())
            }
        }
        let modelled = Set(context.layout.tables.map { $0.name.lowercased() })
        for table in store.schema.tables where !modelled.contains(table.name.lowercased())
            && table.column(named: "Z_PK") != nil && table.column(named: "Z_ENT") != nil {
            recorder.check(Self.section, subject: table.name, code: "unmodelled-rows") { () throws(SQLiteError) in
                try unmodelledRows(table.name)
            }
        }
        noteUnmodelledValues(&recorder)
        var counts: [Int: Int64] = [:]
        for scan in scans {
            let (probes, qualifiers) = (strandedValueProbes(scan.table, root: scan.root), keyQualifiers(of: scan.table))
            if !probes.isEmpty || !qualifiers.isEmpty {
                recorder.check(Self.section, subject: scan.root, code: "stranded-values") { () throws(SQLiteError) in
                    try strandedValues(probes, qualifiers, in: scan.table, root: scan.root)
                }
            }
            for index in context.layout.indexes where index.isUnique && index.table == scan.table.name {
                recorder.check(Self.section, subject: scan.root, code: "unique-index") { uniqueIndex(index, root: scan.root) }
            }
            recorder.check(Self.section, subject: scan.root, code: "key-range") { () throws(SQLiteError) in try keysBelowOne(scan.table, root: scan.root) }
            recorder.check(Self.section, subject: scan.root, code: "z-max") { () throws(SQLiteError) in try maxPrimaryKey(scan.table, root: scan.root) }
            recorder.check(Self.section, subject: scan.root, code: "entity-number") { () throws(SQLiteError) in
                try entityNumbers(scan, counts: &counts)
            }
        }
        for (name, table) in Self.historyTables where store.schema.table(named: table) != nil {
            recorder.check(Self.section, subject: subject, code: "z-max") { () throws(SQLiteError) in try maxHistoryKey(name, table: table) }
        }
        return counts
    }

    /// Core Data's persistent-history entities (`Z_PRIMARYKEY.Z_NAME`) and their tables: it hands
    /// out their keys from `Z_MAX` as it does the app's.
    private static let historyTables = [("CHANGE", "ACHANGE"), ("TRANSACTION", "ATRANSACTION"), ("TRANSACTIONSTRING", "ATRANSACTIONSTRING")]

    /// `Z_MAX` of a history entity's `Z_PRIMARYKEY` row must be at least the largest `Z_PK` of
    /// its table, or the app's next save that records history takes a key in use and fails on
    /// its primary key.
    private func maxHistoryKey(_ name: String, table: String) throws(SQLiteError) -> VerificationFailure? {
        guard let entry = store.primaryKeys.first(where: { $0.isSystemEntity && $0.name == name }) else {
            let rows = try bookkeeping.rows(of: table, keyAbove: 0)
            guard rows.count > 0 else { return nil }
            return VerificationFailure(check: "z-max", subject: "store",
                                       message: "Z_PRIMARYKEY has no row for Core Data's history entity \(name), whose table \(table) holds "
                                           + "\(rows.count) row(s): its next key would be one in use", count: rows.count, samples: rows.samples)
        }
        let rows = try bookkeeping.rows(of: table, keyAbove: entry.maxPrimaryKey)
        guard rows.count > 0 else { return nil }
        return VerificationFailure(
            check: "z-max", subject: "store",
            message: "Z_PRIMARYKEY.Z_MAX of Core Data's history entity \(name) is \(entry.maxPrimaryKey), below \(rows.count) Z_PK(s) of "
                + "\(table) (largest \(rows.samples.first?.primaryKey ?? 0)): the app's next save recording history would take a key in use",
            count: rows.count, samples: rows.samples)
    }

    private func integrityFailure() throws(SQLiteError) -> VerificationFailure? {
        let rows = try integrity.wait()
        guard rows != ["ok"] else { return nil }
        return VerificationFailure(check: "integrity", subject: "store", message: "SQLite reports the file damaged",
                                   count: Int64(rows.count),
                                   samples: rows.prefix(context.connection.sampleLimit).map { FailureSample(primaryKey: nil, values: ["message": $0]) })
    }

    /// Rows of app entities in a table the model has no entity for (an entity of another
    /// version, a table added by hand): no verb reads them, and export and migrate refuse the
    /// store for them, as its census counts them.
    private func unmodelledRows(_ table: String) throws(SQLiteError) -> VerificationFailure? {
        let rows = try bookkeeping.appEntityRows(of: table)
        guard rows.count > 0 else { return nil }
        return VerificationFailure(check: "unmodelled-rows", subject: table,
                                   message: "table \(table) holds \(rows.count) row\(rows.count == 1 ? "" : "s") of app entities that the model read "
                                       + "(\(context.model.name)) does not have: no verb reads them",
                                   count: rows.count, samples: rows.samples)
    }

    /// Notes values in columns of an entity's table that the model does not have (a property
    /// of another version, a column added by hand): every verb reads the model's columns only,
    /// so export, backup and migrate refuse the store rather than leave them behind. A note, not a
    /// failure: such a column is not the model's to judge.
    private func noteUnmodelledValues(_ recorder: inout CheckRecorder) {
        for (table, _, _) in context.entityTables {
            guard let stored = store.schema.table(named: table.name) else { continue }
            let modelled = Set(table.columns.map { $0.name.lowercased() })
            for column in stored.columns where !modelled.contains(column.name.lowercased()) {
                guard let values = try? bookkeeping.values(in: column.name, of: table.name), values > 0 else { continue }
                recorder.note("\(table.name).\(column.name): \(values) value\(values == 1 ? "" : "s") in a column the model read "
                    + "(\(context.model.name)) does not have: no verb reads them (export, backup and migrate refuse the store)")
            }
        }
    }

    /// A column of one entity (not the root) and the rows of the table's other entities.
    private struct StrandedValueProbe {
        let column: String
        let owner: String
        let otherRows: [Int]
    }

    /// The columns of `table` that rows of some of its entities leave NULL, each with those rows.
    private func strandedValueProbes(_ table: TableLayout, root: String) -> [StrandedValueProbe] {
        let rowsOfTable = context.numbers(below: root)
        return table.columns.compactMap { column in
            guard let owner = column.role.rowEntity, owner != root else { return nil }
            let ownRows = Set(context.numbers(below: owner))
            let otherRows = rowsOfTable.filter { !ownRows.contains($0) }
            return otherRows.isEmpty ? nil : StrandedValueProbe(column: column.name, owner: owner, otherRows: otherRows)
        }
    }

    /// The order-key and destination-entity-number columns of `table`'s to-ones, each with its
    /// to-one's key column.
    private func keyQualifiers(of table: TableLayout) -> [(column: String, key: String)] {
        table.columns.compactMap { column in
            guard let relationship = column.role.qualifiedToOne, let owner = column.role.rowEntity,
                  let key = table.columns.first(where: { $0.role == .toOne(entity: owner, relationship: relationship) }) else { return nil }
            return (column.name, key.name)
        }
    }

    /// Values no verb reads (export, backup and migrate refuse the store), counted in one pass
    /// over the table: in a column of one entity on rows of another (a sibling's or an
    /// ancestor's), where Core Data leaves the column NULL; and an order position or destination
    /// entity number on a row whose to-one is NULL, which Core Data clears with the key.
    private func strandedValues(_ probes: [StrandedValueProbe], _ qualifiers: [(column: String, key: String)], in table: TableLayout,
                                root: String) throws(SQLiteError) -> VerificationFailure? {
        let counts = try bookkeeping.strandedValues(of: table.name, elsewhere: probes.map { ($0.column, $0.otherRows) }, withoutKey: qualifiers)
        let columns = zip(probes, counts.elsewhere).map { (values: ["column": $0.column, "entity": $0.owner], count: $1) }
            + zip(qualifiers, counts.withoutKey).map { (values: ["column": $0.column, "key": $0.key], count: $1) }
        let stranded = columns.filter { $0.count > 0 }
        guard !stranded.isEmpty else { return nil }
        let (elsewhere, withoutKey) = (counts.elsewhere.reduce(0, +), counts.withoutKey.reduce(0, +))
        var found: [String] = []
        if elsewhere > 0 { found.append("\(elsewhere) value(s) of \(table.name) sit in columns of one entity on rows of another, where Core Data leaves them NULL") }
        if withoutKey > 0 {
            found.append("\(withoutKey) value(s) of \(table.name) qualify a to-one on rows whose key is NULL (an order position or "
                + "destination entity number of no reference)")
        }
        let samples = stranded.prefix(context.connection.sampleLimit).map { column in
            FailureSample(primaryKey: nil, values: column.values.merging(["values": String(column.count)]) { $1 })
        }
        return VerificationFailure(check: "stranded-values", subject: root,
                                   message: found.joined(separator: "; ") + ": no verb reads them (export, backup and migrate refuse the store)",
                                   count: elsewhere + withoutKey, samples: samples)
    }

    /// Core Data's keys start at 1: a row below that (its restore fails) is not one it made.
    private func keysBelowOne(_ table: TableLayout, root: String) throws(SQLiteError) -> VerificationFailure? {
        let low = try bookkeeping.rowsWithKeyBelowOne(of: table.name)
        guard low.count > 0 else { return nil }
        return VerificationFailure(check: "key-range", subject: root, message: "\(low.count) Z_PK(s) of \(table.name) below 1, where Core Data's keys start",
                                   count: low.count, samples: low.samples)
    }

    private func metadataRows() throws(SQLiteError) -> VerificationFailure? {
        let rows = try bookkeeping.metadataRows()
        guard rows != 1 else { return nil }
        return VerificationFailure(check: "metadata-row", subject: "store",
                                   message: "Z_METADATA has \(rows) rows; Core Data keeps exactly one", count: rows)
    }

    /// The metadata says the file is an SQLite store: Core Data compares `NSStoreType` with the
    /// type it is asked to open the store as.
    private func storeType() -> VerificationFailure? {
        let type = store.metadata.storeType
        guard type != "SQLite" else { return nil }
        return VerificationFailure(check: "metadata-store-type", subject: "store",
                                   message: "the metadata's NSStoreType is \(type.map { "'\($0)'" } ?? "missing"), not 'SQLite': "
                                       + "Core Data opens the file as an SQLite store only when it says so")
    }

    private func metadataHashes(_ expected: VersionHashes) -> VerificationFailure? {
        let metadata = store.metadata
        var samples: [FailureSample] = []
        var differing = expected.differingEntities(from: metadata.versionHashes)
        for entity in differing.prefix(context.connection.sampleLimit) {
            samples.append(FailureSample(primaryKey: nil, values: [
                "entity": entity,
                "stored": metadata.versionHashes[entity].map { PropertyListBase64.text($0) } ?? "none",
                "model": expected.base64Hash(of: entity) ?? "none",
            ]))
        }
        if let digest = metadata.hashesDigest, digest != expected.digest { differing.append("NSStoreModelVersionHashesDigest") }
        if let checksum = metadata.checksum, checksum != expected.checksum { differing.append("NSStoreModelVersionChecksumKey") }
        guard !differing.isEmpty else { return nil }
        return VerificationFailure(
            check: "metadata-hashes", subject: "store",
            message: "the metadata's version hashes differ from model \(context.model.name)'s: \(differing.joined(separator: ", "))",
            count: Int64(differing.count), samples: samples)
    }

    /// Every reader takes the first row: a second, of another model, would go unseen.
    private func modelCacheRows() throws(SQLiteError) -> VerificationFailure? {
        let rows = try bookkeeping.modelCacheRows()
        guard rows > 1 else { return nil }
        return VerificationFailure(check: "model-cache", subject: "store",
                                   message: "Z_MODELCACHE has \(rows) rows; Core Data keeps one model there", count: rows)
    }

    private func modelCache(_ expected: VersionHashes) -> VerificationFailure? {
        let cached: ManagedObjectModel
        do { cached = try StoreModelMatch.archivedModel(of: store) } catch {
            return VerificationFailure(check: "model-cache", subject: "store", message: error.description)
        }
        let differing = VersionHasher.hashes(of: cached).differingEntities(from: expected.entityHashes)
        guard !differing.isEmpty else { return nil }
        return VerificationFailure(check: "model-cache", subject: "store",
                                   message: "Z_MODELCACHE holds another model: entities that differ: \(differing.joined(separator: ", "))",
                                   count: Int64(differing.count))
    }

    /// `Z_MAX` of the root's `Z_PRIMARYKEY` row (found by number, names can be stale) must be at
    /// least the largest `Z_PK` of its table, or Core Data would hand out keys already in use.
    private func maxPrimaryKey(_ table: TableLayout, root: String) throws(SQLiteError) -> VerificationFailure? {
        guard let number = context.layout.entityNumbers[root],
              let entry = store.primaryKeys.first(where: { $0.entityNumber == Int64(number) }) else {
            return VerificationFailure(check: "z-max", subject: root, message: "Z_PRIMARYKEY has no row for entity \(root)")
        }
        let rows = try bookkeeping.rows(of: table.name, keyAbove: entry.maxPrimaryKey)
        guard rows.count > 0 else { return nil }
        return VerificationFailure(
            check: "z-max", subject: root,
            message: "Z_PRIMARYKEY.Z_MAX is \(entry.maxPrimaryKey), below \(rows.count) Z_PK(s) of \(table.name) (largest \(rows.samples.first?.primaryKey ?? 0))",
            count: rows.count, samples: rows.samples)
    }

    /// `Z_SUPER` of the entity's `Z_PRIMARYKEY` row (found by number, names can be stale) must be
    /// its parent's `Z_ENT`, or 0 for a root, as in every real store: the hierarchy the store
    /// records is the model's. A sub-entity needs a row of its own (a root's missing row is the
    /// `Z_MAX` check's).
    private func superNumber(of entity: Entity, stored: [Int64: String]) -> VerificationFailure? {
        guard let number = context.layout.entityNumbers[entity.name], let expected = context.layout.superNumber(of: entity.name) else { return nil }
        let parent = context.model.ancestry(of: entity.name).dropFirst().first?.name
        guard let value = stored[Int64(number)] else {
            guard let parent else { return nil }
            return VerificationFailure(check: "z-super", subject: entity.name,
                                       message: "Z_PRIMARYKEY has no row for entity \(entity.name), a sub-entity of \(parent)")
        }
        guard value != String(expected) else { return nil }
        let should = parent.map { "the Z_ENT of its parent \($0)" } ?? "as \(entity.name) is a root entity"
        return VerificationFailure(check: "z-super", subject: entity.name,
                                   message: "Z_PRIMARYKEY.Z_SUPER of entity \(entity.name) (Z_ENT \(number)) is \(value), not \(expected), \(should)")
    }

    /// A uniqueness constraint's unique index (`Z_<Entity>_UNIQUE_<attr>…`, made from fw 866 on)
    /// must be in the store: Core Data counts on it to refuse a duplicate of a stored object, and
    /// without it (or with it not unique, or partial) can save one. Any unique index of the table
    /// over the same columns enforces the constraint as well.
    private func uniqueIndex(_ expected: IndexLayout, root: String) -> VerificationFailure? {
        func same(_ first: String, _ second: String) -> Bool { first.lowercased() == second.lowercased() }
        let columns = Set(expected.columns.map { $0.lowercased() })
        let enforcing = store.schema.indexes.contains { index in
            same(index.table, expected.table) && index.isUnique && !index.isPartial && Set(index.columns.map { $0.lowercased() }) == columns
        }
        guard !enforcing else { return nil }
        let problem = switch store.schema.indexes.first(where: { same($0.name, expected.name) }) {
        case nil: "is missing"
        case let stored? where !stored.isUnique: "is not UNIQUE"
        case let stored? where stored.isPartial: "is partial (it holds only the rows its WHERE clause picks)"
        case let stored?: "indexes \(stored.table) (\(stored.columns.joined(separator: ", "))) instead"
        }
        return VerificationFailure(check: "unique-index", subject: root,
                                   message: "unique index \(expected.name) on \(expected.table) (\(expected.columns.joined(separator: ", "))) \(problem): "
                                       + "the store does not enforce the uniqueness constraint, and Core Data can save duplicates")
    }

    /// Every row's `Z_ENT` must be a non-abstract entity of the table's hierarchy.
    private func entityNumbers(_ scan: ValueChecks.TableScan, counts: inout [Int: Int64]) throws(SQLiteError) -> VerificationFailure? {
        let (table, root) = (scan.table, scan.root)
        let allowed = context.concreteNumbers(below: root)
        let scanned = try scan.counts.get()
        counts.merge(scanned.rowsByEntity) { $1 }
        let unknown = scanned.rows - scanned.rowsByEntity.values.reduce(0, +)
        guard unknown > 0 else { return nil }
        let samples = try bookkeeping.rows(of: table.name, entityNumberOutside: allowed).samples
        let listed = allowed.isEmpty ? "NULL" : allowed.map(String.init).joined(separator: ", ")
        return VerificationFailure(check: "entity-number", subject: root,
                                   message: "\(unknown) row(s) of \(table.name) have a Z_ENT that is not a concrete entity of \(root)'s hierarchy (\(listed))",
                                   count: unknown, samples: samples)
    }
}
