import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// `update` and `delete` change a store in place, and are held to `verify`'s value and
/// relationship checks inside their transaction: a change that adds a failure is rolled back with
/// exit 5 (`StoreChangeChecks`). The mutation's own reasoning cannot see everything a write does:
/// here the store's own triggers (Core Data's derived-attribute and history triggers run on every
/// write, and so would these) break the store as the change is made. A store that holds such a
/// trigger when it is opened is refused (`MutationForeignTriggerTests`), so here another
/// connection adds it to a store already opened for the change, as another process could.
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

    /// The store opened for a change as `update` and `delete` open it (held to `verify`'s
    /// checks), then given `trigger` by another connection.
    private func opened(_ path: String, thenTrigger trigger: String) throws -> MutableStore {
        let model = try #require(try XcodeModelLoader.loadBundle(at: ExportTestSupport.workspace).version(named: "Workspace 2"))
        let store = try MutableStore(path: path, model: model)
        store.changeCheck = StoreChangeChecks.check(model: model, layout: store.layout)
        try execute(path, trigger)
        return store
    }

    private static let breaksTitle =
        "CREATE TRIGGER breaks_title AFTER UPDATE OF ZPRIORITY ON ZTASK BEGIN UPDATE ZTASK SET ZTITLE = NULL WHERE Z_PK = new.Z_PK; END"

    @Test("an update whose write empties a required attribute (by a trigger of the store) is rolled back")
    func updateBreakingRequiredAttribute() throws {
        let (path, _) = try store("change-check-update")
        let store = try opened(path, thenTrigger: Self.breaksTitle)
        let before = try TestPaths.read(path)
        let error = #expect(throws: StoreMutationError.self) {
            try store.update("Task", where: FetchPredicate(format: "taskID == 1"), set: [(key: "priority", value: .integer(3))])
        }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("Task.title") && text.contains("nothing was changed"), "\(text)")
        #expect(try TestPaths.read(path) == before)
        #expect(try storeRows(path, "SELECT count(*) FROM ZTASK WHERE ZTITLE IS NULL") == ["0"])
    }

    @Test("a delete whose write leaves a join row pointing at nothing (by a trigger of the store) is rolled back")
    func deleteLeavingDanglingPair() throws {
        let (path, _) = try store("change-check-delete")
        let store = try opened(path, thenTrigger: "CREATE TRIGGER breaks_pairs AFTER DELETE ON ZTAG BEGIN "
            + "INSERT OR IGNORE INTO Z_1TASKS VALUES (old.Z_PK, (SELECT min(Z_PK) FROM ZTASK)); END")
        let before = try TestPaths.read(path)
        let tags = try storeRows(path, "SELECT count(*) FROM ZTAG")
        let error = #expect(throws: StoreMutationError.self) { try store.delete(from: "Tag", where: FetchPredicate(format: "TRUEPREDICATE")) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("Task.tags") || text.contains("Tag.tasks"), "\(text)")
        #expect(try TestPaths.read(path) == before)
        #expect(try storeRows(path, "SELECT count(*) FROM ZTAG") == tags)
    }

    @Test("a delete that takes more rows than its plan (a trigger of the store deletes another upload) is rolled back")
    func deleteTakingMoreRows() throws {
        let (path, _) = try store("change-check-rows")
        let store = try opened(path, thenTrigger: "CREATE TRIGGER takes_more AFTER DELETE ON ZTAG BEGIN "
            + "DELETE FROM ZUPLOAD WHERE Z_PK = (SELECT min(Z_PK) FROM ZUPLOAD); END")
        let before = try TestPaths.read(path)
        let error = #expect(throws: StoreMutationError.self) { try store.delete(from: "Tag", where: FetchPredicate(format: "name == 'work'")) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("ZUPLOAD: 1 row(s) went, the plan deletes 0"), "\(text)")
        #expect(try TestPaths.read(path) == before)
    }

    @Test("a store that already fails a check takes a change that adds no failure, and refuses one that adds to it")
    func failuresAlreadyThere() throws {
        let (path, _) = try store("change-check-existing")
        try execute(path, "UPDATE ZTASK SET ZTITLE = NULL WHERE Z_PK = (SELECT min(Z_PK) FROM ZTASK)")
        let sound = try FerryProcess.run(["update", path, "--entity", "Task", "--where", "TRUEPREDICATE", "--set", "priority=2"])
        #expect(sound.status == 0, "\(sound.err)")
        #expect(try storeRows(path, "SELECT count(*) FROM ZTASK WHERE ZPRIORITY = 2") == (try storeRows(path, "SELECT count(*) FROM ZTASK")))
        let store = try opened(path, thenTrigger: Self.breaksTitle)
        let before = try TestPaths.read(path)
        let worse = #expect(throws: StoreMutationError.self) {
            try store.update("Task", where: FetchPredicate(format: "taskID == 2"), set: [(key: "priority", value: .integer(1))])
        }
        #expect(worse.map { "\($0)" }?.contains("required-attribute (1 → ") == true, "\(String(describing: worse))")
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
