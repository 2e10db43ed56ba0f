import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// `ferry delete` and the objects that stay: when Nullify would leave one with a required to-one
/// nil or a to-many under its minimum count, Core Data's validation would not save it, so the
/// whole delete is refused (exit 4) naming it, and the store's bytes are unchanged.
@Suite("delete and required relationships of what stays")
struct DeleteRequiredReferenceTests {

    /// The delete is refused (exit 4) with `message`, its dry run too (it said 0, and a script
    /// went ahead), and the store is as it was.
    private static func expectRefused(_ store: String, entity: String, predicate: String, message: String) throws {
        let before = try TestPaths.read(store)
        let dryRun = try FerryProcess.run(["delete", store, "--entity", entity, "--where", predicate, "--dry-run"])
        #expect(dryRun.status == 4)
        #expect(dryRun.out.contains(message), "\(dryRun.out)")
        let result = try FerryProcess.run(["delete", store, "--entity", entity, "--where", predicate])
        #expect(result.status == 4)
        #expect(result.err.contains(message), "\(result.err)")
        #expect(try TestPaths.read(store) == before)
    }
    /// Member.team is required (Team.members Nullify); Band.players needs at least two
    /// (Player.band Nullify).
    static let model = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        <entity name="Band" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="players" optional="YES" toMany="YES" minCount="2" deletionRule="Nullify" destinationEntity="Player" inverseName="band" inverseEntity="Player"/>
        </entity>
        <entity name="Member" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="team" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="members" inverseEntity="Team"/>
        </entity>
        <entity name="Player" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="band" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Band" inverseName="players" inverseEntity="Band"/>
        </entity>
        <entity name="Team" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="members" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Member" inverseName="team" inverseEntity="Member"/>
        </entity>
    </model>
    """

    /// Teams 1 Red, 2 Blue, members Ann (Red) and Bob (Blue); band 1 with players 1, 2, band 2
    /// with players 3, 4, 5.
    static func store() throws -> String {
        let folder = try TestPaths.temporaryFolder("delete-required")
        let bundle = try TestPaths.xcodeModelBundle("Teams", versions: [("Teams", model)], in: folder)
        let records = folder + "/teams.json"
        try Data(#"[{"name":"Red"},{"name":"Blue"}]"#.utf8).write(to: URL(fileURLWithPath: records))
        let store = folder + "/Teams.sqlite"
        let imported = try FerryProcess.run(["import", records, "--model", bundle, "--entity", "Team", "--out", store])
        try #require(imported.status == 0, "\(imported.err)")
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("""
            INSERT INTO ZMEMBER (Z_PK, Z_ENT, Z_OPT, ZTEAM, ZNAME) VALUES (1, 2, 1, 1, 'Ann'), (2, 2, 1, 2, 'Bob');
            INSERT INTO ZBAND (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'One'), (2, 1, 1, 'Two');
            INSERT INTO ZPLAYER (Z_PK, Z_ENT, Z_OPT, ZBAND, ZNAME) VALUES (1, 3, 1, 1, 'a'), (2, 3, 1, 1, 'b'), (3, 3, 1, 2, 'c'),
                (4, 3, 1, 2, 'd'), (5, 3, 1, 2, 'e');
            UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME IN ('Band', 'Member');
            UPDATE Z_PRIMARYKEY SET Z_MAX = 5 WHERE Z_NAME = 'Player';
            """)
        return store
    }

    @Test("Nullify that would leave a required to-one nil, or a to-many under its minimum, refuses the delete",
          arguments: [("Team", "name == 'Red'", "Member(1) would keep 0 of the 1 destination Member.team requires"),
                      ("Player", "name == 'a'", "Band(1) would keep 1 of the 2 destinations Band.players requires")])
    func refused(entity: String, predicate: String, message: String) throws {
        let store = try Self.store()
        try Self.expectRefused(store, entity: entity, predicate: predicate, message: message)
    }

    @Test("the same deletes go ahead when what stays keeps enough")
    func allowed() throws {
        let store = try Self.store()
        let player = try FerryProcess.run(["delete", store, "--entity", "Player", "--where", "name == 'c'"])
        #expect(player.status == 0, "\(player.err)")
        #expect(try storeRows(store, "SELECT count(*) FROM ZPLAYER WHERE ZBAND = 2") == ["2"])
        let team = try FerryProcess.run(["delete", store, "--entity", "Member", "--where", "name == 'Ann'"])
        #expect(team.status == 0, "\(team.err)")
        #expect(try storeRows(store, "SELECT count(*) FROM ZMEMBER") == ["1"])
    }

    /// A No Action to-one whose key is in the deleted row (inverse to-many) leaves nothing
    /// dangling, yet delete listed the survivor's inverse as left dangling, said verify would
    /// report it, and exited 1 (verify passed, SQL found no dangling key).
    @Test("a No Action to-one stored in the deleted row leaves nothing dangling: exit 0, and verify agrees")
    func noActionToOneInDeletedRow() throws {
        let folder = try TestPaths.temporaryFolder("delete-no-action-to-one")
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Person" syncable="YES"><attribute name="pid" attributeType="Integer 64" usesScalarValueType="YES"/>"#
            + #"<relationship name="manager" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Person" inverseName="reports" inverseEntity="Person"/>"#
            + #"<relationship name="reports" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="manager" inverseEntity="Person"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="pid"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#
        let model = try TestPaths.xcodeModelBundle("People", versions: [("People", xml)], in: folder)
        try #"[{"pid": 1}, {"pid": 2, "manager": 1}, {"pid": 3}]"#.write(toFile: folder + "/p.json", atomically: true, encoding: .utf8)
        let store = folder + "/p.sqlite"
        #expect(try FerryProcess.run(["import", folder + "/p.json", "--model", model, "--entity", "Person", "--out", store,
                                      "--link", "manager=pid"]).status == 0)
        let deleted = try FerryProcess.run(["delete", store, "--entity", "Person", "--where", "pid == 2"])
        #expect(deleted.status == 0, "\(deleted.out)\(deleted.err)")
        #expect(!(deleted.out + deleted.err).contains("dangling"), "\(deleted.out)\(deleted.err)")
        #expect(try FerryProcess.run(["verify", store]).status == 0)
        #expect(try storeRows(store, "SELECT count(*) FROM ZPERSON") == ["2"])
    }

    /// Node.ref → Label has no inverse, Holder.tag ↔ Tag.holder is a one-to-one: nothing on a
    /// deleted Label reaches the Nodes pointing at it, nor a Tag whose own key is empty the Holder
    /// pointing at it. The dry run exited 0, the delete 5 (its change check found the keys).
    static let strandingModel = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Holder" syncable="YES">
            <relationship name="tag" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag" inverseName="holder" inverseEntity="Tag"/>
        </entity>
        <entity name="Label" syncable="YES">
            <attribute name="lname" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Node" syncable="YES">
            <relationship name="ref" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Label"/>
        </entity>
        <entity name="Tag" syncable="YES">
            <attribute name="lname" optional="YES" attributeType="String"/>
            <relationship name="holder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Holder" inverseName="tag" inverseEntity="Holder"/>
        </entity>
    </model>
    """

    @Test("a key no delete rule reaches (no inverse, or an empty inverse key) refuses the delete and its dry run (exit 4), naming it",
          arguments: [("Label", "lname == 'L1'", "Node.ref: 2 (Node(1) → Label(1), Node(2) → Label(1))"),
                      ("Tag", "lname == 'T1'", "Holder.tag: 1 (Holder(1) → Tag(1))")])
    func strandedKeys(entity: String, predicate: String, message: String) throws {
        let folder = try TestPaths.temporaryFolder("delete-stranded")
        let bundle = try TestPaths.xcodeModelBundle("Refs", versions: [("Refs", Self.strandingModel)], in: folder)
        try Data(#"[{"lname":"L1"},{"lname":"L2"}]"#.utf8).write(to: URL(fileURLWithPath: folder + "/labels.json"))
        let store = folder + "/Refs.sqlite"
        let imported = try FerryProcess.run(["import", folder + "/labels.json", "--model", bundle, "--entity", "Label", "--out", store])
        try #require(imported.status == 0, "\(imported.err)")
        // Holder 2 ↔ Tag 2 is whole, Holder 1 → Tag 1 has lost Tag 1's side.
        try SQLiteDatabase(path: store, mode: .readWrite).execute("""
            INSERT INTO ZNODE (Z_PK, Z_ENT, Z_OPT, ZREF) VALUES (1, 3, 1, 1), (2, 3, 1, 1), (3, 3, 1, 2);
            INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLNAME, ZHOLDER) VALUES (1, 4, 1, 'T1', NULL), (2, 4, 1, 'T2', 2);
            INSERT INTO ZHOLDER (Z_PK, Z_ENT, Z_OPT, ZTAG) VALUES (1, 1, 1, 1), (2, 1, 1, 2);
            UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'Node';
            UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME IN ('Tag', 'Holder');
            """)
        try Self.expectRefused(store, entity: entity, predicate: predicate, message: message)
        // A one-to-one whose both keys are there is nullified; Labels no Node points at go.
        let whole = try FerryProcess.run(["delete", store, "--entity", "Tag", "--where", "lname == 'T2'"])
        #expect(whole.status == 0, "\(whole.out)\(whole.err)")
        #expect(try storeRows(store, "SELECT Z_PK, quote(ZTAG) FROM ZHOLDER ORDER BY Z_PK") == ["1|1", "2|NULL"])
        let cleared = try FerryProcess.run(["delete", store, "--entity", "Node", "--where", "TRUEPREDICATE"])
        #expect(cleared.status == 0, "\(cleared.err)")
        let labels = try FerryProcess.run(["delete", store, "--entity", "Label", "--where", "TRUEPREDICATE"])
        #expect(labels.status == 0, "\(labels.out)\(labels.err)")
    }
}
