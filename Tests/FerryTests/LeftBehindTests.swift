import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// Core Data keeps records of its own in a store: the persistent history (`ATRANSACTION`,
/// `ACHANGE`, `ATRANSACTIONSTRING`, entities 16001–16003; every SwiftData store has it) and
/// CloudKit's mirroring metadata. No Ferry job carries them, and migrate, export, backup and
/// restore said nothing (Apple Notes' 84 transactions and 298 changes vanished with exit 0). Each
/// now names what it leaves behind, counted by the store's census, and a manifest records it. So
/// do the tables outside Core Data's layout (an app's own SQL tables), which every verb dropped
/// without a word.
@Suite("What a store holds that no job carries is named")
struct LeftBehindTests {
    /// A Workspace 2 store with 2 history transactions and 3 changes, as Core Data lays them out.
    private func storeWithHistory(_ folder: String) throws -> String {
        let store = try ExportTestSupport.workspace2Store(folder)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("""
            CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZTIMESTAMP FLOAT );
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER );
            INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (16001, 'CHANGE', 0, 3), (16002, 'TRANSACTION', 0, 2);
            INSERT INTO ATRANSACTION VALUES (1, 16002, 1, NULL, 0), (2, 16002, 1, NULL, 1);
            INSERT INTO ACHANGE VALUES (1, 16001, 1, 0, 1, 1, 1), (2, 16001, 1, 0, 1, 2, 1), (3, 16001, 1, 1, 1, 1, 2);
            """)
        return store
    }

    private static let notCarried = "Core Data's own records are not carried: CHANGE 3, TRANSACTION 2 "
        + "(its persistent history starts anew, so a history token an app saved names no transaction)"

    @Test("migrate, export and restore each warn, with the counts, and the manifest keeps them")
    func warned() throws {
        let folder = try TestPaths.temporaryFolder("framework-records")
        let store = try storeWithHistory(folder)
        let migrated = try FerryProcess.run(["migrate", store, "--model", ExportTestSupport.workspace, "--out", folder + "/Migrated.sqlite", "--var", "zone=UTC"])
        // Exit 1: Workspace 3 rejects a few of the fixtures' records; the store is written.
        #expect(migrated.status == 1, "\(migrated.err)")
        #expect(migrated.err.contains("warning: \(store): " + Self.notCarried), "\(migrated.err)")
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 0, "\(exported.err)")
        #expect(exported.err.contains("warning: \(store): " + Self.notCarried), "\(exported.err)")
        let inspected = try FerryProcess.run(["inspect", store])
        #expect(inspected.out.contains("Core Data's own records: CHANGE 3, TRANSACTION 2"), "\(inspected.out)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/export/manifest.json"))) as? [String: Any])
        #expect(manifest["frameworkRecords"] as? [String: Int] == ["CHANGE": 3, "TRANSACTION": 2])
        let restored = try FerryProcess.run(["restore", folder + "/export", "--model", ExportTestSupport.workspace, "--out", folder + "/Restored.sqlite"])
        #expect(restored.status == 0, "\(restored.err)")
        #expect(restored.err.contains("warning: the backed-up store: " + Self.notCarried), "\(restored.err)")
    }

    /// A tag numbered as a history `CHANGE` (16001) was counted among Core Data's own records:
    /// export and migrate dropped it with exit 0, and the warning counted one change too many.
    @Test("a row of an app's table numbered as Core Data's own entity is refused by export, backup and migrate, and counted as no history")
    func systemNumberInAppTable() throws {
        let folder = try TestPaths.temporaryFolder("framework-number-in-app-table")
        let store = try storeWithHistory(folder)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (900, 16001, 1, 'a customer complaint')")
        #expect(try StoreCensus(path: store).frameworkRecords == ["CHANGE": 3, "TRANSACTION": 2])
        let stray = "table ZTAG: 1 rows with Z_ENT 16001, of Core Data's own entity CHANGE, whose rows belong in table ACHANGE"
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 5 && exported.err.contains(stray), "\(exported.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/export"))
        let backup = try FerryProcess.run(["backup", store, "--to", folder + "/backups"])
        #expect(backup.status == 5, "\(backup.out)\(backup.err)")
        let migrated = try FerryProcess.run(["migrate", store, "--model", ExportTestSupport.workspace, "--out", folder + "/Migrated.sqlite", "--var", "zone=UTC"])
        #expect(migrated.status == 5 && migrated.err.contains(stray), "\(migrated.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/Migrated.sqlite"))
    }

    @Test("update, delete and import --append into a store that keeps history say the change is recorded in none of it")
    func changesInPlace() throws {
        let folder = try TestPaths.temporaryFolder("framework-records-in-place")
        let store = try storeWithHistory(folder)
        let warning = "warning: \(store) keeps Core Data's persistent history (2 transactions): this change is recorded in none"
        let updated = try FerryProcess.run(["update", store, "--entity", "Tag", "--where", "name == 'work'", "--set", "name=Work"])
        #expect(updated.status == 0, "\(updated.err)")
        #expect(updated.err.contains(warning), "\(updated.err)")
        let unchanged = try FerryProcess.run(["update", store, "--entity", "Tag", "--where", "name == 'nothing'", "--set", "name=x"])
        #expect(unchanged.status == 0 && !unchanged.err.contains("persistent history"), "\(unchanged.err)")
        let deleted = try FerryProcess.run(["delete", store, "--entity", "Tag", "--where", "name == 'Work'"])
        #expect(deleted.status == 0, "\(deleted.err)")
        #expect(deleted.err.contains(warning), "\(deleted.err)")
        let records = folder + "/tags.json"
        try Data(#"[{"name":"新しい"}]"#.utf8).write(to: URL(fileURLWithPath: records))
        let appended = try FerryProcess.run(["import", records, "--model", ExportTestSupport.workspace, "--model-version", "Workspace 2",
                                             "--entity", "Tag", "--out", store, "--append"])
        #expect(appended.status == 0, "\(appended.err)")
        #expect(appended.err.contains(warning), "\(appended.err)")
        let plain = try ExportTestSupport.workspace2Store(try TestPaths.temporaryFolder("framework-records-plain"))
        let quiet = try FerryProcess.run(["update", plain, "--entity", "Tag", "--where", "name == 'work'", "--set", "name=Work"])
        #expect(quiet.status == 0 && !quiet.err.contains("persistent history"), "\(quiet.err)")
    }

    @Test("a store without them gets no warning and its manifest no entry")
    func quietWithout() throws {
        let folder = try TestPaths.temporaryFolder("framework-records-none")
        let store = try ExportTestSupport.workspace2Store(folder)
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 0 && !exported.err.contains("own records"), "\(exported.err)")
        #expect(try !String(decoding: TestPaths.read(folder + "/export/manifest.json"), as: UTF8.self).contains("frameworkRecords"))
    }

    @Test("Apple Notes' history is named on a corpus copy (84 transactions, 298 changes)", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func appleNotes() throws {
        let folder = try TestPaths.temporaryFolder("framework-records-notes")
        let store = folder + "/NoteStore.sqlite"
        try FileManager.default.copyItem(atPath: CorpusStores.path(CorpusStores.appleNotes), toPath: store)
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 0, "\(exported.err)")
        #expect(exported.err.contains("Core Data's own records are not carried: CHANGE 298, TRANSACTION 84, TRANSACTIONSTRING 6"), "\(exported.err)")
    }

    @Test("tables outside Core Data's layout are named with their rows by migrate, export, backup, restore and inspect")
    func otherTables() throws {
        let folder = try TestPaths.temporaryFolder("left-behind-tables")
        let store = try ExportTestSupport.workspace2Store(folder)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("""
            CREATE TABLE ZJUNK (a, b);
            INSERT INTO ZJUNK VALUES (1, 'keep me'), (2, '残して');
            CREATE TABLE app_settings (k TEXT PRIMARY KEY, v);
            INSERT INTO app_settings VALUES ('theme', 'dark');
            CREATE TABLE empty_cache (k);
            CREATE VIRTUAL TABLE search USING fts5(body);
            CREATE VIRTUAL TABLE Z_Upload_AreaIndex USING rtree(Z_PK, ZMINX, ZMAXX);
            INSERT INTO Z_Upload_AreaIndex VALUES (1, 0, 1);
            CREATE TABLE Z_7OLDLINKS (Z_1TAGS INTEGER, Z_7OLD INTEGER, PRIMARY KEY (Z_1TAGS, Z_7OLD));
            INSERT INTO Z_7OLDLINKS VALUES (1, 2), (3, 4);
            """)
        let census = try StoreCensus(path: store)
        let leftBehind = census.leftBehind(readWith: nil)
        // The full-text index's rows are in its shadow tables; the virtual table is not counted
        // itself, nor is a table without rows left behind.
        #expect(leftBehind.otherTables["ZJUNK"] == 2 && leftBehind.otherTables["app_settings"] == 1)
        #expect(leftBehind.otherTables["search"] == nil && leftBehind.otherTables["empty_cache"] == nil)
        #expect(leftBehind.otherTables["search_config"] == 1, "\(leftBehind.otherTables)")
        // A table shaped like a join table is one only when the layout the store is read with has
        // it: read with Workspace 2's, Z_7OLDLINKS is no join of the model (it was dropped with exit 0).
        #expect(leftBehind.otherTables["Z_7OLDLINKS"] == nil)
        let model = try #require(try XcodeModelLoader.loadBundle(at: ExportTestSupport.workspace).version(named: "Workspace 2"))
        let layout = try CoreDataStoreReader(path: store).records(model: model).layout
        #expect(census.leftBehind(readWith: layout).otherTables["Z_7OLDLINKS"] == 2)
        // Core Data's own R-tree fetch index is derived from the entity's rows: not left behind.
        #expect(!leftBehind.otherTables.keys.contains { $0.hasPrefix("Z_Upload_AreaIndex") }, "\(leftBehind.otherTables)")
        let named = "tables outside Core Data's layout are not carried: ZJUNK (2 rows), Z_7OLDLINKS (2 rows), app_settings (1 row), "
            + "search_config (1 row), search_data (2 rows)"
        let manifest = try Self.expectNamedByEveryVerb(named, store: store, folder: folder)
        #expect(manifest["otherTables"] as? [String: Int] == ["ZJUNK": 2, "Z_7OLDLINKS": 2, "app_settings": 1, "search_config": 1, "search_data": 2])
        let inspected = try FerryProcess.run(["inspect", store])
        #expect(inspected.out.contains("tables outside Core Data's layout (no job carries them): ZJUNK 2, Z_7OLDLINKS 2, app_settings 1, search_config 1, search_data 2"), "\(inspected.out)")
    }

    /// An app's own triggers (keeping a full-text index in step with an entity table) and views
    /// were dropped by every verb without a word: the new store had none of them.
    @Test("views and triggers Core Data does not make are named by migrate, export, backup, restore and inspect")
    func otherSchema() throws {
        let folder = try TestPaths.temporaryFolder("left-behind-schema")
        let store = try ExportTestSupport.workspace2Store(folder)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("""
            CREATE TABLE task_words (word TEXT);
            CREATE TRIGGER task_words_ai AFTER INSERT ON ZTASK BEGIN INSERT INTO task_words VALUES (new.ZTITLE); END;
            CREATE VIEW open_tasks AS SELECT Z_PK, ZTITLE FROM ZTASK WHERE ZISCOMPLETE = 0;
            """)
        let copy = folder + "/WithDerived.sqlite"
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        try SQLiteDatabase(path: copy, mode: .readWrite).execute(
            "CREATE TRIGGER Z_DA_ZUPLOAD_Task_count_PARAMETER_INSERT AFTER INSERT ON ZUPLOAD BEGIN SELECT 1; END")
        // Core Data's own derived-attribute triggers are not the app's: the writer makes them again.
        // Read without a model, a trigger named as Core Data names them counts as its own; read
        // with the model's layout, only those its derived attributes have do (an app's trigger
        // named Z_DA_… was dropped without a word: review).
        let census = try StoreCensus(path: copy)
        #expect(census.leftBehind(readWith: nil).otherSchema == ["trigger task_words_ai", "view open_tasks"])
        let model = try #require(try XcodeModelLoader.loadBundle(at: ExportTestSupport.workspace).version(named: "Workspace 2"))
        let layout = try CoreDataStoreReader(path: copy).records(model: model).layout
        #expect(census.leftBehind(readWith: layout).otherSchema
                == ["trigger Z_DA_ZUPLOAD_Task_count_PARAMETER_INSERT", "trigger task_words_ai", "view open_tasks"])
        let named = "views and triggers outside Core Data's layout are not carried: trigger task_words_ai, view open_tasks"
        let manifest = try Self.expectNamedByEveryVerb(named, store: store, folder: folder)
        #expect(manifest["otherSchema"] as? [String] == ["trigger task_words_ai", "view open_tasks"])
        #expect(try storeRows(folder + "/Restored.sqlite", "SELECT count(*) FROM sqlite_master WHERE type IN ('view', 'trigger')") == ["0"])
        let inspected = try FerryProcess.run(["inspect", store])
        #expect(inspected.out.contains("views and triggers outside Core Data's layout (no job carries them): trigger task_words_ai, view open_tasks"),
                "\(inspected.out)")
    }

    /// Runs migrate, export (into `folder/export`), backup and restore of that export on the
    /// Workspace 2 `store`, expecting each to warn `named`; the export's manifest.
    private static func expectNamedByEveryVerb(_ named: String, store: String, folder: String) throws -> [String: Any] {
        let migrated = try FerryProcess.run(["migrate", store, "--model", ExportTestSupport.workspace, "--out", folder + "/Migrated.sqlite", "--var", "zone=UTC"])
        // Exit 1: Workspace 3 rejects a few of the fixtures' records; the store is written.
        #expect(migrated.status == 1 && migrated.err.contains("warning: \(store): " + named), "\(migrated.err)")
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 0 && exported.err.contains("warning: \(store): " + named), "\(exported.err)")
        let backedUp = try FerryProcess.run(["backup", store, "--to", folder + "/backups"])
        #expect(backedUp.status == 0 && backedUp.err.contains("warning: \(store): " + named), "\(backedUp.err)")
        let restored = try FerryProcess.run(["restore", folder + "/export", "--model", ExportTestSupport.workspace, "--out", folder + "/Restored.sqlite"])
        #expect(restored.status == 0 && restored.err.contains("warning: the backed-up store: " + named), "\(restored.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/export/manifest.json"))) as? [String: Any])
    }

    @Test("a virtual table of a module this SQLite lacks stops no verb")
    func missingModule() throws {
        let folder = try TestPaths.temporaryFolder("left-behind-module")
        let store = try ExportTestSupport.workspace2Store(folder)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("""
            PRAGMA writable_schema = ON;
            INSERT INTO sqlite_master VALUES ('table', 'search', 'search', 0, 'CREATE VIRTUAL TABLE search USING nosuchmodule(body)');
            """)
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 0, "\(exported.err)")
        let migrated = try FerryProcess.run(["migrate", store, "--model", ExportTestSupport.workspace, "--out", folder + "/Migrated.sqlite", "--var", "zone=UTC"])
        // Exit 1: Workspace 3 rejects a few of the fixtures' records; the store is written.
        #expect(migrated.status == 1 && !migrated.err.contains("no such module"), "\(migrated.err)")
    }
}

