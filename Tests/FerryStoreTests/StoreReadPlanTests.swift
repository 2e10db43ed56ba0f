import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// How SQLite runs the reads of a store: none may sort a whole table into a temporary file (a file
/// as large as the table, in SQLite's temporary folder, which a full disk or the file size limit
/// there failed as if the store were at fault).
struct StoreReadPlanTests {
    @Test("the records of a hierarchy are read in Z_PK order by walking its table, with no sort (it took the Z_ENT index and sorted every row)")
    func hierarchyReadSortsNothing() throws {
        let folder = try TestPaths.temporaryFolder("read-plan")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/store.sqlite"
        let model = Models.sampleModelV1
        let writer = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: placeholderHashes(for: model.entities.map(\.name)),
                                                    versionIdentifiers: ["1"])
        try writer.finish()
        let store = try CoreDataStoreReader(path: path)
        let reader = try store.records(model: model)
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try column(0, of: "SELECT name FROM sqlite_master WHERE type = 'index'", in: database).contains("ZCAR_Z_ENT_INDEX"))
        for entity in ["Car", "SportCar", "ExpensiveSportCar", "Person"] {
            let plan = try column(3, of: "EXPLAIN QUERY PLAN " + reader.records(of: entity).sql, in: database)
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(entity): \(plan)")
        }
    }

    /// The text of one column of every row of a query.
    private func column(_ index: Int32, of sql: String, in database: SQLiteDatabase) throws -> [String] {
        let statement = try database.prepare(sql)
        defer { statement.finalize() }
        var rows: [String] = []
        while try statement.step() { rows.append(statement.string(at: index) ?? "") }
        return rows
    }
}
