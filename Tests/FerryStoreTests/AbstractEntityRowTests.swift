import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// A row whose `Z_ENT` names an abstract entity is no object Core Data could have saved. The
/// reader once handed it over as a record of that entity, and each verb did something of its own
/// with it (a migration across versions dropped it as filtered, exit 0): it refuses it, naming the
/// table, the row and its `Z_ENT`, before the hierarchy's first record.
@Suite struct AbstractEntityRowTests {
    /// Note=1, Person=2 (abstract), Customer=3, Employee=4.
    static let model = ManagedObjectModel(name: "People", entities: [
        Entity(name: "Note", attributes: [Attribute(name: "text", type: .string)]),
        Entity(name: "Person", isAbstract: true, attributes: [Attribute(name: "name", type: .string)]),
        Entity(name: "Customer", parentName: "Person", attributes: [Attribute(name: "tier", type: .string)]),
        Entity(name: "Employee", parentName: "Person", attributes: [Attribute(name: "salary", type: .integer32)]),
    ])

    /// A store of a note, two employees and a customer, the second employee's `Z_ENT` then set to
    /// Person's.
    private func store(_ folder: String) throws -> String {
        let path = folder + "/people.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.model,
                                                    versionHashes: placeholderHashes(for: ["Note", "Person", "Customer", "Employee"]),
                                                    versionIdentifiers: ["1"])
        _ = try writer.inserter(for: "Note").insert([.text("n")])
        for (entity, name) in [("Employee", "alice"), ("Employee", "bob"), ("Customer", "carol")] {
            let inserter = try writer.inserter(for: entity)
            var row = [StoreValue](repeating: .null, count: inserter.columns.count)
            row[try #require(inserter.columnIndex(for: .attribute(entity: "Person", name: "name")))] = .text(name)
            _ = try inserter.insert(row)
        }
        try writer.finish()
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute("UPDATE ZPERSON SET Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person') WHERE ZNAME = 'bob'")
        try database.close()
        return path
    }

    @Test func theHierarchyIsRefusedBeforeItsFirstRecord() throws {
        let folder = try TestPaths.temporaryFolder("abstract-row")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try store(folder)
        let records = try CoreDataStoreReader(path: path).records(model: Self.model)
        #expect(records.layout.entityNumbers["Person"] == 2)
        let refusal = StoreReaderError.abstractEntityRow(path: path, table: "ZPERSON", primaryKey: 2, entityNumber: 2, entity: "Person")
        #expect(throws: refusal) { _ = try records.records(of: "Person") }
        // A reader of every hierarchy can refuse the store before it reads any.
        #expect(throws: refusal) { try records.refuseAbstractRows() }
        // The message names the table, the row and its Z_ENT.
        #expect(refusal.reason == "table ZPERSON, row 2 (Z_PK): its Z_ENT 2 is entity Person, which is abstract and cannot have rows")
        // Other hierarchies, and a concrete entity's own rows, read as before.
        let notes = try records.records(of: "Note")
        #expect(try notes.next()?.entity == "Note")
        let customers = try records.records(of: "Customer")
        #expect(try customers.next()?.attributes["name"] == .string("carol"))
        #expect(try customers.next() == nil)
    }
}
