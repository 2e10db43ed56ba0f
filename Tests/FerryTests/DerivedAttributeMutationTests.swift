import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// `ferry update` and `delete` and derived attributes: Core Data computes them when it saves, so
/// update refuses to set one (exit 3), and update and delete refuse to change what a derivation
/// reads (exit 4: it would go stale) unless the store's triggers keep it; the store's bytes are
/// unchanged.
@Suite("update, delete and derived attributes")
struct DerivedAttributeMutationTests {
    /// Task.searchTitle = lowercase:(title), Task.projectName = project.name,
    /// Project.taskCount = tasks.@count (kept by triggers, not checked).
    static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        <entity name="Project" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="taskCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="tasks.@count" usesScalarValueType="YES"/>
            <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="project" inverseEntity="Task"/>
        </entity>
        <entity name="Task" syncable="YES">
            <attribute name="note" optional="YES" attributeType="String"/>
            <attribute name="projectName" optional="YES" attributeType="String" derived="YES" derivationExpression="project.name"/>
            <attribute name="searchTitle" optional="YES" attributeType="String" derived="YES" derivationExpression="lowercase:(title)"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/>
        </entity>
    </model>
    """

    static func store() throws -> String {
        let folder = try TestPaths.temporaryFolder("update-derived")
        let bundle = try TestPaths.xcodeModelBundle("Tasks", versions: [("Tasks", model)], in: folder)
        let records = folder + "/tasks.json"
        try Data(#"[{"title":"Write"},{"title":"Read"}]"#.utf8).write(to: URL(fileURLWithPath: records))
        let store = folder + "/Tasks.sqlite"
        let imported = try FerryProcess.run(["import", records, "--model", bundle, "--entity", "Task", "--out", store])
        try #require(imported.status == 0, "\(imported.err)")
        return store
    }

    @Test("a derived attribute is bad input (3), one a derivation reads is refused (4), the store unchanged",
          arguments: [("Task", "searchTitle=x", 3, "Task.searchTitle is derived"),
                      ("Task", "title=Plan", 4, "derived attribute Task.searchTitle"),
                      ("Project", "name=Home", 4, "derived attribute Task.projectName"),
                      ("Project", "taskCount=9", 3, "Project.taskCount is derived")])
    func refused(entity: String, assignment: String, status: Int32, message: String) throws {
        let store = try Self.store()
        let before = try TestPaths.read(store)
        let result = try FerryProcess.run(["update", store, "--entity", entity, "--where", "TRUEPREDICATE", "--set", assignment])
        #expect(result.status == status)
        #expect(result.err.contains(message), "\(result.err)")
        #expect(try TestPaths.read(store) == before)
    }

    @Test("a derivation the store's Z_DA_ triggers keep lets what it reads change, and stays right")
    func keptByTrigger() throws {
        let store = try Self.store()
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("""
            CREATE TRIGGER Z_DA_ZTASK_Task_searchTitle_SOURCE_UPDATE AFTER UPDATE OF ZTITLE ON ZTASK FOR EACH ROW
            BEGIN UPDATE ZTASK SET ZSEARCHTITLE = lower(NEW.ZTITLE) WHERE Z_PK = NEW.Z_PK; END
            """)
        let result = try FerryProcess.run(["update", store, "--entity", "Task", "--where", "title == 'Read'", "--set", "title=Plan"])
        #expect(result.status == 0, "\(result.err)")
        #expect(try storeRows(store, "SELECT ZTITLE, ZSEARCHTITLE FROM ZTASK WHERE Z_PK = 2") == ["Plan|plan"])
    }

    @Test("a delete whose Nullify clears a relationship a derivation reads is refused, the store unchanged")
    func deleteClearsDerivationSource() throws {
        let store = try Self.store()
        try SQLiteDatabase(path: store, mode: .readWrite).execute("""
            INSERT INTO ZPROJECT (Z_PK, Z_ENT, Z_OPT, ZNAME, ZTASKCOUNT) VALUES (1, 1, 1, 'Home', 1);
            UPDATE ZTASK SET ZPROJECT = 1, ZPROJECTNAME = 'Home' WHERE Z_PK = 1;
            UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Project';
            """)
        let before = try TestPaths.read(store)
        let result = try FerryProcess.run(["delete", store, "--entity", "Project", "--where", "TRUEPREDICATE"])
        #expect(result.status == 4)
        #expect(result.err.contains("Task.project is read by the derived attribute Task.projectName"), "\(result.err)")
        #expect(try TestPaths.read(store) == before)
    }

    @Test("an attribute no derivation reads is set")
    func allowed() throws {
        let store = try Self.store()
        let result = try FerryProcess.run(["update", store, "--entity", "Task", "--where", "title == 'Read'", "--set", "note=soon"])
        #expect(result.status == 0, "\(result.err)")
        #expect(try storeRows(store, "SELECT ZTITLE, ZNOTE FROM ZTASK ORDER BY Z_PK") == ["Write|NULL", "Read|soon"])
    }
}
