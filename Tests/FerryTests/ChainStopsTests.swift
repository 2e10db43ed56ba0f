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
