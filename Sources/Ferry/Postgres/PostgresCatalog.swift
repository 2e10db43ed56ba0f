import FerryPostgres
import FoundationEssentials

/// Ferry's own two tables in a schema: `ferry_schema`, one row naming the model the tables were
/// made for and the digest of their DDL (`PostgresTableDefinitions`), and `ferry_stores`, one row
/// per store loaded: its UUID, model version and version hashes (so `ferry restore` finds the
/// model version), the path it was read from, the tool and the time. No connection string or
/// password is ever written here.
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
    }

    /// The columns of `ferry_stores` a `StoreEntry` holds, in its order.
    private static let storeColumns = ["store", "model", "version_hashes", "source"]

    private func q(_ name: String) -> String { PostgresIdentifier.quoted(name) }

    private var schemaTable: String { PostgresIdentifier.qualified(schema, PostgresLayout.catalogTables[0]) }
    private var storesTable: String { PostgresIdentifier.qualified(schema, PostgresLayout.catalogTables[1]) }

    /// Makes the schema, the catalog and the layout's tables where they are missing, or checks
    /// that the tables there are the layout's. In a transaction of its own, under an advisory
    /// lock on the schema's name, so concurrent loads make the tables once.
    func prepare(_ definitions: PostgresTableDefinitions, model: String) throws(PostgresTransferError) {
        try transaction { () throws(PostgresTransferError) in
            try database { () throws(PostgresError) in
                try connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", ["ferry schema " + schema])
                if try connection.execute("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]).isEmpty {
                    try connection.execute("CREATE SCHEMA \(PostgresIdentifier.quoted(schema))")
                }
                try connection.execute("CREATE TABLE IF NOT EXISTS \(schemaTable) (\(q("layout")) text NOT NULL, \(q("model")) text NOT NULL, "
                    + "\(q("created")) timestamptz NOT NULL DEFAULT now())")
                try connection.execute("CREATE TABLE IF NOT EXISTS \(storesTable) (\(q("store")) uuid PRIMARY KEY, \(q("model")) text NOT NULL, "
                    + "\(q("version_hashes")) text NOT NULL, \(q("source")) text NOT NULL, \(q("tool")) text NOT NULL, "
                    + "\(q("loaded")) timestamptz NOT NULL DEFAULT now())")
            }
            if let existing = try layout() {
                guard existing.digest == definitions.digest else { throw .otherLayout(schema: schema, model: existing.model) }
                return
            }
            try database { () throws(PostgresError) in
                for statement in definitions.statements { try connection.execute(statement) }
                try connection.execute("INSERT INTO \(schemaTable) (\(PostgresIdentifier.list(["layout", "model"]))) VALUES ($1, $2)",
                                       [definitions.digest, model])
            }
        }
    }

    /// The digest of the tables' DDL and the model they were made for; nil when the schema has
    /// no Ferry tables.
    func layout() throws(PostgresTransferError) -> (digest: String, model: String)? {
        try database { () throws(PostgresError) in
            let exists = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [schemaTable])
            guard exists.first?.first == "t" else { return nil }
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
        do {
            try connection.execute("INSERT INTO \(storesTable) (\(PostgresIdentifier.list(Self.storeColumns + ["tool"]))) VALUES ($1, $2, $3, $4, $5)",
                                   [entry.store, entry.modelVersion, hashes, entry.source, "ferry \(FerryVersion.current)"])
        } catch where error.sqlState == "23505" {
            // With `replace`, the rows deleted above were another run's, which loaded the store
            // again before this one's insert.
            throw replace ? .loadedMeanwhile(store: entry.store, schema: schema) : .alreadyLoaded(store: entry.store, schema: schema)
        } catch {
            throw .database(error)
        }
        return replaced
    }

    /// The row of a store; nil when the schema does not hold it.
    func entry(store: String) throws(PostgresTransferError) -> StoreEntry? {
        guard try layout() != nil else { return nil }
        let rows = try database { () throws(PostgresError) in
            try connection.execute("SELECT \(PostgresIdentifier.list(Self.storeColumns)) FROM \(storesTable) WHERE \(q("store")) = $1", [store])
        }
        guard let row = rows.first, let uuid = row[0], let model = row[1], let hashes = row[2], let source = row[3] else { return nil }
        let decoded: [String: String]
        do { decoded = try JSONDecoder().decode([String: String].self, from: Data(hashes.utf8)) } catch {
            throw .notLoaded(store: store, schema: schema + " (its catalog row has unreadable version hashes)")
        }
        return StoreEntry(store: uuid, modelVersion: model, versionHashes: decoded, source: source)
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
