import FerryMigration
import FerryModel
import FerryStore
import FerryTestSupport
import Testing

/// The key map behind links by source key keeps integer keys that rise with their rows as runs;
/// whatever order keys come in, a link finds the row its key was mapped to last.
@Suite("migration key map")
struct MigrateKeyMapTests {
    private let model: ManagedObjectModel
    private let task: RecordSchema
    private let upload: RecordSchema

    init() throws {
        let bundle = try XcodeModelLoader.loadBundle(at: TestPaths.migrations + "/Workspace.xcdatamodeld")
        model = try #require(bundle.version(named: "Workspace 3"))
        task = try #require(RecordSchema(model: model, entityName: "Task"))
        upload = try #require(RecordSchema(model: model, entityName: "Upload"))
    }

    private func values(_ schema: RecordSchema, _ pairs: [String: AttributeValue]) -> [AttributeValue] {
        schema.attributes.map { pairs[$0.name] ?? .null }
    }

    /// Tasks with these keys (and task IDs), then one upload per entry of `links` pointing at a
    /// task key; returns each upload's task ID (nil: unresolved).
    private func link(tasks: [(key: RecordKey, id: Int64)], links: [RecordKey], duplicates: DuplicatePolicy = .reject) throws -> [String] {
        let path = try TestPaths.temporaryFolder("keymap") + "/Workspace.sqlite"
        let hashes = VersionHasher.hashes(of: model)
        let store = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: hashes.entityHashes, versionIdentifiers: [""],
                                                   batchSize: 3)
        let graph = StoreGraphWriter(writer: store, model: model, duplicates: duplicates)
        for (key, id) in tasks {
            _ = try graph.write(Record(values: values(task, ["taskID": .integer(id), "title": .string("")]),
                                       location: SourceLocation(file: "tasks"), key: key), schema: task, namespace: 0)
        }
        for (number, key) in links.enumerated() {
            let record = Record(values: values(upload, ["remotePath": .string("/u/\(number)"), "kind": .integer(5),
                                                        "uploadID": .uuid(try #require(UUIDBytes([UInt8](repeating: UInt8(number), count: 16))))]),
                                location: SourceLocation(file: "uploads"), links: [RecordLink(relationship: "task", targets: [.key(key)])])
            _ = try graph.write(record, schema: upload, namespace: 0)
        }
        _ = try graph.resolveLinks()
        try store.finish()
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let statement = try database.prepare("SELECT t.ZTASKID FROM ZUPLOAD u LEFT JOIN ZTASK t ON t.Z_PK = u.ZTASK ORDER BY u.Z_PK")
        var result: [String] = []
        while try statement.step() { result.append(statement.string(at: 0) ?? "nil") }
        return result
    }

    @Test("keys in order, with gaps, out of order, below the first, and text keys")
    func orders() throws {
        let tasks: [(key: RecordKey, id: Int64)] = [(.integer(1), 10), (.integer(2), 20), (.integer(3), 30), (.integer(7), 70),
                                                    (.integer(8), 80), (.integer(5), 50), (.integer(-4), -40), (.text("a"), 100),
                                                    (.integer(9), 90)]
        let links: [RecordKey] = [.integer(1), .integer(3), .integer(4), .integer(5), .integer(6), .integer(7), .integer(8),
                                  .integer(9), .integer(10), .integer(-4), .integer(0), .text("a"), .text("b")]
        #expect(try link(tasks: tasks, links: links) == ["10", "30", "nil", "50", "nil", "70", "80", "90", "nil", "-40", "nil", "100", "nil"])
    }

    @Test("the same Z_PK of two source tables written to one hierarchy names two rows, in runs and out of order")
    func tablesApart() throws {
        // Rows of two source tables (roots 1 and 2) become tasks: their keys meet in one table.
        let tasks: [(key: RecordKey, id: Int64)] = [(.row(1, root: 1), 10), (.row(2, root: 1), 20), (.row(2, root: 2), 22),
                                                    (.row(1, root: 2), 21), (.integer(1), 100), (.row(3, root: 2), 23)]
        let links: [RecordKey] = [.row(1, root: 1), .row(2, root: 1), .row(1, root: 2), .row(2, root: 2), .integer(1), .row(3, root: 1),
                                  .row(3, root: 2)]
        #expect(try link(tasks: tasks, links: links) == ["10", "20", "21", "22", "100", "nil", "23"])
    }

    @Test("a key mapped again points at its latest row, inside or at the end of a run")
    func remapped() throws {
        // Key 2 comes back with another task (kept under keep-first: it merges into task 20's
        // row, so key 2 still maps there); key 1 comes back as a new task; key 3 comes back after a gap.
        let tasks: [(key: RecordKey, id: Int64)] = [(.integer(1), 10), (.integer(2), 20), (.integer(3), 30), (.integer(1), 11),
                                                    (.integer(2), 20), (.integer(6), 60), (.integer(3), 31)]
        #expect(try link(tasks: tasks, links: [.integer(1), .integer(2), .integer(3), .integer(6)], duplicates: .keepFirst)
                == ["11", "20", "31", "60"])
    }
}
