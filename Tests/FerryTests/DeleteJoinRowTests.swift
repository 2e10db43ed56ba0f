import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// `ferry delete` and the rows of join tables: a relationship that is its own inverse names an
/// object in either column, and a row reached from both of its deleted objects is one row. Every
/// count is checked with plain SQL on the store, not through the delete plan.
@Suite("delete and join-table rows")
struct DeleteJoinRowTests {
    /// Item.tags (Cascade) ⇄ Tag.items (Nullify), many-to-many; Person.friends, its own inverse.
    static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        <entity name="Item" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
        </entity>
        <entity name="Person" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
        </entity>
        <entity name="Tag" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
        </entity>
    </model>
    """

    /// A store of `model`: people 1 Ann, 2 Dee, 3 Eve, Ann friends with Dee and Eve (each pair
    /// kept in both directions); item 1 tagged with tag 1, item 2 with tags 1 and 2.
    static func store() throws -> String {
        let folder = try TestPaths.temporaryFolder("delete-join")
        let bundle = try TestPaths.xcodeModelBundle("Friends", versions: [("Friends", model)], in: folder)
        let records = folder + "/people.json"
        try Data(#"[{"name":"Ann"},{"name":"Dee"},{"name":"Eve"}]"#.utf8).write(to: URL(fileURLWithPath: records))
        let store = folder + "/Friends.sqlite"
        let imported = try FerryProcess.run(["import", records, "--model", bundle, "--entity", "Person", "--out", store])
        try #require(imported.status == 0, "\(imported.err)")
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("""
            INSERT INTO Z_2FRIENDS VALUES (1, 2), (2, 1), (1, 3), (3, 1);
            INSERT INTO ZITEM VALUES (1, 1, 1, 'one'), (2, 1, 1, 'two');
            INSERT INTO ZTAG VALUES (1, 3, 1, 'red'), (2, 3, 1, 'blue');
            INSERT INTO Z_1TAGS VALUES (1, 1), (2, 1), (2, 2);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME IN ('Item', 'Tag');
            """)
        return store
    }

    @Test("deleting one side of a relationship that is its own inverse leaves no join row naming it")
    func ownInverse() throws {
        let store = try Self.store()
        let result = try FerryProcess.run(["delete", store, "--entity", "Person", "--where", "name == 'Ann'"])
        #expect(result.status == 0, "\(result.err)")
        #expect(try storeRows(store, "SELECT count(*) FROM Z_2FRIENDS WHERE Z_2FRIENDS = 1 OR Z_2FRIENDS1 = 1") == ["0"])
        #expect(try storeRows(store, "SELECT count(*) FROM Z_2FRIENDS") == ["0"])
        #expect(try storeRows(store, "SELECT Z_PK, Z_OPT FROM ZPERSON ORDER BY Z_PK") == ["2|2", "3|2"])
        #expect(result.out.contains("  Z_2FRIENDS: 4\n"), "\(result.out)")
    }

    @Test("a join row whose two objects are both deleted is counted once")
    func bothSidesDeleted() throws {
        let store = try Self.store()
        let before = Int(try storeRows(store, "SELECT count(*) FROM Z_1TAGS").first ?? "") ?? -1
        let result = try FerryProcess.run(["delete", store, "--entity", "Item", "--where", "name == 'two'"])
        #expect(result.status == 0, "\(result.err)")
        let after = Int(try storeRows(store, "SELECT count(*) FROM Z_1TAGS").first ?? "") ?? -1
        #expect(before - after == 3)
        #expect(result.out.contains("  Z_1TAGS: \(before - after)\n"), "\(result.out)")
        #expect(try storeRows(store, "SELECT Z_PK FROM ZTAG") == [])
    }
}
