import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// `ferry update` and derived attributes: Core Data computes them when it saves, so update
/// refuses to set one and to set an attribute a derivation reads (which would leave it stale),
/// as bad input (exit 3) naming both, the store's bytes unchanged.
@Suite("update and derived attributes")
struct UpdateDerivedAttributeTests {
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

    @Test("a derived attribute, or one a derivation reads, is refused with exit 3 and the store unchanged",
          arguments: [("Task", "searchTitle=x", "Task.searchTitle is derived"),
                      ("Task", "title=Plan", "derived attribute Task.searchTitle"),
                      ("Project", "name=Home", "derived attribute Task.projectName"),
                      ("Project", "taskCount=9", "Project.taskCount is derived")])
    func refused(entity: String, assignment: String, message: String) throws {
        let store = try Self.store()
        let before = try TestPaths.read(store)
        let result = try FerryProcess.run(["update", store, "--entity", entity, "--where", "TRUEPREDICATE", "--set", assignment])
        #expect(result.status == 3)
        #expect(result.err.contains(message), "\(result.err)")
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
