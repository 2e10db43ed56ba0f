import Ferry
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// A small shop model whose to-many relationships have no inverse (`Cart.items`, Nullify;
/// `Item.modifiers`, Cascade), taken through every path: import with links, the reader's edges,
/// verify, predicates, export, restore, migrate to a second version, and delete.
@Suite("to-many relationships without an inverse, end to end")
struct ToManyWithoutInverseTests {
    /// The entities of both versions; version 2 adds `Modifier.price`.
    private static func contents(price: Bool) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Cart" syncable="YES">
                <attribute name="label" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item"/>
            </entity>
            <entity name="Item" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="modifiers" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Modifier"/>
            </entity>
            <entity name="Modifier" syncable="YES">
                <attribute name="name" attributeType="String"/>\(price ? "\n        <attribute name=\"price\" optional=\"YES\" attributeType=\"Double\" usesScalarValueType=\"YES\"/>" : "")
            </entity>
        </model>
        """
    }

    /// Item name → its modifiers' names, as the files give them.
    private static let modifiersOfItems = ["burger": ["bacon", "cheese"], "fries": ["salt"], "water": []]
    /// Cart label → its items' names.
    private static let itemsOfCarts = ["lunch": ["burger", "fries"], "empty": []]

    /// `Shop.xcdatamodeld` (versions Shop and Shop 2, the second current) in `folder`.
    private func makeBundle(_ folder: String) throws -> String {
        try TestPaths.xcodeModelBundle("Shop", versions: [("Shop", Self.contents(price: false)), ("Shop 2", Self.contents(price: true))], in: folder)
    }

    /// A version 1 store imported from files: modifiers, then items and carts linked by name.
    private func importedStore(_ folder: String, bundle: String) throws -> String {
        let path = folder + "/shop.sqlite"
        try "name\nbacon\ncheese\nketchup\nsalt\n".write(toFile: folder + "/modifiers.csv", atomically: true, encoding: .utf8)
        try #"[{"name": "burger", "modifiers": ["cheese", "bacon"]}, {"name": "fries", "modifiers": ["salt"]}, {"name": "water", "modifiers": []}]"#
            .write(toFile: folder + "/items.json", atomically: true, encoding: .utf8)
        try #"[{"label": "lunch", "items": ["burger", "fries"]}, {"label": "empty", "items": []}]"#
            .write(toFile: folder + "/carts.json", atomically: true, encoding: .utf8)
        _ = try ImportJob(request: ImportRequest(sources: [folder + "/modifiers.csv"], modelPath: bundle, modelVersion: "Shop",
                                                 entity: "Modifier", outputPath: path)).run()
        let items = try ImportJob(request: ImportRequest(sources: [folder + "/items.json"], modelPath: bundle, modelVersion: "Shop",
                                                         entity: "Item", outputPath: path, existingStore: .append,
                                                         files: FileRecordSource(linkAttributes: ["modifiers": "name"]))).run()
        let modifiers = try #require(items.links.first { $0.relationship == "Item.modifiers" })
        #expect(modifiers.links == 3 && modifiers.resolved == 3 && modifiers.unresolved == 0 && modifiers.conflicts == 0)
        let carts = try ImportJob(request: ImportRequest(sources: [folder + "/carts.json"], modelPath: bundle, modelVersion: "Shop",
                                                         entity: "Cart", outputPath: path, existingStore: .append,
                                                         files: FileRecordSource(linkAttributes: ["items": "name"]))).run()
        #expect(carts.links.first { $0.relationship == "Cart.items" }?.resolved == 2)
        return path
    }

    /// Source name → destination names of `relationship`, from the reader's edges (both ends named
    /// by their `name` or `label` attribute).
    private func edges(_ path: String, _ relationship: String, of entity: String, sourceName: String,
                       destination: String) throws -> [String: [String]] {
        let store = try CoreDataStoreReader(path: path)
        let reader = try store.records(model: try StoreModelMatch.archivedModel(of: store))
        func names(_ entity: String, _ attribute: String) throws -> [Int64: String] {
            var result: [Int64: String] = [:]
            let cursor = try reader.records(of: entity)
            while let record = try cursor.next() {
                if case .string(let name)? = record.attributes[attribute] { result[record.primaryKey] = name }
            }
            return result
        }
        let sources = try names(entity, sourceName), destinations = try names(destination, "name")
        var result = Dictionary(uniqueKeysWithValues: sources.values.map { ($0, [String]()) })
        let cursor = try reader.edges(of: relationship, of: entity)
        while let edge = try cursor.next() {
            let source = try #require(sources[edge.source]), target = try #require(destinations[edge.destination])
            result[source, default: []].append(target)
        }
        return result.mapValues { $0.sorted() }
    }

    private func expectShop(_ path: String, _ comment: Comment) throws {
        #expect(try edges(path, "modifiers", of: "Item", sourceName: "name", destination: "Modifier") == Self.modifiersOfItems, comment)
        #expect(try edges(path, "items", of: "Cart", sourceName: "label", destination: "Item") == Self.itemsOfCarts, comment)
        let report = try StoreVerifier(path: path).verify()
        #expect(report.passed, "\(comment): \(report.failures)")
        #expect(report.relationships.first { $0.relationship == "Item.modifiers" }?.edges == 3, comment)
        #expect(report.edgeFingerprints.contains { $0.subject == "Item.modifiers" }, comment)
    }

    @Test("written by import with links into Z<n><REL> keys, read back, verified")
    func importAndRead() throws {
        let folder = try TestPaths.temporaryFolder("no-inverse")
        let path = try importedStore(folder, bundle: try makeBundle(folder))
        // Cart = 1, Item = 2, Modifier = 3: each key on its destination's table, named after the source's Z_ENT.
        #expect(try storeRows(path, "SELECT sql FROM sqlite_master WHERE name IN ('ZITEM', 'ZMODIFIER') ORDER BY name") == [
            "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, Z1ITEMS INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZMODIFIER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, Z2MODIFIERS INTEGER, ZNAME VARCHAR )",
        ])
        #expect(try storeRows(path, "SELECT m.ZNAME, i.ZNAME FROM ZMODIFIER m LEFT JOIN ZITEM i ON i.Z_PK = m.Z2MODIFIERS ORDER BY 1")
                == ["bacon|burger", "cheese|burger", "ketchup|NULL", "salt|fries"])
        try expectShop(path, "imported")
    }

    @Test("a destination's row holds one source: one claimed twice is a conflict, the last link wins")
    func sharedDestination() throws {
        let folder = try TestPaths.temporaryFolder("no-inverse")
        let bundle = try makeBundle(folder)
        let path = folder + "/shop.sqlite"
        try "name\nsalt\n".write(toFile: folder + "/modifiers.csv", atomically: true, encoding: .utf8)
        try #"[{"name": "fries", "modifiers": ["salt"]}, {"name": "chips", "modifiers": ["salt"]}]"#
            .write(toFile: folder + "/items.json", atomically: true, encoding: .utf8)
        _ = try ImportJob(request: ImportRequest(sources: [folder + "/modifiers.csv"], modelPath: bundle, modelVersion: "Shop",
                                                 entity: "Modifier", outputPath: path)).run()
        let items = try ImportJob(request: ImportRequest(sources: [folder + "/items.json"], modelPath: bundle, modelVersion: "Shop",
                                                         entity: "Item", outputPath: path, existingStore: .append,
                                                         files: FileRecordSource(linkAttributes: ["modifiers": "name"]))).run()
        #expect(items.links.first { $0.relationship == "Item.modifiers" }?.conflicts == 1)
        #expect(try edges(path, "modifiers", of: "Item", sourceName: "name", destination: "Modifier") == ["fries": [], "chips": ["salt"]])
    }

    @Test("predicates follow the key: ANY, NONE, @count")
    func predicates() throws {
        let folder = try TestPaths.temporaryFolder("no-inverse")
        let bundle = try makeBundle(folder)
        let path = try importedStore(folder, bundle: bundle)
        let model = try StoreModelMatch.archivedModel(of: try CoreDataStoreReader(path: path))
        let mutable = try MutableStore(path: path, model: model)
        func items(_ format: String) throws -> [Int64] {
            try mutable.matchingObjects(of: "Item", where: FetchPredicate(format: format)).map(\.primaryKey)
        }
        #expect(try items("ANY modifiers.name == 'salt'") == [2])
        #expect(try items("modifiers.@count == 2") == [1])
        #expect(try items("NONE modifiers.name BEGINSWITH 'c'") == [2, 3])
        #expect(try mutable.matchingObjects(of: "Cart", where: FetchPredicate(format: "items.@count > 0")).map(\.primaryKey) == [1])
    }

    @Test("export lists each source's destinations; restore and migrate keep every pair")
    func exportRestoreMigrate() throws {
        let folder = try TestPaths.temporaryFolder("no-inverse")
        let bundle = try makeBundle(folder)
        let path = try importedStore(folder, bundle: bundle)

        let out = folder + "/export"
        let manifest = try ExportJob(request: ExportRequest(storePath: path, outputFolder: out, format: .ndjson)).run()
        #expect(manifest.entities.first { $0.entity == "Item" }?.relationships.contains { $0.name == "modifiers" && $0.toMany && $0.inverse == nil } == true)
        let lines = try String(contentsOfFile: out + "/Item.ndjson", encoding: .utf8).split(separator: "\n")
        let rows = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        // Modifier keys in import order: bacon 1, cheese 2, ketchup 3, salt 4.
        #expect(rows.map { "\($0["name"] ?? "") \($0["modifiers"] as? [Int] ?? [-1])" } == ["burger [1, 2]", "fries [4]", "water []"])

        let restored = folder + "/restored.sqlite"
        let restore = try RestoreJob(folder: out, modelPath: bundle, outputPath: restored).run()
        #expect(restore.links.first { $0.relationship == "Item.modifiers" }?.resolved == 3)
        try expectShop(restored, "restored")

        let migrated = folder + "/migrated.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: path, kind: .store)], modelPath: bundle,
                                                             outputPath: migrated)).run()
        #expect(summary.isBalanced && summary.chains == [["Shop", "Shop 2"]])
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(migrated, "SELECT count(ZPRICE) FROM ZMODIFIER") == ["0"])
        try expectShop(migrated, "migrated")
    }

    @Test("delete: Cascade takes a source's destinations, Nullify clears the key on those that stay")
    func deleteRules() throws {
        let folder = try TestPaths.temporaryFolder("no-inverse")
        let path = try importedStore(folder, bundle: try makeBundle(folder))
        let model = try StoreModelMatch.archivedModel(of: try CoreDataStoreReader(path: path))

        let plan = try MutableStore(path: path, model: model).delete(from: "Item", where: FetchPredicate(format: "name == 'burger'"))
        #expect(plan.deleted.map(\.object.description) == ["Item(1)", "Modifier(1)", "Modifier(2)"])
        #expect(plan.deleted.last?.relationship == "Item.modifiers")
        #expect(plan.unlinked.isEmpty && plan.modified.isEmpty)
        #expect(try storeRows(path, "SELECT ZNAME FROM ZMODIFIER ORDER BY Z_PK") == ["ketchup", "salt"])

        let cartPlan = try MutableStore(path: path, model: model).delete(from: "Cart", where: FetchPredicate(format: "label == 'lunch'"))
        #expect(cartPlan.unlinked.map(\.object.description) == ["Item(2)"])
        #expect(cartPlan.unlinked.allSatisfy { $0.via == "Cart.items" && $0.relationship == nil })
        #expect(cartPlan.modified.isEmpty)
        #expect(DeletePlanReport.text(cartPlan, dryRun: false).contains("  Cart.items: 1 (Item Z_PK 2)"))
        #expect(try storeRows(path, "SELECT ZNAME, Z1ITEMS, Z_OPT FROM ZITEM ORDER BY Z_PK") == ["fries|NULL|1", "water|NULL|1"])
        let report = try StoreVerifier(path: path).verify()
        #expect(report.passed, "\(report.failures)")
    }
}
