import Ferry
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A source store whose foreign key names no row: `ZITEM.ZOWNER = 99` with no Person 99, read
/// from the owner's side (the owner keeps its items in order), and a join row naming a label no
/// row holds. The first was dropped without a word ("4 of 4 links resolved", exit 0, verified),
/// as the second still was: both are links that found nothing, reported where the store keeps
/// the key, counted, and the run exits 1.
@Suite("foreign keys of a source store that name no row")
struct DanglingKeyMigrationTests {
    /// `Item.owner` ⇄ `Person.items` (ordered), `Item.labels` ⇄ `Label.items` (ordered);
    /// version 2 adds `Item.note`.
    private static func contents(version: Int) -> String {
        let note = version == 1 ? "" : #"<attribute name="note" optional="YES" attributeType="String"/>"#
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Item" syncable="YES">
                    <attribute name="name" attributeType="String"/>\(note)
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="items" inverseEntity="Person"/>
                    <relationship name="labels" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Label" inverseName="items" inverseEntity="Label"/>
                </entity>
                <entity name="Person" syncable="YES">
                    <attribute name="pname" attributeType="String"/>
                    <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
                </entity>
                <entity name="Label" syncable="YES">
                    <attribute name="text" attributeType="String"/>
                    <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="labels" inverseEntity="Item"/>
                </entity>
            </model>
            """
    }

    /// A version 1 store of two owners, two labels and three items (`Z_PK` 1–3), item a's owner
    /// then set to 99 and a join row added that gives item b the label 77: no row has either key.
    private func danglingStore(_ folder: String) throws -> (store: String, bundle: String, join: String) {
        let bundle = try TestPaths.xcodeModelBundle("Owned", versions: [("Owned", Self.contents(version: 1)), ("Owned 2", Self.contents(version: 2))],
                                                    in: folder)
        let store = folder + "/owned.sqlite"
        try "pname\nalice\nbob\n".write(toFile: folder + "/people.csv", atomically: true, encoding: .utf8)
        try "text\nred\nblue\n".write(toFile: folder + "/labels.csv", atomically: true, encoding: .utf8)
        try #"[{"name": "a", "owner": "alice", "labels": ["red"]}, {"name": "b", "owner": "alice", "labels": ["blue"]}, {"name": "c", "owner": "bob"}]"#
            .write(toFile: folder + "/items.json", atomically: true, encoding: .utf8)
        for (file, entity) in [("people.csv", "Person"), ("labels.csv", "Label"), ("items.json", "Item")] {
            _ = try ImportJob(request: ImportRequest(sources: [folder + "/" + file], modelPath: bundle, modelVersion: "Owned", entity: entity,
                                                     outputPath: store, existingStore: entity == "Person" ? .refuse : .append,
                                                     files: FileRecordSource(linkAttributes: entity == "Item" ? ["owner": "pname", "labels": "text"] : [:]))).run()
        }
        let join = try #require(try storeRows(store, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%LABELS' ESCAPE '\\'").first)
        let columns = try storeRows(store, "SELECT name FROM pragma_table_info('\(join)') ORDER BY cid")
        let item = try #require(columns.first { $0.hasSuffix("ITEMS") && !$0.hasPrefix("Z_FOK") })
        let label = try #require(columns.first { $0.hasSuffix("LABELS") && !$0.hasPrefix("Z_FOK") })
        let order = try #require(columns.first { $0.hasPrefix("Z_FOK") })
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("""
            UPDATE ZITEM SET ZOWNER = 99 WHERE ZNAME = 'a';
            INSERT INTO \(join) (\(item), \(label), \(order)) VALUES ((SELECT Z_PK FROM ZITEM WHERE ZNAME = 'b'), 77, 4096);
            """)
        try database.close()
        return (store, bundle, "table \(join), column \(label) beside \(item) 2")
    }

    @Test("each dangling key is a link that found nothing, where the store keeps it; the rest is carried and verified")
    func reported() throws {
        let folder = try TestPaths.temporaryFolder("dangling-keys")
        let (source, bundle, joinPlace) = try danglingStore(folder)
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, outputPath: folder + "/owned2.sqlite")
        let summary = try MigrateJob(request: request).run()
        #expect(summary.chains == [["Owned", "Owned 2"]])
        let owners = try #require(summary.links.first { $0.relationship == "Person.items" })
        #expect(owners.links == 3 && owners.resolved == 2 && owners.unresolved == 1, "\(owners)")
        #expect(owners.unresolvedSamples == ["\(source) table ZITEM, row 1, column ZOWNER: Person.items: unresolved link: "
                                                 + "no Person was written for the key '99' (no row of the store has it)"])
        let labels = try #require(summary.links.first { $0.relationship == "Label.items" })
        #expect(labels.links == 3 && labels.unresolved == 1, "\(labels)")
        #expect(labels.unresolvedSamples == ["\(source) \(joinPlace): Label.items: unresolved link: "
                                                 + "no Label was written for the key '77' (no row of the store has it)"])
        #expect(summary.unresolvedLinks == 2 && summary.rejected == 0 && summary.leftSomethingOut)
        #expect(try storeRows(request.outputPath, """
            SELECT i.ZNAME, p.ZPNAME FROM ZITEM i LEFT JOIN ZPERSON p ON p.Z_PK = i.ZOWNER ORDER BY i.ZNAME
            """) == ["a|NULL", "b|alice", "c|bob"])
        let report = try #require(summary.verification)
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")
        // The store cannot hold the source's pairs that name no row: the others are checked against the source store.
        let pairs = try #require(report.section(named: "pairs against source store"), "\(report.notes)")
        #expect(pairs.checks > 0 && pairs.failures.isEmpty, "\(pairs)")
    }

    @Test("migrate exits 1, naming the table, column and row of each")
    func exitCode() throws {
        let folder = try TestPaths.temporaryFolder("dangling-keys-cli")
        let (source, bundle, joinPlace) = try danglingStore(folder)
        let run = try FerryProcess.run(["migrate", source, "--model", bundle, "--out", folder + "/owned2.sqlite"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("\(source) table ZITEM, row 1, column ZOWNER: Person.items: unresolved link: no Person was written for the key '99'"),
                "\(run.err)")
        #expect(run.err.contains("\(source) \(joinPlace): Label.items: unresolved link: no Label was written for the key '77'"), "\(run.err)")
        #expect(run.out.contains("Person.items by source key: 2 of 3 links resolved") || run.err.contains("Person.items by source key: 2 of 3 links resolved"),
                "\(run.out)\(run.err)")
    }
}
