import FerryModel
import FerryStore
import FoundationEssentials
import Testing

/// The writer's typed way to many-to-many pairs: rows of the join table the layout names, in
/// either side's direction, and a typed error for a relationship kept elsewhere.
struct JoinRowInserterTests {
    static let model = ManagedObjectModel(name: "Board", entities: [
        Entity(name: "Tag", attributes: [Attribute(name: "name", type: .string)],
               relationships: [Relationship(name: "tasks", destinationEntity: "Task", inverseName: "tags", isToMany: true)]),
        Entity(name: "Task", attributes: [Attribute(name: "title", type: .string)],
               relationships: [Relationship(name: "tags", destinationEntity: "Tag", inverseName: "tasks", isToMany: true),
                               Relationship(name: "notes", destinationEntity: "Note", inverseName: "task", isToMany: true)]),
        Entity(name: "Note", attributes: [Attribute(name: "text", type: .string)],
               relationships: [Relationship(name: "task", destinationEntity: "Task", inverseName: "notes")]),
    ])

    @Test("pairs given from either side are rows of the one join table, each in its side's direction")
    func pairsFromBothSides() throws {
        let path = temporaryStorePath("join-rows")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.model, versionHashes: placeholderHashes(for: ["Note", "Tag", "Task"]),
                                                    versionIdentifiers: [""])
        let tags = try writer.inserter(for: "Tag"), tasks = try writer.inserter(for: "Task")
        let red = try tags.insert([.text("red")]), blue = try tags.insert([.text("blue")])
        let task = try tasks.insert([.text("paint")])
        try writer.joinRowInserter(for: "tags", of: "Task").insert(source: task, destination: red)
        try writer.joinRowInserter(for: "tasks", of: "Tag").insert(source: blue, destination: task)
        let layout = writer.layout
        try writer.finish()

        guard case .joinTable(let join) = layout.placement(of: "tags", of: "Task") else {
            Issue.record("Task.tags is not kept in a join table")
            return
        }
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let rows = try database.prepare("SELECT \(join.source), \(join.destination) FROM \(join.table) ORDER BY 2")
        var pairs: [[Int64]] = []
        while try rows.step() { pairs.append([rows.int64(at: 0), rows.int64(at: 1)]) }
        #expect(pairs == [[task, red], [task, blue]])
    }

    @Test("a relationship whose pairs are not join rows is refused with a typed error")
    func noJoinTable() throws {
        let path = temporaryStorePath("join-rows-refused")
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.model, versionHashes: placeholderHashes(for: ["Note", "Tag", "Task"]),
                                                    versionIdentifiers: [""])
        defer { writer.discard() }
        #expect(throws: StoreWriterError.noJoinTable(entity: "Note", relationship: "task")) {
            try writer.joinRowInserter(for: "task", of: "Note")
        }
        #expect(throws: StoreWriterError.noJoinTable(entity: "Task", relationship: "notes")) {
            try writer.joinRowInserter(for: "notes", of: "Task")
        }
        #expect(throws: StoreWriterError.noJoinTable(entity: "Task", relationship: "owner")) {
            try writer.joinRowInserter(for: "owner", of: "Task")
        }
    }
}
