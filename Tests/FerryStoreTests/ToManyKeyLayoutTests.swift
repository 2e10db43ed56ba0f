import FerryModel
import FerryStore
import FerryTestSupport
import Testing

/// To-many relationships without an inverse: a `Z<n><REL>` key on the destinations' rows
/// (`ToManyKeys` documents the rule), checked on models built in code and on the two CartKit
/// corpus stores Core Data and SwiftData wrote.
@Suite struct ToManyKeyLayoutTests {
    /// CartKit's Core Data model, cut down: `Item.modifiers` has no inverse, nor has `Modifier.item`.
    static let cart = ManagedObjectModel(name: "Cart", entities: [
        Entity(name: "Cart", relationships: [
            Relationship(name: "items", destinationEntity: "Item", inverseName: "cart", isToMany: true, deleteRule: .cascade),
        ]),
        Entity(name: "Item", attributes: [Attribute(name: "quantity", type: .integer32)], relationships: [
            Relationship(name: "cart", destinationEntity: "Cart", inverseName: "items"),
            Relationship(name: "modifiers", destinationEntity: "Modifier", isToMany: true, deleteRule: .cascade),
        ]),
        Entity(name: "Modifier", attributes: [Attribute(name: "name", type: .string), Attribute(name: "priceDelta", type: .decimal)],
               relationships: [Relationship(name: "item", destinationEntity: "Item")]),
    ])

    @Test("the key is Z + the declaring entity's Z_ENT + the name, after the destination's to-one keys, indexed")
    func cartKitShape() throws {
        let layout = try StoreLayout(model: Self.cart)
        #expect(layout.entityNumbers == ["Cart": 1, "Item": 2, "Modifier": 3])
        let modifier = try #require(layout.table(forEntity: "Modifier"))
        #expect(modifier.createStatement == "CREATE TABLE ZMODIFIER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,"
            + " ZITEM INTEGER, Z2MODIFIERS INTEGER, ZPRICEDELTA DECIMAL, ZNAME VARCHAR )")
        #expect(modifier.column(named: "Z2MODIFIERS")?.role == .toManyKey(entity: "Item", relationship: "modifiers", destination: "Modifier"))
        #expect(layout.indexes.filter { $0.table == "ZMODIFIER" }.map(\.createStatement) == [
            "CREATE INDEX ZMODIFIER_ZITEM_INDEX ON ZMODIFIER (ZITEM)",
            "CREATE INDEX ZMODIFIER_Z2MODIFIERS_INDEX ON ZMODIFIER (Z2MODIFIERS)",
        ])
        #expect(layout.table(forEntity: "Item")?.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZQUANTITY", "ZCART"])
        #expect(layout.joinTables.isEmpty)
        #expect(layout.columns(forEntity: "Modifier").map(\.name).contains("Z2MODIFIERS"))
    }

    @Test("every relationship's placement: own key, inverse key, source row")
    func placements() throws {
        let layout = try StoreLayout(model: Self.cart)
        guard case .destinationRows(let modifiers)? = layout.placement(of: "modifiers", of: "Item") else {
            Issue.record("Item.modifiers is not kept on its destinations' rows")
            return
        }
        #expect(modifiers.table == "ZMODIFIER" && modifiers.key == "Z2MODIFIERS" && modifiers.holder == "Modifier")
        #expect(modifiers.isToManyKey && modifiers.entityNumber == nil && modifiers.orderKey == nil)
        guard case .destinationRows(let items)? = layout.placement(of: "items", of: "Cart") else {
            Issue.record("Cart.items is not kept on its destinations' rows")
            return
        }
        #expect(items.table == "ZITEM" && items.key == "ZCART" && items.holder == "Item" && !items.isToManyKey)
        guard case .sourceRow(let item)? = layout.placement(of: "item", of: "Modifier") else {
            Issue.record("Modifier.item is not kept on its own row")
            return
        }
        #expect(item.table == "ZMODIFIER" && item.key == "ZITEM" && !item.isToManyKey)
        #expect(layout.placement(of: "nothing", of: "Item") == nil)
    }

    @Test("into a hierarchy: the root's table, at the destination's place, used by its rows and its sub-entities'")
    func destinationWithSubentities() throws {
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "Folder", relationships: [
                Relationship(name: "documents", destinationEntity: "Document", isToMany: true),
                Relationship(name: "items", destinationEntity: "Item", isToMany: true),
                Relationship(name: "children", destinationEntity: "Folder", isToMany: true),
            ]),
            Entity(name: "Item", attributes: [Attribute(name: "title", type: .string)]),
            Entity(name: "Document", parentName: "Item", attributes: [Attribute(name: "pages", type: .integer16)], relationships: [
                Relationship(name: "owner", destinationEntity: "Person", inverseName: "documents"),
            ]),
            Entity(name: "Scan", parentName: "Document"),
            Entity(name: "Image", parentName: "Item", attributes: [Attribute(name: "width", type: .integer32)]),
            Entity(name: "Person", relationships: [
                Relationship(name: "documents", destinationEntity: "Document", inverseName: "owner", isToMany: true),
            ]),
        ])
        let layout = try StoreLayout(model: model)
        #expect(layout.entityNumbers == ["Folder": 1, "Item": 2, "Document": 3, "Scan": 4, "Image": 5, "Person": 6])
        #expect(layout.table(forEntity: "Item")?.columns.map(\.name)
            == ["Z_PK", "Z_ENT", "Z_OPT", "Z1ITEMS", "ZPAGES", "ZOWNER", "Z1DOCUMENTS", "ZWIDTH", "ZTITLE"])
        #expect(layout.table(forEntity: "Folder")?.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "Z1CHILDREN"])
        #expect(layout.columns(forEntity: "Scan").map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "Z1ITEMS", "ZPAGES", "ZOWNER", "Z1DOCUMENTS", "ZTITLE"])
        #expect(layout.columns(forEntity: "Image").map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "Z1ITEMS", "ZWIDTH", "ZTITLE"])
        guard case .destinationRows(let documents)? = layout.placement(of: "documents", of: "Folder") else {
            Issue.record("Folder.documents is not kept on its destinations' rows")
            return
        }
        #expect(documents.table == "ZITEM" && documents.key == "Z1DOCUMENTS" && documents.holder == "Document")
    }

    @Test("the CartKit stores' own tables, columns and indexes", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"),
          arguments: CorpusStores.cartKit)
    func cartKitStores(_ relative: String) throws {
        let path = CorpusStores.path(relative)
        let store = try CoreDataStoreReader(path: path)
        let layout = try store.layout(for: try StoreModelMatch.archivedModel(of: store))
        let snapshot = try SchemaSnapshot(path: path)
        for table in layout.tables {
            #expect(snapshot.tables[table.name] == table.createStatement, "\(table.name)")
            #expect(snapshot.columns[table.name] == table.columns.map { "\($0.name) \($0.declaredType)" }, "\(table.name)")
        }
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let indexes = try database.prepare("SELECT name, sql, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        var stored: [String: String] = [:]
        while try indexes.step() {
            guard let table = indexes.string(at: 2), layout.table(named: table) != nil else { continue }
            stored[indexes.string(at: 0) ?? ""] = indexes.string(at: 1)
        }
        #expect(stored == Dictionary(uniqueKeysWithValues: layout.indexes.map { ($0.name, $0.createStatement) }))
        let keys = layout.tables.flatMap(\.columns).filter { if case .toManyKey = $0.role { true } else { false } }.map(\.name)
        #expect(keys == (relative.contains("SwiftData") ? ["Z3ITEMS", "Z1MODIFIERS"] : ["Z2MODIFIERS"]))
    }
}
