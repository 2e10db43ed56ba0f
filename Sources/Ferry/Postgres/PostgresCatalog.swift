import FerryPostgres
import FerryStore
import FoundationEssentials

/// Ferry's own two tables in a schema: `ferry_schema`, one row naming the model the tables were
/// made for and the digest of their DDL (`PostgresTableDefinitions`), and `ferry_stores`, one row
/// per store loaded: its UUID, model version and version hashes (so `ferry restore` finds the
/// model version), the path it was read from, the tool and the time, and what a restore writes
/// back besides the records: each entity's `Z_MAX` and the application's own metadata keys; and
/// the failures of `ferry verify`'s relationship checks the load named, or why they did not run, for
/// a restore to repeat. No
/// connection string or password is ever written here.
///
/// The catalog has no version of its own: columns added later (`laterColumns`) are added to an
/// older `ferry_stores` when a store is next loaded into it, and a row an older Ferry wrote has
/// them NULL, which a restore reads as not recorded (`StoreEntry.recordsState`).
struct PostgresCatalog {
    let connection: PostgresConnection
    let schema: String

    /// One store's row in `ferry_stores`.
    struct StoreEntry: Sendable, Equatable {
        var store: String
        var modelVersion: String
        /// Base64 version hashes by entity, as in an export manifest.
        var versionHashes: [String: String]
        var source: String
        /// `Z_PRIMARYKEY.Z_MAX` by entity name, read in the load's read transaction; nil in a row
        /// an older Ferry wrote, which did not record it.
        var primaryKeyMaxima: [String: Int64]?
        /// The application's own metadata keys, encoded as an export manifest's
        /// `applicationMetadata` (`ExportManifest.applicationMetadata(of:)`); nil when none (or
        /// not recorded).
        var applicationMetadata: String?
        /// The failures of `ferry verify`'s relationship checks the load named (JSON text of
        /// lines), for `restore` to repeat; nil when there were none (or not recorded).
        var relationshipFailures: [String]? = nil
        /// Why those checks did not run on the state loaded (`PostgresLoadReport.relationshipsNotChecked`);
        /// nil when they ran (or not recorded).
        var relationshipsNotChecked: String? = nil
        /// The store's UUID as its `Z_UUID` spells it, for `restore` to write back (the `store`
        /// column's `uuid` type prints it in lowercase, and the text is part of every object's
        /// URI); nil in a row an older Ferry wrote, whose stores are restored in uppercase.
        var spelling: StoreUUID? = nil
        /// The values the store kept in its external data folder, by concrete entity
        /// (`ExternalDataText`), for `restore` to keep there again; nil when none (or not
        /// recorded: an older Ferry's row, whose stores are restored with every value in its row).
        var externalData: [String: ExternalDataText.Names]? = nil

        /// Whether the row records `Z_MAX` and the application's metadata (an older Ferry's does not).
        var recordsState: Bool { primaryKeyMaxima != nil }
    }

    /// The columns of `ferry_stores` a `StoreEntry` holds, in its order.
    private static let storeColumns = ["store", "model", "version_hashes", "source"] + laterColumns
    /// The columns of `ferry_stores` as the first Ferry made it, and of `ferry_schema`: how a
    /// catalog table is told to be Ferry's.
    private static let firstStoreColumns: Set = ["store", "model", "version_hashes", "source", "tool", "loaded"]
    private static let schemaColumns: Set = ["layout", "model", "created"]
    /// Columns of `ferry_stores` that older catalogs lack (nullable text: JSON `Z_MAX`es, and the
    /// base64 property list of the application's metadata, JSON lines of relationship failures,
    /// why the relationship checks did not run, the store's UUID as its `Z_UUID` spells it, and
    /// JSON of the values the store kept in its external data folder).
    private static let laterColumns = ["primary_key_maxima", "application_metadata", "relationship_failures", "relationships_not_checked",
                                       "store_spelling", "external_data"]

    private func q(_ name: String) -> String { PostgresIdentifier.quoted(name) }

    private var schemaTable: String { PostgresIdentifier.qualified(schema, PostgresLayout.catalogTables[0]) }
    private var storesTable: String { PostgresIdentifier.qualified(schema, PostgresLayout.catalogTables[1]) }

    /// Makes the schema, the catalog and the layout's tables where they are missing, or checks
    /// that the tables there are the layout's, inside the load's transaction (the caller's), so a
    /// load that fails leaves the schema as it was. A table Ferry did not make is refused, never
    /// altered or written: a catalog table without the catalog's columns (`catalogTables()`), or
    /// a table with a name of the layout's in a schema Ferry has not laid out. A schema laid out
    /// already is only checked; making or completing one takes an advisory lock on the schema's
    /// name, held until the load commits, so concurrent loads make the tables once (the others
    /// wait for the first, then check).
    func prepare(_ definitions: PostgresTableDefinitions, model: String) throws(PostgresTransferError) {
        let found = try catalogTables()
        if found.holdsStoresTable, found.missingLaterColumns.isEmpty, let existing = try layout(in: found) {
            guard existing.digest == definitions.digest else { throw .otherLayout(schema: schema, model: existing.model) }
            return
        }
        try database { () throws(PostgresError) in
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", ["ferry schema " + schema])
            if try connection.execute("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]).isEmpty {
                try connection.execute("CREATE SCHEMA \(PostgresIdentifier.quoted(schema))")
            }
        }
        let catalog = try catalogTables()
        try database { () throws(PostgresError) in
            if !catalog.holdsSchemaTable {
                try connection.execute("CREATE TABLE \(schemaTable) (\(q("layout")) text NOT NULL, \(q("model")) text NOT NULL, "
                    + "\(q("created")) timestamptz NOT NULL DEFAULT now())")
            }
            if !catalog.holdsStoresTable {
                try connection.execute("CREATE TABLE \(storesTable) (\(q("store")) uuid PRIMARY KEY, \(q("model")) text NOT NULL, "
                    + "\(q("version_hashes")) text NOT NULL, \(q("source")) text NOT NULL, \(q("tool")) text NOT NULL, "
                    + "\(q("loaded")) timestamptz NOT NULL DEFAULT now(), "
                    + Self.laterColumns.map { "\(q($0)) text" }.joined(separator: ", ") + ")")
            }
            // An older catalog gets the columns it lacks (altered only then: ALTER TABLE waits
            // for every load in progress).
            for column in catalog.missingLaterColumns {
                try connection.execute("ALTER TABLE \(storesTable) ADD COLUMN \(q(column)) text")
            }
        }
        if let existing = try layout(in: catalog) {
            guard existing.digest == definitions.digest else { throw .otherLayout(schema: schema, model: existing.model) }
            return
        }
        if let taken = try existingTable(among: definitions.tableNames) {
            throw .foreignTable(schema: schema, table: taken, reason: "it has a name of a table of model \(model), in a schema Ferry has not laid out")
        }
        try database { () throws(PostgresError) in
            for statement in definitions.statements { try connection.execute(statement) }
            try connection.execute("INSERT INTO \(schemaTable) (\(PostgresIdentifier.list(["layout", "model"]))) VALUES ($1, $2)",
                                   [definitions.digest, model])
        }
    }

    /// Which catalog tables the schema holds, each checked to be Ferry's: a plain table with
    /// exactly the catalog's columns (`ferry_stores` perhaps without `laterColumns`, as an older
    /// Ferry made it). Another table of either name (an application's own `ferry_stores`, a
    /// view) is refused.
    private func catalogTables() throws(PostgresTransferError) -> CatalogTables {
        let rows = try database { () throws(PostgresError) in
            try connection.execute("SELECT c.relname, c.relkind, "
                + "coalesce(string_agg(a.attname, ',' ORDER BY a.attnum) FILTER (WHERE a.attnum > 0 AND NOT a.attisdropped), '') "
                + "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_attribute a ON a.attrelid = c.oid "
                + "WHERE n.nspname = $1 AND c.relname IN ($2, $3) GROUP BY c.relname, c.relkind",
                [schema] + PostgresLayout.catalogTables)
        }
        var tables = CatalogTables()
        for row in rows {
            guard let name = row[0], let kind = row[1] else { continue }
            let columns = Set((row[2] ?? "").split(separator: ",").map(String.init))
            let (required, optional) = name == PostgresLayout.catalogTables[0]
                ? (Self.schemaColumns, Set<String>()) : (Self.firstStoreColumns, Set(Self.laterColumns))
            guard kind == "r", required.isSubset(of: columns), columns.isSubset(of: required.union(optional)) else {
                let shown = columns.isEmpty ? "none" : columns.sorted().joined(separator: ", ")
                throw .foreignTable(schema: schema, table: name, reason: kind == "r"
                    ? "its columns (\(shown)) are not those of Ferry's catalog table" : "it is not a table")
            }
            if name == PostgresLayout.catalogTables[0] {
                tables.holdsSchemaTable = true
            } else {
                tables.holdsStoresTable = true
                tables.missingLaterColumns = Self.laterColumns.filter { !columns.contains($0) }
            }
        }
        return tables
    }

    /// What `catalogTables()` found.
    private struct CatalogTables {
        var holdsSchemaTable = false
        var holdsStoresTable = false
        /// The columns of `laterColumns` that `ferry_stores` lacks (none when there is no `ferry_stores`).
        var missingLaterColumns: [String] = []
    }

    /// The first of `names` that is a table (or any relation) in the schema; nil when none is.
    private func existingTable(among names: [String]) throws(PostgresTransferError) -> String? {
        let list: String
        do { list = String(decoding: try JSONEncoder().encode(names), as: UTF8.self) } catch {
            throw .export(.encoding(reason: "table names: \(error)"))
        }
        return try database { () throws(PostgresError) in
            try connection.execute("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = $1 AND c.relname IN (SELECT json_array_elements_text($2::json)) ORDER BY 1 LIMIT 1", [schema, list])
        }.first?.first ?? nil
    }

    /// The digest of the tables' DDL and the model they were made for; nil when the schema has
    /// no Ferry tables. Catalog tables Ferry did not make are refused (`catalogTables()`).
    func layout() throws(PostgresTransferError) -> (digest: String, model: String)? {
        try layout(in: try catalogTables())
    }

    /// The layout `ferry_schema` records, when `catalog` (just found) holds it.
    private func layout(in catalog: CatalogTables) throws(PostgresTransferError) -> (digest: String, model: String)? {
        guard catalog.holdsSchemaTable else { return nil }
        return try database { () throws(PostgresError) in
            guard let row = try connection.execute("SELECT \(PostgresIdentifier.list(["layout", "model"])) FROM \(schemaTable)").first,
                  let digest = row[0], let model = row[1] else { return nil }
            return (digest, model)
        }
    }

    /// Adds the store's row, inside the transaction that loads it; returns whether an earlier
    /// load was replaced. A store already there is refused, or with `replace` its rows are
    /// deleted first (all tables in one statement, so no foreign key sees half of them gone).
    func register(_ entry: StoreEntry, layout: PostgresLayout, replace: Bool) throws(PostgresTransferError) -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let hashes: String
        do { hashes = String(decoding: try encoder.encode(entry.versionHashes), as: UTF8.self) } catch {
            throw .export(.encoding(reason: "version hashes: \(error)"))
        }
        var replaced = false
        if replace {
            let store = PostgresIdentifier.quoted(PostgresLayout.storeColumn)
            let tables = (layout.joinTables.map(\.name) + layout.entityTables.map(\.name)).map { PostgresIdentifier.qualified(schema, $0) }
            let deletes = ["d AS (DELETE FROM \(storesTable) WHERE \(store) = $1 RETURNING 1)"]
                + tables.enumerated().map { index, table in "d\(index) AS (DELETE FROM \(table) WHERE \(store) = $1)" }
            let rows = try database { () throws(PostgresError) in
                try connection.execute("WITH \(deletes.joined(separator: ", ")) SELECT count(*) FROM d", [entry.store])
            }
            replaced = rows.first?.first == "1"
        }
        let maxima: String?
        do { maxima = try entry.primaryKeyMaxima.map { String(decoding: try encoder.encode($0), as: UTF8.self) } } catch {
            throw .export(.encoding(reason: "Z_MAX: \(error)"))
        }
        let failures: String?
        do { failures = try Self.json(entry.relationshipFailures) } catch { throw .export(.encoding(reason: "relationship failures: \(error)")) }
        let external: String?
        do { external = try entry.externalData.map { String(decoding: try encoder.encode($0), as: UTF8.self) } } catch {
            throw .export(.encoding(reason: "external data: \(error)"))
        }
        do {
            let columns = Self.storeColumns + ["tool"]
            try connection.execute("INSERT INTO \(storesTable) (\(PostgresIdentifier.list(columns))) VALUES (\(columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ")))",
                                   [entry.store, entry.modelVersion, hashes, entry.source, maxima, entry.applicationMetadata, failures,
                                    entry.relationshipsNotChecked, entry.spelling?.text, external, "ferry \(FerryVersion.current)"])
        } catch where error.sqlState == "23505" {
            // With `replace`, the rows deleted above were another run's, which loaded the store
            // again before this one's insert.
            throw replace ? .loadedMeanwhile(store: entry.store, schema: schema) : .alreadyLoaded(store: entry.store, schema: schema)
        } catch {
            throw .database(error)
        }
        return replaced
    }

    /// Records the failures of `ferry verify`'s relationship checks on the store, found while it
    /// loaded, or why they did not run on it, in its row, inside the transaction that loads it.
    func record(relationshipFailures failures: [String], notChecked: String?, store: String) throws(PostgresTransferError) {
        guard !failures.isEmpty || notChecked != nil else { return }
        let text: String?
        do { text = try Self.json(failures) } catch { throw .export(.encoding(reason: "relationship failures: \(error)")) }
        try database { () throws(PostgresError) in
            try connection.execute("UPDATE \(storesTable) SET \(q("relationship_failures")) = $2, \(q("relationships_not_checked")) = $3 "
                + "WHERE \(q("store")) = $1", [store, text, notChecked])
        }
    }

    private static func json(_ lines: [String]?) throws -> String? {
        guard let lines, !lines.isEmpty else { return nil }
        return String(decoding: try JSONEncoder().encode(lines), as: UTF8.self)
    }

    /// The stores the schema holds, as `UUID (source)`, in the order of their UUIDs.
    func storeList() throws(PostgresTransferError) -> [String] {
        guard try layout() != nil else { return [] }
        return try database { () throws(PostgresError) in
            try connection.execute("SELECT \(q("store")), \(q("source")) FROM \(storesTable) ORDER BY \(q("store"))")
                .map { "\($0[0]?.uppercased() ?? "?") (\($0[1] ?? "no source"))" }
        }
    }

    /// The UUIDs of the stores loaded from `source` (as the catalog records where a store came
    /// from), in the order of their UUIDs.
    func stores(loadedFrom source: String) throws(PostgresTransferError) -> [String] {
        guard try layout() != nil else { return [] }
        return try database { () throws(PostgresError) in
            try connection.execute("SELECT \(q("store")) FROM \(storesTable) WHERE \(q("source")) = $1 ORDER BY \(q("store"))", [source])
                .compactMap { $0[0]?.uppercased() }
        }
    }

    /// The row of a store; nil when the schema does not hold it.
    func entry(store: String) throws(PostgresTransferError) -> StoreEntry? {
        guard try layout() != nil else { return nil }
        // An older catalog, which no load has brought up to date, lacks the later columns: NULL for them.
        let missing = try catalogTables().missingLaterColumns
        let rows = try database { () throws(PostgresError) in
            let columns = Self.storeColumns.map { missing.contains($0) ? "NULL" : q($0) }
            return try connection.execute("SELECT \(columns.joined(separator: ", ")) FROM \(storesTable) WHERE \(q("store")) = $1", [store])
        }
        guard let row = rows.first, let uuid = row[0], let model = row[1], let hashes = row[2], let source = row[3] else { return nil }
        func unreadable(_ what: String) -> PostgresTransferError {
            .notLoaded(store: store, schema: schema + " (its catalog row has unreadable \(what))", held: nil)
        }
        let decoded: [String: String]
        do { decoded = try JSONDecoder().decode([String: String].self, from: Data(hashes.utf8)) } catch { throw unreadable("version hashes") }
        var maxima: [String: Int64]?
        if let text = row[4] {
            do { maxima = try JSONDecoder().decode([String: Int64].self, from: Data(text.utf8)) } catch { throw unreadable("Z_MAX values") }
        }
        if let text = row[5], ExportManifest.applicationMetadataEntries(of: text) == nil { throw unreadable("application metadata") }
        var failures: [String]?
        if let text = row[6] {
            do { failures = try JSONDecoder().decode([String].self, from: Data(text.utf8)) } catch { throw unreadable("relationship failures") }
        }
        var spelling: StoreUUID?
        if let text = row[8] {
            guard let spelled = StoreUUID(text), spelled.value == UUID(uuidString: uuid) else { throw unreadable("store UUID spelling") }
            spelling = spelled
        }
        var external: [String: ExternalDataText.Names]?
        if let text = row[9] {
            do { external = try JSONDecoder().decode([String: ExternalDataText.Names].self, from: Data(text.utf8)) } catch { throw unreadable("external data") }
        }
        return StoreEntry(store: uuid, modelVersion: model, versionHashes: decoded, source: source, primaryKeyMaxima: maxima,
                          applicationMetadata: row[5], relationshipFailures: failures, relationshipsNotChecked: row[7], spelling: spelling,
                          externalData: external)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<Result>(_ body: () throws(PostgresTransferError) -> Result) throws(PostgresTransferError) -> Result {
        try database { () throws(PostgresError) in try connection.execute("BEGIN") }
        do {
            let result = try body()
            try database { () throws(PostgresError) in try connection.execute("COMMIT") }
            return result
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
