import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// `update` and `delete` change a store in place, and are held to `verify`'s value and
/// relationship checks inside their transaction: a change that adds a failure is rolled back with
/// exit 5 (`StoreChangeChecks`). The mutation's own reasoning cannot see everything a write does:
/// here the store's own triggers (Core Data's derived-attribute and history triggers run on every
/// write, and so would these) break the store as the change is made.
@Suite("update and delete are checked independently before they commit")
struct MutationChangeCheckTests {
    /// A Workspace 2 store (tasks, tags and uploads from the fixtures) and its bytes.
    private func store(_ name: String) throws -> (path: String, folder: String) {
        let folder = try TestPaths.temporaryFolder(name)
        return (try ExportTestSupport.workspace2Store(folder), folder)
    }

    private func execute(_ path: String, _ sql: String) throws {
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute(sql)
        try database.close()
    }

    @Test("an update whose write empties a required attribute (by a trigger of the store) is rolled back, exit 5")
    func updateBreakingRequiredAttribute() throws {
        let (path, _) = try store("change-check-update")
        try execute(path, "CREATE TRIGGER breaks_title AFTER UPDATE OF ZPRIORITY ON ZTASK BEGIN UPDATE ZTASK SET ZTITLE = NULL WHERE Z_PK = new.Z_PK; END")
        let before = try TestPaths.read(path)
        let run = try FerryProcess.run(["update", path, "--entity", "Task", "--where", "taskID == 1", "--set", "priority=3"])
        #expect(run.status == 5, "\(run.err)")
        #expect(run.err.contains("Task.title") && run.err.contains("nothing was changed"), "\(run.err)")
        #expect(try TestPaths.read(path) == before)
        #expect(try storeRows(path, "SELECT count(*) FROM ZTASK WHERE ZTITLE IS NULL") == ["0"])
    }

    @Test("a delete whose write leaves a join row pointing at nothing (by a trigger of the store) is rolled back, exit 5")
    func deleteLeavingDanglingPair() throws {
        let (path, _) = try store("change-check-delete")
        try execute(path, "CREATE TRIGGER breaks_pairs AFTER DELETE ON ZTAG BEGIN INSERT OR IGNORE INTO Z_1TASKS VALUES (old.Z_PK, (SELECT min(Z_PK) FROM ZTASK)); END")
        let before = try TestPaths.read(path)
        let tags = try storeRows(path, "SELECT count(*) FROM ZTAG")
        let run = try FerryProcess.run(["delete", path, "--entity", "Tag", "--where", "TRUEPREDICATE"])
        #expect(run.status == 5, "\(run.err)")
        #expect(run.err.contains("Task.tags") || run.err.contains("Tag.tasks"), "\(run.err)")
        #expect(try TestPaths.read(path) == before)
        #expect(try storeRows(path, "SELECT count(*) FROM ZTAG") == tags)
    }

    @Test("a delete that takes more rows than its plan (a trigger of the store deletes another upload) is rolled back, exit 5")
    func deleteTakingMoreRows() throws {
        let (path, _) = try store("change-check-rows")
        try execute(path, "CREATE TRIGGER takes_more AFTER DELETE ON ZTAG BEGIN DELETE FROM ZUPLOAD WHERE Z_PK = (SELECT min(Z_PK) FROM ZUPLOAD); END")
        let before = try TestPaths.read(path)
        let run = try FerryProcess.run(["delete", path, "--entity", "Tag", "--where", "name == 'work'"])
        #expect(run.status == 5, "\(run.err)")
        #expect(run.err.contains("ZUPLOAD: 1 row(s) went, the plan deletes 0"), "\(run.err)")
        #expect(try TestPaths.read(path) == before)
    }

    @Test("a store that already fails a check takes a change that adds no failure, and refuses one that adds to it")
    func failuresAlreadyThere() throws {
        let (path, _) = try store("change-check-existing")
        try execute(path, "UPDATE ZTASK SET ZTITLE = NULL WHERE Z_PK = (SELECT min(Z_PK) FROM ZTASK)")
        let sound = try FerryProcess.run(["update", path, "--entity", "Task", "--where", "TRUEPREDICATE", "--set", "priority=2"])
        #expect(sound.status == 0, "\(sound.err)")
        #expect(try storeRows(path, "SELECT count(*) FROM ZTASK WHERE ZPRIORITY = 2") == (try storeRows(path, "SELECT count(*) FROM ZTASK")))
        try execute(path, "CREATE TRIGGER breaks_title AFTER UPDATE OF ZPRIORITY ON ZTASK BEGIN UPDATE ZTASK SET ZTITLE = NULL WHERE Z_PK = new.Z_PK; END")
        let before = try TestPaths.read(path)
        let worse = try FerryProcess.run(["update", path, "--entity", "Task", "--where", "taskID == 2", "--set", "priority=1"])
        #expect(worse.status == 5, "\(worse.err)")
        #expect(worse.err.contains("required-attribute (1 → "), "\(worse.err)")
        #expect(try TestPaths.read(path) == before)
    }

    @Test("a No Action delete leaves the dangling keys its plan lists, and no more, and says so: exit 1 (it was 0, and verify then failed)")
    func noActionAsPlanned() throws {
        let folder = try TestPaths.temporaryFolder("change-check-no-action")
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Book" syncable="YES">
                    <attribute name="title" attributeType="String"/>
                    <relationship name="library" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Library" inverseName="books" inverseEntity="Library"/>
                </entity>
                <entity name="Library" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Book" inverseName="library" inverseEntity="Book"/>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Libraries", versions: [("Libraries", contents)], in: folder)
        let path = folder + "/libraries.sqlite"
        try "name\ncity\nvillage\n".write(toFile: folder + "/libraries.csv", atomically: true, encoding: .utf8)
        try #"[{"title": "a", "library": "city"}, {"title": "b", "library": "city"}, {"title": "c", "library": "village"}]"#
            .write(toFile: folder + "/books.json", atomically: true, encoding: .utf8)
        #expect(try FerryProcess.run(["import", folder + "/libraries.csv", "--model", bundle, "--entity", "Library", "--out", path]).status == 0)
        let books = try FerryProcess.run(["import", folder + "/books.json", "--model", bundle, "--entity", "Book", "--out", path, "--append",
                                          "--link", "library=name"])
        #expect(books.status == 0, "\(books.err)")
        let planned = try FerryProcess.run(["delete", path, "--entity", "Library", "--where", "name == 'city'", "--dry-run"])
        #expect(planned.status == 1 && planned.err.contains("warning: No Action would leave 2 keys pointing at deleted objects"), "\(planned.err)")
        let run = try FerryProcess.run(["delete", path, "--entity", "Library", "--where", "name == 'city'"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("warning: No Action left 2 keys pointing at deleted objects"), "\(run.err)")
        #expect(run.out.contains("references left dangling (No Action)\n  Book.library: 2 (Book Z_PK 1, 2)"), "\(run.out)")
        #expect(try storeRows(path, "SELECT count(*) FROM ZBOOK WHERE ZLIBRARY IS NOT NULL AND ZLIBRARY NOT IN (SELECT Z_PK FROM ZLIBRARY)") == ["2"])
    }
}
