import Ferry
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A migration's chain stops at the source's version, the ends of written mappings and mapping
/// models, and the target; between them the mapping is inferred straight across, as Core Data
/// infers it from a store's version to the current one.
@Suite("version chains stop only where something must happen")
struct ChainStopsTests {
    private func version(_ attributes: [String]) -> String {
        let properties = attributes.map { #"<attribute name="\#($0)" optional="YES" attributeType="String"/>"# }.joined()
        return #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Note" representedClassName="Note" syncable="YES">\#(properties)</entity></model>"#
    }

    /// Imports one note in `from` and migrates it to the bundle's current (last-named) version.
    private func migrate(_ versions: [(String, [String])], from: String, name: String) throws -> (MigrationSummary, String) {
        let folder = try TestPaths.temporaryFolder(name)
        let bundle = try TestPaths.xcodeModelBundle("Notes", versions: versions.map { ($0.0, version($0.1)) }, in: folder)
        let source = folder + "/notes.json"
        try Data(#"[{"body": "hello", "pinned": "yes"}]"#.utf8).write(to: URL(fileURLWithPath: source))
        let store = folder + "/old.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [source], modelPath: bundle, modelVersion: from, entity: "Note", outputPath: store)).run()
        let out = folder + "/new.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: bundle,
                                                             outputPath: out)).run()
        return (summary, out)
    }

    @Test("a version between that lacks an attribute no longer loses its values (pinned was nil for every note, exit 0, verified)")
    func versionBetweenLacksAnAttribute() throws {
        let (summary, out) = try migrate([("Model 1", ["body", "pinned"]), ("Model 2", ["body"]), ("Model 3", ["body", "pinned", "color"])],
                                         from: "Model 1", name: "chain-between")
        #expect(summary.chain == ["Model 1", "Model 3"])
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZBODY, ZPINNED FROM ZNOTE") == ["hello|yes"])
    }

    @Test("versions whose names sort out of their order: the store's version goes straight to the current one")
    func namesOutOfOrder() throws {
        let (summary, out) = try migrate([("Draft", ["body", "pinned"]), ("Legacy", ["body"]), ("Release", ["body", "pinned", "color"])],
                                         from: "Draft", name: "chain-names")
        #expect(summary.chain == ["Draft", "Release"])
        #expect(try storeRows(out, "SELECT ZBODY, ZPINNED FROM ZNOTE") == ["hello|yes"])
    }

    @Test("values of an attribute the target lacks are dropped as Core Data drops them, and named with their count (migrate said nothing)")
    func droppedValuesAreNamed() throws {
        let (summary, out) = try migrate([("Model 1", ["body", "pinned"]), ("Model 2", ["body"])], from: "Model 1", name: "chain-dropped")
        #expect(summary.warnings.contains("1 value of Note.pinned not carried: Model 2 has no attribute they become"), "\(summary.warnings)")
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZBODY FROM ZNOTE") == ["hello"])
    }

    /// A model version holding `entities` (raw `<entity>` XML).
    private func model(_ entities: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + entities + "</model>"
    }

    /// Imports `json` as `entity` of the first version of `versions` and migrates the store to the last.
    private func migrateStore(_ versions: [(String, String)], entity: String, json: String, name: String) throws -> (MigrationSummary, String) {
        let folder = try TestPaths.temporaryFolder(name)
        let bundle = try TestPaths.xcodeModelBundle("M", versions: versions.map { ($0.0, model($0.1)) }, in: folder)
        let source = folder + "/records.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: source))
        let store = folder + "/old.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [source], modelPath: bundle, modelVersion: versions[0].0, entity: entity,
                                                 outputPath: store)).run()
        let out = folder + "/new.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: bundle,
                                                             outputPath: out)).run()
        return (summary, out)
    }

    @Test("an entity renamed A → B → C over versions is carried through B (the chain went M 1 → M 3, every A filtered, exit 0)")
    func entityRenameChain() throws {
        let attributes = #"<attribute name="s" optional="YES" attributeType="String"/>"#
        let (summary, out) = try migrateStore([("M 1", #"<entity name="A" syncable="YES">\#(attributes)</entity>"#),
                                               ("M 2", #"<entity name="B" elementID="A" syncable="YES">\#(attributes)</entity>"#),
                                               ("M 3", #"<entity name="C" elementID="B" syncable="YES">\#(attributes)</entity>"#)],
                                              entity: "A", json: #"[{"s": "hello"}, {"s": "world"}]"#, name: "chain-entity-rename")
        #expect(summary.chain == ["M 1", "M 2", "M 3"])
        #expect(summary.ledgers.map(\.filtered) == [0] && summary.written["C"] == 2, "\(summary.ledgers)")
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZS FROM ZC ORDER BY Z_PK") == ["hello", "world"])
    }

    @Test("an attribute renamed a → b → c over versions keeps its values (c was nil for every record, exit 0)")
    func attributeRenameChain() throws {
        func item(_ name: String, _ identifier: String?) -> String {
            let id = identifier.map { #" elementID="\#($0)""# } ?? ""
            return #"<entity name="Item" syncable="YES"><attribute name="\#(name)" optional="YES" attributeType="String"\#(id)/>"#
                + #"<attribute name="k" optional="YES" attributeType="Integer 32"/></entity>"#
        }
        let (summary, out) = try migrateStore([("M 1", item("a", nil)), ("M 2", item("b", "a")), ("M 3", item("c", "b")), ("M 4", item("c", "b"))],
                                              entity: "Item", json: #"[{"a": "hello", "k": 1}]"#, name: "chain-attribute-rename")
        // M 3 → M 4 changes nothing: inferred straight across from M 2.
        #expect(summary.chain == ["M 1", "M 2", "M 4"])
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZC, ZK FROM ZITEM") == ["hello|1"])
    }

    @Test("own records of an entity that becomes abstract are rejected with the reason (they were filtered, exit 0, only a hint)")
    func entityBecomesAbstract() throws {
        let dog = #"<entity name="Dog" parentEntity="Animal" syncable="YES"><attribute name="breed" optional="YES" attributeType="String"/></entity>"#
        let name = #"<attribute name="name" optional="YES" attributeType="String"/>"#
        let (summary, out) = try migrateStore([("M 1", #"<entity name="Animal" syncable="YES">\#(name)</entity>"# + dog),
                                               ("M 2", #"<entity name="Animal" isAbstract="YES" syncable="YES">\#(name)</entity>"# + dog)],
                                              entity: "Animal", json: #"[{"name": "generic"}]"#, name: "chain-abstract")
        let ledger = try #require(summary.ledgers.first { $0.entity == "Animal" })
        #expect(ledger.rejected == 1 && ledger.filtered == 0, "\(ledger)")
        #expect(summary.leftSomethingOut)
        #expect(summary.sampleRejects.first?.reason.contains("Animal is abstract in M 2: a written mapping must say which entity") == true,
                "\(summary.sampleRejects)")
        #expect(try storeRows(out, "SELECT COUNT(*) FROM ZANIMAL") == ["0"])
    }

    /// CoreStore's evolution demo: V1 is current, V2 sorts after it, and a mapping model beside the
    /// bundle maps V2 → V1.
    private static let evolution = TestPaths.corpus + "/coredata/JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo"

    @Test("a store of a version named after the target goes there by the mapping model that maps it (it was 'no version matches this store')",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func versionAfterTargetByMappingModel() throws {
        let folder = try TestPaths.temporaryFolder("chain-after")
        let bundle = Self.evolution + "/Advanced.EvolutionDemo.V1.xcdatamodeld"
        let source = folder + "/creatures.json"
        try Data(#"[{"dnaCode": 7, "hasHead": true, "hasTail": false, "hasVertebrae": true, "numberOfFlippers": 4}]"#.utf8)
            .write(to: URL(fileURLWithPath: source))
        let store = folder + "/V2.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [source], modelPath: bundle, modelVersion: "Advanced.EvolutionDemo.V2",
                                                 entity: "Creature", outputPath: store)).run()
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: bundle,
                                                             outputPath: folder + "/V1.sqlite")).run()
        #expect(summary.chain == ["Advanced.EvolutionDemo.V2", "Advanced.EvolutionDemo.V1"])
        #expect(summary.verification?.passed == true && summary.written["Creature"] == 1)

        // The same bundle without the mapping model: refused, saying why.
        let copy = folder + "/Advanced.EvolutionDemo.V1.xcdatamodeld"
        try FileManager.default.copyItem(atPath: bundle, toPath: copy)
        let error = try #require(throws: MigrateError.self) {
            try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: copy,
                                                   outputPath: folder + "/none.sqlite")).run()
        }
        #expect(error.description.contains("is of version Advanced.EvolutionDemo.V2, which comes after the target Advanced.EvolutionDemo.V1"),
                "\(error)")
    }
}
