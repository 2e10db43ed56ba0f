import Ferry
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A to-many declared by an abstract entity (`Item.tags`, `Note` below `Item`) crosses a version
/// step: an abstract entity has no mapping of its own, and `migrate` once dropped every pair of
/// such a relationship with a hint that the last version had nothing for them, exit 0, its
/// checks passing. The pairs are read with plain SQL.
@Suite("to-many relationships of abstract entities across versions")
struct AbstractRelationshipMigrationTests {
    /// Versions Tagged and Tagged 2 (which adds `Tag.color`): `Item` (abstract) ⇄ `Tag`, many-to-many.
    private static func contents(version: Int) -> String {
        let color = version == 1 ? "" : "\n        <attribute name=\"color\" optional=\"YES\" attributeType=\"String\"/>"
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Item" isAbstract="YES" syncable="YES">
                    <attribute name="title" attributeType="String"/>
                    <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
                </entity>
                <entity name="Note" parentEntity="Item" syncable="YES">
                    <attribute name="body" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Tag" syncable="YES">
                    <attribute name="name" attributeType="String"/>\(color)
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
                </entity>
            </model>
            """
    }

    /// Note title → tag name, from the join table.
    private static let pairs = """
        SELECT n.ZTITLE, t.ZNAME FROM Z_1TAGS j JOIN ZITEM n ON n.Z_PK = j.Z_1ITEMS JOIN ZTAG t ON t.Z_PK = j.Z_3TAGS \
        ORDER BY n.ZTITLE, t.ZNAME
        """

    /// A Tagged store of two tags and two notes, the notes naming their tags; and the model bundle.
    private func taggedStore(_ folder: String) throws -> (store: String, bundle: String) {
        let bundle = try TestPaths.xcodeModelBundle("Tagged", versions: [("Tagged", Self.contents(version: 1)), ("Tagged 2", Self.contents(version: 2))],
                                                    in: folder)
        let store = folder + "/tagged.sqlite"
        try "name\nred\nblue\n".write(toFile: folder + "/tags.csv", atomically: true, encoding: .utf8)
        try #"[{"title": "a", "tags": ["red", "blue"]}, {"title": "b", "tags": ["red"]}]"#.write(toFile: folder + "/notes.json", atomically: true, encoding: .utf8)
        for (file, entity, links) in [("tags.csv", "Tag", [:]), ("notes.json", "Note", ["tags": "name"])] {
            _ = try ImportJob(request: ImportRequest(sources: [folder + "/" + file], modelPath: bundle, modelVersion: "Tagged", entity: entity,
                                                     outputPath: store, existingStore: entity == "Tag" ? .refuse : .append,
                                                     files: FileRecordSource(linkAttributes: links))).run()
        }
        return (store, bundle)
    }

    @Test("migrate carries every pair to the next version, and its checks compare them with the source store's")
    func pairsCarried() throws {
        let folder = try TestPaths.temporaryFolder("abstract-to-many")
        let (source, bundle) = try taggedStore(folder)
        #expect(try storeRows(source, Self.pairs) == ["a|blue", "a|red", "b|red"])
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, outputPath: folder + "/tagged2.sqlite")
        let summary = try MigrateJob(request: request).run()
        #expect(summary.chains == [["Tagged", "Tagged 2"]])
        #expect(try storeRows(request.outputPath, Self.pairs) == ["a|blue", "a|red", "b|red"])
        #expect(!summary.suggestions.contains { $0.contains("not carried") }, "\(summary.suggestions)")
        let report = try #require(summary.verification)
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")
        let section = try #require(report.section(named: "pairs against source store"))
        #expect(section.checks == 2 && section.failures.isEmpty, "Note.tags and Tag.items")
    }

    @Test("a store missing one of the source's pairs fails the pairs against the source store")
    func missingPairFails() throws {
        let folder = try TestPaths.temporaryFolder("abstract-to-many-missing")
        let (source, bundle) = try taggedStore(folder)
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, outputPath: folder + "/tagged2.sqlite")
        _ = try MigrateJob(request: request).run()
        let database = try SQLiteDatabase(path: request.outputPath, mode: .readWrite)
        try database.execute("DELETE FROM Z_1TAGS WHERE Z_1ITEMS = (SELECT Z_PK FROM ZITEM WHERE ZTITLE = 'b')")
        try database.close()
        let report = try SourceVerification.verify(store: request.outputPath, against: request, rerun: true)
        #expect(!report.passed)
        let section = try #require(report.section(named: "pairs against source store"))
        #expect(Set(section.failures.map(\.subject)) == ["Note.tags", "Tag.items"], "\(section.failures)")
    }
}
