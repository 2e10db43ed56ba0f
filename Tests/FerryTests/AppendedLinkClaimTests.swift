import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// An `--append` whose record named a destination a record of the store held took it in
/// silence: upload /u2 moved from stored task 1 to the new task 2, "1 of 1 links resolved",
/// verified, exit 0, while `migrate` of the same records counted the claim (exit 1). A one-to-one
/// claimed so failed verification (exit 5), and a link from a list's to-one side renumbered every
/// list of the store by `Z_PK`. The last claim still wins, as in `migrate`; it is now counted as a
/// claim by several (exit 1), the one-to-one's loser is emptied, and stored lists keep their order.
@Suite("Links of an append that name what the store's records hold")
struct AppendedLinkClaimTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    private func write(_ text: String, _ path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A model of people and desks, a person's to-one `desk` with the inverse `deskSide` (a
    /// to-one, or a to-many), as a bundle in `folder`.
    private func desks(in folder: String, deskSide: String, toMany: Bool) throws -> String {
        let side = toMany ? #"toMany="YES""# : #"maxCount="1""#
        let model = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Person" syncable="YES"><attribute name="name" attributeType="String"/>
                    <relationship name="desk" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Desk" inverseName="\(deskSide)" inverseEntity="Desk"/>
                </entity>
                <entity name="Desk" syncable="YES"><attribute name="code" attributeType="String"/>
                    <relationship name="\(deskSide)" optional="YES" \(side) deletionRule="Nullify" destinationEntity="Person" inverseName="desk" inverseEntity="Person"/>
                </entity>
            </model>
            """
        return try TestPaths.xcodeModelBundle("Desks", versions: [("Desks", model)], in: folder)
    }

    @Test("a new record that names a destination a stored record holds takes it as the last claim, counted as in migrate (exit 1)")
    func storedDestinationClaimIsCounted() throws {
        let folder = try TestPaths.temporaryFolder("append-claim")
        try write(#"[{"remotePath": "/u1", "uploadID": "11111111-1111-1111-1111-111111111111"}, "#
                  + #"{"remotePath": "/u2", "uploadID": "22222222-2222-2222-2222-222222222222"}]"#, folder + "/u.json")
        try write(#"[{"taskID": 1, "title": "one", "attachments": ["/u1", "/u2"]}]"#, folder + "/ta.json")
        try write(#"[{"taskID": 2, "title": "two", "attachments": ["/u2"]}]"#, folder + "/tb.json")
        let store = folder + "/c.sqlite"
        var run = try FerryProcess.run(["import", folder + "/u.json", "--model", workspace, "--entity", "Upload", "--out", store])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        run = try FerryProcess.run(["import", folder + "/ta.json", "--model", workspace, "--entity", "Task", "--out", store,
                                    "--append", "--link", "attachments=remotePath"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        run = try FerryProcess.run(["import", folder + "/tb.json", "--model", workspace, "--entity", "Task", "--out", store,
                                        "--append", "--link", "attachments=remotePath"])
        #expect(run.status == 1 && run.out.contains("1 of 1 links resolved, 1 claimed by several (last wins)"), "\(run.out)\(run.err)")
        let held = "SELECT u.ZREMOTEPATH || '→' || t.ZTASKID FROM ZUPLOAD u JOIN ZTASK t ON t.Z_PK = u.ZTASK ORDER BY 1"
        #expect(try storeRows(store, held) == ["/u1→1", "/u2→2"])
        // migrate of the same records comes to the same store, with the same count.
        let migrated = folder + "/m.sqlite"
        let migrate = try FerryProcess.run(["migrate", "Upload@Workspace 3:" + folder + "/u.json", "Task@Workspace 3:" + folder + "/ta.json",
                                            "Task@Workspace 3:" + folder + "/tb.json", "--model", workspace,
                                            "--link", "attachments=remotePath", "--out", migrated])
        #expect(migrate.status == 1 && migrate.out.contains("1 claimed by several (last wins)"), "\(migrate.out)\(migrate.err)")
        #expect(try storeRows(migrated, held) == ["/u1→1", "/u2→2"])
    }

    @Test("a one-to-one's destination a stored record holds goes to the new record, the stored one's side emptied: counted, not a failed verification")
    func storedOneToOneClaimIsCounted() throws {
        let folder = try TestPaths.temporaryFolder("append-claim-one-to-one")
        let bundle = try desks(in: folder, deskSide: "person", toMany: false)
        try write(#"[{"code": "D1"}]"#, folder + "/d.json")
        try write(#"[{"name": "a", "desk": "D1"}]"#, folder + "/a.json")
        try write(#"[{"name": "b", "desk": "D1"}]"#, folder + "/b.json")
        let store = folder + "/s.sqlite"
        var run = try FerryProcess.run(["import", folder + "/d.json", "--model", bundle, "--entity", "Desk", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        run = try FerryProcess.run(["import", folder + "/a.json", "--model", bundle, "--entity", "Person", "--out", store, "--append", "--link", "desk=code"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        run = try FerryProcess.run(["import", folder + "/b.json", "--model", bundle, "--entity", "Person", "--out", store, "--append", "--link", "desk=code"])
        #expect(run.status == 1 && run.out.contains("1 claimed by several (last wins)") && run.out.contains("verified"), "\(run.out)\(run.err)")
        #expect(try storeRows(store, "SELECT ZNAME || '→' || ifnull(ZDESK, '-') FROM ZPERSON ORDER BY Z_PK") == ["a→-", "b→1"])
        #expect(try storeRows(store, "SELECT p.ZNAME FROM ZDESK d JOIN ZPERSON p ON p.Z_PK = d.ZPERSON") == ["b"])
    }

    /// The record named a value two destinations hold; the lowest Z_PK was taken, said in the
    /// link line only, exit 0.
    @Test("a link whose value several destinations hold is kept to the lowest Z_PK and said, exit 1: the record did not single it out")
    func ambiguousLinkIsNotExitZero() throws {
        let folder = try TestPaths.temporaryFolder("ambiguous-link")
        let bundle = try desks(in: folder, deskSide: "people", toMany: true)
        try write(#"[{"code": "D1"}, {"code": "D1"}, {"code": "D2"}]"#, folder + "/d.json")
        try write(#"[{"name": "a", "desk": "D1"}, {"name": "b", "desk": "D2"}]"#, folder + "/p.json")
        let store = folder + "/s.sqlite"
        var run = try FerryProcess.run(["import", folder + "/d.json", "--model", bundle, "--entity", "Desk", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        run = try FerryProcess.run(["import", folder + "/p.json", "--model", bundle, "--entity", "Person", "--out", store, "--append", "--link", "desk=code"])
        #expect(run.status == 1 && run.out.contains("2 of 2 links resolved, 1 matched several (lowest Z_PK used)"), "\(run.out)\(run.err)")
        #expect(try storeRows(store, "SELECT ZNAME || '→' || ZDESK FROM ZPERSON ORDER BY Z_PK") == ["a→1", "b→3"])
    }

    @Test("a stored ordered list keeps its order when an appended record joins it from the to-one side")
    func storedListKeepsItsOrder() throws {
        let folder = try TestPaths.temporaryFolder("append-ordered-list")
        let model = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Folder" syncable="YES"><attribute name="name" attributeType="String"/>
                    <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="folder" inverseEntity="Item"/>
                </entity>
                <entity name="Item" syncable="YES"><attribute name="code" attributeType="String"/>
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Folders", versions: [("Folders", model)], in: folder)
        try write(#"[{"code": "a"}, {"code": "b"}]"#, folder + "/i.json")
        try write(#"[{"name": "F", "items": ["b", "a"]}]"#, folder + "/f.json")
        try write(#"[{"code": "c", "folder": "F"}]"#, folder + "/c.json")
        let store = folder + "/s.sqlite"
        var run = try FerryProcess.run(["import", folder + "/i.json", "--model", bundle, "--entity", "Item", "--out", store])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        for (file, entity, link) in [("f.json", "Folder", "items=code"), ("c.json", "Item", "folder=name")] {
            run = try FerryProcess.run(["import", folder + "/" + file, "--model", bundle, "--entity", entity, "--out", store,
                                        "--append", "--link", link])
            #expect(run.status == 0, "\(run.out)\(run.err)")
        }
        #expect(try storeRows(store, "SELECT ZCODE FROM ZITEM ORDER BY Z_FOK_FOLDER") == ["b", "a", "c"])
    }
}
