import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// Core Data keeps a derived `count:` of a to-many with SQL triggers in the store (`Z_DA_…`,
/// coredata-format.md §5). Stores Ferry wrote had none: an app opening a migrated or restored
/// store as current then left the counts stale with every later save, and an import wrote
/// whatever count a file gave. Written stores now get Core Data's triggers byte for byte, import
/// and migrate set the counts from the relationship as Core Data does when it saves, restore
/// keeps them as backed up, and `verify` notes stale counts and missing triggers.
@Suite("derived attributes kept by Core Data's triggers")
struct DerivedAttributeTriggerTests {
    /// Book.pagesCount = pages.@count (kept by triggers), Book.loudTitle = uppercase:(title) (not computed).
    static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        <entity name="Book" syncable="YES">
            <attribute name="title" attributeType="String"/>
            <attribute name="pagesCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="pages.@count"/>
            <attribute name="loudTitle" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(title)"/>
            <relationship name="pages" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Page" inverseName="book" inverseEntity="Page"/>
        </entity>
        <entity name="Page" syncable="YES">
            <attribute name="number" attributeType="Integer 32" defaultValueString="0"/>
            <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/>
        </entity>
    </model>
    """

    static let triggerNames = [
        "Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT", "Z_DA_ZPAGE_Book_pagesCount_PARAMETER_UPDATE_INCREMENT",
        "Z_DA_ZPAGE_Book_pagesCount_PARAMETER_UPDATE_DECREMENT", "Z_DA_ZPAGE_Book_pagesCount_PARAMETER_DELETE",
        "Z_DA_ZBOOK_Book_pagesCount_SOURCE_INSERT",
    ]

    /// Books whose files give counts that are wrong (42, 7) or none.
    static func imported(_ label: String) throws -> (folder: String, bundle: String, store: String, run: FerryProcess.Result) {
        let folder = try TestPaths.temporaryFolder(label)
        let bundle = try TestPaths.xcodeModelBundle("Books", versions: [("Books", model)], in: folder)
        let records = folder + "/books.ndjson"
        try Data("""
            {"title":"草枕","pagesCount":42,"pages":[{"number":1},{"number":2},{"number":3}]}
            {"title":"Empty","pagesCount":7}
            {"title":"Two","pages":[{"number":1},{"number":2}]}

            """.utf8).write(to: URL(fileURLWithPath: records))
        let store = folder + "/Books.sqlite"
        let run = try FerryProcess.run(["import", records, "--model", bundle, "--entity", "Book", "--out", store])
        return (folder, bundle, store, run)
    }

    private func triggers(_ store: String) throws -> [String] {
        try storeRows(store, "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid")
    }

    @Test("import sets each count from the relationship, whatever the file says, and the store keeps it up to date")
    func importComputesAndKeeps() throws {
        let (_, _, store, run) = try Self.imported("derived-import")
        #expect(run.status == 0, "\(run.err)")
        #expect(try storeRows(store, "SELECT ZTITLE, ZPAGESCOUNT FROM ZBOOK ORDER BY Z_PK") == ["草枕|3", "Empty|0", "Two|2"])
        #expect(try triggers(store) == Self.triggerNames)
        // The derivation Ferry does not compute is named, and its value is the file's (none).
        #expect(run.err.contains("derived attributes written as the records give them, not computed"), "\(run.err)")
        #expect(run.err.contains("Book.loudTitle (uppercase:(title): it is not a count"), "\(run.err)")
        // Ferry's own later writes go through the triggers, as an app's saves would.
        let deleted = try FerryProcess.run(["delete", store, "--entity", "Page", "--where", "number == 1"])
        #expect(deleted.status == 0, "\(deleted.err)")
        #expect(try storeRows(store, "SELECT ZTITLE, ZPAGESCOUNT FROM ZBOOK ORDER BY Z_PK") == ["草枕|2", "Empty|0", "Two|1"])
        let inspected = try FerryProcess.run(["inspect", store])
        #expect(inspected.out.contains("derived count:(pages)") && inspected.out.contains("derived uppercase:(title)"), "\(inspected.out)")
        let verified = try FerryProcess.run(["verify", store])
        #expect(verified.status == 0, "\(verified.out)")
        #expect(!verified.out.contains("Book.pagesCount"), "\(verified.out)")
    }

    @Test("a count over a many-to-many or a to-many without an inverse is named as such, beside the one-to-many counts Ferry keeps")
    func unkeptCountsSayWhy() throws {
        let folder = try TestPaths.temporaryFolder("derived-unkept-counts")
        let bundle = try TestPaths.xcodeModelBundle("Labels", versions: [("Labels", """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Label">
                    <attribute name="name" attributeType="String"/>
                    <attribute name="itemCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.@count"/>
                    <attribute name="noteCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="notes.@count"/>
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="labels" inverseEntity="Item"/>
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item"/>
                </entity>
                <entity name="Item">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="labels" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Label" inverseName="items" inverseEntity="Label"/>
                </entity>
            </model>
            """)], in: folder)
        let records = folder + "/labels.json"
        try Data(#"[{"name": "work", "items": [{"name": "a"}]}]"#.utf8).write(to: URL(fileURLWithPath: records))
        let store = folder + "/Labels.sqlite"
        let run = try FerryProcess.run(["import", records, "--model", bundle, "--entity", "Label", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("Label.itemCount (count:(items): it counts a many-to-many)"), "\(run.err)")
        #expect(run.err.contains("Label.noteCount (count:(notes): it counts a to-many without an inverse)"), "\(run.err)")
        #expect(run.err.contains("Ferry computes \(UnkeptDerivation.keptDerivations) alone"), "\(run.err)")
        let verified = try FerryProcess.run(["verify", store])
        #expect(verified.status == 0, "\(verified.out)")
        // It said Ferry knew the triggers of count:(to-many), which items is.
        #expect(verified.out.contains("Label.itemCount (count:(items): it counts a many-to-many): a derived attribute whose values are not checked "
            + "(Ferry writes Core Data's triggers for, and checks, counts of a one-to-many"), "\(verified.out)")
        #expect(!verified.out.contains("count:(to-many) alone"), "\(verified.out)")
    }

    @Test("a migration that makes a kept counter a derived count writes the counts and verifies (it failed its own check, exit 5)")
    func counterBecomesDerived() throws {
        let folder = try TestPaths.temporaryFolder("derived-migrate")
        // Books 1: pagesCount a counter the app kept by hand (42 and 7 are stale); Books 2: the derived count.
        let plain = Self.model.replacingOccurrences(of: #"derived="YES" derivationExpression="pages.@count""#, with: "")
            .replacingOccurrences(of: #"derived="YES" derivationExpression="uppercase:(title)""#, with: "")
        let bundle = try TestPaths.xcodeModelBundle("Books", versions: [("Books 1", plain), ("Books 2", Self.model)], in: folder)
        let records = folder + "/books.ndjson"
        try Data("""
            {"title":"草枕","pagesCount":42,"pages":[{"number":1},{"number":2},{"number":3}]}
            {"title":"Empty","pagesCount":7}

            """.utf8).write(to: URL(fileURLWithPath: records))
        let old = folder + "/Books1.sqlite"
        let imported = try FerryProcess.run(["import", records, "--model", bundle, "--model-version", "Books 1", "--entity", "Book", "--out", old])
        try #require(imported.status == 0, "\(imported.err)")
        #expect(try storeRows(old, "SELECT ZTITLE, ZPAGESCOUNT FROM ZBOOK ORDER BY Z_PK") == ["草枕|42", "Empty|7"])
        let migrated = try FerryProcess.run(["migrate", old, "--model", bundle, "--out", folder + "/Books2.sqlite"])
        #expect(migrated.status == 0, "\(migrated.out)\(migrated.err)")
        #expect(try storeRows(folder + "/Books2.sqlite", "SELECT ZTITLE, ZPAGESCOUNT FROM ZBOOK ORDER BY Z_PK") == ["草枕|3", "Empty|0"])
    }

    @Test("the check after import or migrate fails a stale count or a missing trigger; a store of any origin gets notes")
    func computedCountsMustHold() throws {
        let (_, _, store, run) = try Self.imported("derived-exact")
        try #require(run.status == 0, "\(run.err)")
        try SQLiteDatabase(path: store, mode: .readWrite).execute("""
            UPDATE ZBOOK SET ZPAGESCOUNT = 9 WHERE ZTITLE = 'Two';
            DROP TRIGGER Z_DA_ZBOOK_Book_pagesCount_SOURCE_INSERT;
            """)
        let strict = try StoreVerifier(path: store).verify(options: VerificationOptions(derivedCountsAreComputed: true))
        #expect(!strict.passed)
        #expect(strict.failures.map(\.check).sorted() == ["derived-trigger", "derived-value"], "\(strict.failures)")
        #expect(strict.failures.contains { $0.message.hasPrefix("count:(pages): 1 object(s) hold a value other than the number of their pages") })
        let lenient = try StoreVerifier(path: store).verify()
        #expect(lenient.passed, "\(lenient.failures)")
        #expect(lenient.notes.contains { $0.hasPrefix("Book.pagesCount (count:(pages)): 1 object(s) hold a value other than") }, "\(lenient.notes)")
    }

    /// With one of the five triggers dropped, delete counted the derivation as kept (a trigger
    /// named for it was there), removed pages, left the count stale and exited 0.
    @Test("a delete that changes what a count reads is refused unless the store has all five of its triggers, the store unchanged")
    func editsNeedEveryTrigger() throws {
        let (_, _, store, run) = try Self.imported("derived-partial")
        try #require(run.status == 0, "\(run.err)")
        try SQLiteDatabase(path: store, mode: .readWrite).execute("DROP TRIGGER Z_DA_ZPAGE_Book_pagesCount_PARAMETER_DELETE")
        let before = try TestPaths.read(store)
        let deleted = try FerryProcess.run(["delete", store, "--entity", "Page", "--where", "number == 1"])
        #expect(deleted.status == 4)
        #expect(deleted.err.contains("derived attribute Book.pagesCount"), "\(deleted.err)")
        #expect(try TestPaths.read(store) == before)
    }

    @Test("a trigger with Core Data's name but another statement is refused before a change (exit 3); one that appears during it leaves more counts wrong and is rolled back; a count already wrong does not block a change")
    func changeCheckHoldsCounts() throws {
        let (_, bundle, store, run) = try Self.imported("derived-change-check")
        try #require(run.status == 0, "\(run.err)")
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        let name = "Z_DA_ZPAGE_Book_pagesCount_PARAMETER_DELETE"
        let coreData = try #require(try database.scalarText("SELECT sql FROM sqlite_master WHERE name = '\(name)'"))
        // All five names are there, one does nothing.
        let inert = "DROP TRIGGER \(name); CREATE TRIGGER \(name) AFTER DELETE ON ZPAGE BEGIN SELECT 1; END;"
        try database.execute(inert)
        let before = try TestPaths.read(store)
        let refused = try FerryProcess.run(["delete", store, "--entity", "Page", "--where", "number == 1"])
        #expect(refused.status == 3 && refused.err.contains("has the name of Core Data's trigger keeping Book.pagesCount"), "\(refused.err)")
        #expect(try TestPaths.read(store) == before)
        // Made inert after the store was opened for the change: only the check after it sees it.
        try database.execute("DROP TRIGGER \(name); \(coreData);")
        let model = try #require(try XcodeModelLoader.loadBundle(at: bundle).version(named: "Books"))
        let mutable = try MutableStore(path: store, model: model)
        mutable.changeCheck = StoreChangeChecks.check(model: model, layout: mutable.layout)
        try database.execute(inert)
        let error = #expect(throws: StoreMutationError.self) { try mutable.delete(from: "Page", where: FetchPredicate(format: "number == 1")) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("Book.pagesCount"), "\(String(describing: error))")
        // Core Data's trigger back, and a count that was already wrong: a delete adds no disagreement.
        try database.execute("DROP TRIGGER \(name); \(coreData); UPDATE ZBOOK SET ZPAGESCOUNT = 9 WHERE ZTITLE = 'Two';")
        let allowed = try FerryProcess.run(["delete", store, "--entity", "Page", "--where", "number == 1"])
        #expect(allowed.status == 0, "\(allowed.err)")
        #expect(try storeRows(store, "SELECT ZTITLE, ZPAGESCOUNT FROM ZBOOK ORDER BY Z_PK") == ["草枕|2", "Empty|0", "Two|8"])
    }

    @Test("restore keeps the counts as backed up and adds the triggers; verify notes a stale count and a missing trigger")
    func restoreKeepsValues() throws {
        let (folder, bundle, store, run) = try Self.imported("derived-restore")
        try #require(run.status == 0, "\(run.err)")
        // A store whose count went stale, and which lost a trigger (as one Ferry wrote before had none).
        try SQLiteDatabase(path: store, mode: .readWrite).execute("""
            DROP TRIGGER Z_DA_ZPAGE_Book_pagesCount_PARAMETER_DELETE;
            UPDATE ZBOOK SET ZPAGESCOUNT = 5 WHERE ZTITLE = 'Two';
            """)
        let verified = try FerryProcess.run(["verify", store])
        #expect(verified.out.contains("Book.pagesCount (count:(pages)): 1 object(s) hold a value other than the number of their pages (Z_PK 3: 5, counted 2)"),
                "\(verified.out)")
        #expect(verified.out.contains("the store lacks 1 of Core Data's 5 Z_DA_ triggers"), "\(verified.out)")
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        try #require(exported.status == 0, "\(exported.err)")
        let restored = folder + "/Restored.sqlite"
        let result = try FerryProcess.run(["restore", folder + "/export", "--model", bundle, "--out", restored])
        #expect(result.status == 0, "\(result.err)")
        #expect(try storeRows(restored, "SELECT ZTITLE, ZPAGESCOUNT FROM ZBOOK ORDER BY Z_PK") == ["草枕|3", "Empty|0", "Two|5"])
        #expect(try triggers(restored) == Self.triggerNames)
    }

    @Test("a store Core Data wrote keeps its triggers byte for byte through migrate and restore (corpus copy)",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"), arguments: CorpusStores.derivedAttributeStores)
    func corpusTriggers(store: String) throws {
        let folder = try TestPaths.temporaryFolder("derived-corpus")
        let source = folder + "/source.sqlite"
        try FileManager.default.copyItem(atPath: CorpusStores.path(store), toPath: source)
        let bundle = folder + "/Model.xcdatamodeld"
        let extracted = try FerryProcess.run(["model", "extract", source, "--out", bundle])
        try #require(extracted.status == 0, "\(extracted.err)")
        let query = "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid"
        let original = try storeRows(source, query)
        #expect(original.count == 5)
        let counts = "SELECT Z_PK, ZPAGESCOUNT FROM ZBOOK ORDER BY Z_PK"
        let migrated = folder + "/Migrated.sqlite"
        let migration = try FerryProcess.run(["migrate", source, "--model", bundle, "--out", migrated])
        #expect(migration.status == 0, "\(migration.err)")
        #expect(try storeRows(migrated, query) == original)
        #expect(try storeRows(migrated, counts) == storeRows(source, counts))
        let exported = try FerryProcess.run(["export", source, "--out", folder + "/export"])
        try #require(exported.status == 0, "\(exported.err)")
        let restored = folder + "/Restored.sqlite"
        let restore = try FerryProcess.run(["restore", folder + "/export", "--model", bundle, "--out", restored])
        #expect(restore.status == 0, "\(restore.err)")
        #expect(try storeRows(restored, query) == original)
        #expect(try storeRows(restored, counts) == storeRows(source, counts))
    }
}
