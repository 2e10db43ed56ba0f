import CSQLite
import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// Entity numbers as Core Data gives them (coredata-format.md §2), and reading a store through the
/// numbers it has rather than numbers recomputed from the model.
@Suite("entity numbering")
struct EntityNumberingTests {
    /// Names where case-insensitive order and byte order disagree: case, `_` against letters,
    /// digits, and sub-entities (and a grandchild) that sort before their parent.
    static let model = ManagedObjectModel(name: "Numbering", entities: [
        Entity(name: "entity2"), Entity(name: "Entity10"), Entity(name: "FooBar"), Entity(name: "Foo_Bar"),
        Entity(name: "apple"), Entity(name: "Banana"),
        Entity(name: "Zeta", attributes: [Attribute(name: "label", type: .string)]),
        Entity(name: "bee", parentName: "Zeta"), Entity(name: "Aardvark", parentName: "Zeta"),
        Entity(name: "Aa", parentName: "Aardvark"),
    ])

    static let expected = ["apple": 1, "Banana": 2, "Entity10": 3, "entity2": 4, "Foo_Bar": 5, "FooBar": 6,
                           "Zeta": 7, "Aardvark": 8, "Aa": 9, "bee": 10]

    @Test("names sort as caseInsensitiveCompare: does: ASCII case folded, then UTF-8 bytes")
    func nameOrder() {
        #expect(EntityNameOrder.precedes("SyncableSettingsMetadata", "SyncFeatureEntity"))
        #expect(!"SyncableSettingsMetadata".utf8.lexicographicallyPrecedes("SyncFeatureEntity".utf8))
        #expect(EntityNameOrder.precedes("Foo_Bar", "FooBar"))
        #expect(EntityNameOrder.precedes("A_", "Aa"))
        #expect(EntityNameOrder.precedes("Entity10", "Entity2"))
        #expect(EntityNameOrder.precedes("apple", "Banana"))
        #expect(EntityNameOrder.precedes("Ab", "abc"))
        #expect(!EntityNameOrder.precedes("b", "B") || !EntityNameOrder.precedes("B", "b"))
        #expect(EntityNameOrder.equalIgnoringCase("Car", "CAR") && !EntityNameOrder.equalIgnoringCase("Car", "Cars"))
    }

    @Test("a model is numbered depth-first, roots and siblings case-insensitively, and a new store has those numbers")
    func numbering() throws {
        #expect(Self.model.entityNumbers == Self.expected)
        let path = try TestPaths.temporaryFolder("numbering") + "/store.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.model,
                                                    versionHashes: placeholderHashes(for: Self.model.entities.map(\.name)),
                                                    versionIdentifiers: [])
        try writer.finish(durable: false)
        let store = try CoreDataStoreReader(path: path)
        #expect(Dictionary(uniqueKeysWithValues: store.primaryKeys.map { ($0.name, Int($0.entityNumber)) }) == Self.expected)
        #expect(store.primaryKeyEntry(named: "Aa")?.superNumber == 8)
    }

    @Test("a model whose entity names differ only in case is refused")
    func caseTwins() {
        let model = ManagedObjectModel(name: "M", entities: [Entity(name: "Note"), Entity(name: "NOTE", parentName: "Note")])
        #expect(throws: StoreLayoutError.entityNamesDifferOnlyInCase(first: "NOTE", second: "Note")) { try StoreLayout(model: model) }
    }

    /// Swaps the numbers of `bee` and `Aardvark` in a written store, rows included, as a store
    /// numbered by another rule would have them.
    private func renumbered() throws -> String {
        let path = try TestPaths.temporaryFolder("renumbered") + "/store.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.model,
                                                    versionHashes: placeholderHashes(for: Self.model.entities.map(\.name)),
                                                    versionIdentifiers: [])
        for (entity, count) in [("bee", 3), ("Aardvark", 2), ("Aa", 1), ("Zeta", 1)] {
            let inserter = try writer.inserter(for: entity)
            let label = try #require(inserter.columnIndex(for: .attribute(entity: "Zeta", name: "label")))
            for _ in 0..<count {
                var row = [StoreValue](repeating: .null, count: inserter.columns.count)
                row[label] = .text(entity)
                _ = try inserter.insert(row)
            }
        }
        try writer.finish(durable: false)
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute("""
            UPDATE Z_PRIMARYKEY SET Z_ENT = -1 WHERE Z_NAME = 'bee';
            UPDATE Z_PRIMARYKEY SET Z_ENT = 10 WHERE Z_NAME = 'Aardvark';
            UPDATE Z_PRIMARYKEY SET Z_ENT = 8 WHERE Z_NAME = 'bee';
            UPDATE Z_PRIMARYKEY SET Z_SUPER = 10 WHERE Z_NAME = 'Aa';
            UPDATE ZZETA SET Z_ENT = CASE Z_ENT WHEN 8 THEN 10 WHEN 10 THEN 8 ELSE Z_ENT END;
            """)
        try database.close()
        return path
    }

    @Test("a store numbered otherwise is read through its own Z_PRIMARYKEY")
    func storeNumbersWin() throws {
        let store = try CoreDataStoreReader(path: try renumbered())
        let reader = try store.records(model: Self.model)
        #expect(reader.layout.entityNumbers["bee"] == 8 && reader.layout.entityNumbers["Aardvark"] == 10)
        let cursor = try reader.records(of: "Zeta")
        var labels: [String: Int] = [:]
        while let record = try cursor.next() {
            #expect(record.attributes["label"] == .string(record.entity), "row \(record.primaryKey) read as \(record.entity)")
            labels[record.entity, default: 0] += 1
        }
        #expect(labels == ["bee": 3, "Aardvark": 2, "Aa": 1, "Zeta": 1])
        #expect(try reader.count(for: "Aardvark") == 3)
        #expect(try reader.count(for: "bee") == 3)
    }

    @Test("an entity renamed since the store was written is found by its renaming identifier")
    func renamedEntity() throws {
        let path = try renumbered()
        var entities = Self.model.entities.filter { $0.name != "bee" }
        entities.append(Entity(name: "Wasp", parentName: "Zeta", renamingIdentifier: "bee"))
        let renamed = ManagedObjectModel(name: "Renamed", entities: entities)
        let reader = try CoreDataStoreReader(path: path).records(model: renamed)
        #expect(reader.layout.entityNumbers["Wasp"] == 8)
        #expect(try reader.count(for: "Wasp") == 3)
    }
}
