import Ferry
import FerryPostgres
import FerryTestSupport
import Foundation
import Testing

/// A schema holding an application's own table named `ferry_stores` had three columns added to
/// it, and Ferry's catalog and every entity table committed, by an export that then failed
/// (exit 4, "nothing was left behind"): the catalog was made in a transaction of its own, on
/// whatever table had the name. Ferry now checks that a table is its own before it touches it,
/// and makes its tables in the load's transaction.
@Suite("PostgreSQL: tables Ferry did not make are never altered or written", .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
struct PostgresForeignTableTests {
    /// The tables of a schema, by name, each with its columns in order.
    private func tables(_ uri: String, schema: String) throws -> [String] {
        try PostgresTestSupport.query(uri, "SELECT c.relname || '(' || string_agg(a.attname, ',' ORDER BY a.attnum) || ')' FROM pg_class c "
            + "JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 "
            + "WHERE n.nspname = $1 AND c.relkind = 'r' GROUP BY c.relname ORDER BY 1", [schema]).compactMap { $0.first ?? nil }
    }

    @Test("an application's own ferry_stores or ferry_schema is refused, naming schema and table, and left as it was, with no table made beside it")
    func foreignCatalogTable() throws {
        let folder = try TestPaths.temporaryFolder("pg-foreign-catalog")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        for table in ["ferry_stores", "ferry_schema"] {
            let uri = try PostgresTestSupport.database()
            try PostgresTestSupport.query(uri, "CREATE SCHEMA app")
            try PostgresTestSupport.query(uri, "CREATE TABLE app.\(table) (id int PRIMARY KEY, note text)")
            try PostgresTestSupport.query(uri, "INSERT INTO app.\(table) VALUES (1, 'user data')")
            let summary = try PostgresTestSupport.load([store], into: uri, schema: "app")
            let failure = try #require(summary.stores.first?.failure)
            #expect(failure.isDestination && !failure.isVerification, "\(failure.message)")
            #expect(failure.message.contains("schema app holds a table \(table) that Ferry did not make (its columns (id, note) are not those "
                + "of Ferry's catalog table)"), "\(failure.message)")
            #expect(try tables(uri, schema: "app") == ["\(table)(id,note)"])
            #expect(try PostgresTestSupport.query(uri, "SELECT * FROM app.\(table)") == [["1", "user data"]])
            // Reading from it is refused as well, as an input that is not Ferry's (exit 3).
            let error = try #require(throws: PostgresTransferError.self) {
                try PostgresTestSupport.restore(store, from: uri, schema: "app", model: model, to: folder + "/Back.sqlite")
            }
            #expect(error.description.contains("holds a table \(table) that Ferry did not make") && !error.isDestinationFailure(loadingDatabase: false))
        }
    }

    @Test("a table with the name of one of the layout's in a schema Ferry has not laid out is refused, and no table is made")
    func foreignEntityTable() throws {
        let folder = try TestPaths.temporaryFolder("pg-foreign-entity")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let uri = try PostgresTestSupport.database()
        try PostgresTestSupport.query(uri, "CREATE SCHEMA app")
        try PostgresTestSupport.query(uri, "CREATE TABLE app.\"Part\" (id int)")
        let summary = try PostgresTestSupport.load([store], into: uri, schema: "app")
        let message = summary.stores.first?.failure?.message ?? ""
        #expect(message.contains("schema app holds a table Part that Ferry did not make (it has a name of a table of model"), "\(message)")
        #expect(try tables(uri, schema: "app") == ["Part(id)"])
    }

    @Test("a load that fails in a new schema leaves no schema behind; the next load makes the tables")
    func failedLoadLeavesNothing() throws {
        let folder = try TestPaths.temporaryFolder("pg-failed-first-load")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let nul = try PostgresTestSupport.garageStore(at: folder + "/Nul.sqlite", modelFolder: model, seed: 9, carName: "bad\u{0}name")
        let uri = try PostgresTestSupport.database()
        let failed = try PostgresTestSupport.load([nul], into: uri, schema: "fresh")
        #expect(failed.stores.map(\.outcome) == ["failed"])
        #expect(try !PostgresTestSupport.holdsSchema(uri, "fresh"))
        let loaded = try PostgresTestSupport.load([store], into: uri, schema: "fresh")
        #expect(loaded.allLoaded, "\(loaded.stores.first?.failure?.message ?? "")")
        #expect(try PostgresTestSupport.query(uri, "SELECT count(*) FROM fresh.ferry_stores") == [["1"]])
    }
}
