import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// Stores that fail `ferry verify`'s relationship checks, read by the verbs that read stores. A
/// to-one whose entity column names another entity than its row's was exported with exit 0 and
/// restored, or migrated, as the row's without a word; a required to-one left NULL was exported
/// with exit 0, and its restore failed as a whole (exit 5). The checks now run on every store
/// read whole (export, migrate), each failure is named (exit 1), the manifest keeps them for the
/// restore to say, and a record Core Data could not save is a reject of the restore.
@Suite("Stores that fail verify's relationship checks")
struct DamagedStoreReadTests {
    /// `Tag.media` → `Media`, which has a sub-entity (`Song`): its column has an entity column
    /// beside it. `required`: the relationship is required. Version 2 adds `Tag.note`.
    private static func version(_ number: Int, required: Bool) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Media" syncable="YES"><attribute name="title" attributeType="String"/>"#
            + #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="media" inverseEntity="Tag"/></entity>"#
            + #"<entity name="Song" parentEntity="Media" syncable="YES"><attribute name="artist" optional="YES" attributeType="String"/></entity>"#
            + #"<entity name="Tag" syncable="YES"><attribute name="label" attributeType="String"/>"#
            + (number > 1 ? #"<attribute name="note" optional="YES" attributeType="String"/>"# : "")
            + #"<relationship name="media" \#(required ? "" : #"optional="YES" "#)maxCount="1" deletionRule="Nullify" destinationEntity="Media" inverseName="tags" inverseEntity="Media"/></entity>"#
            + "</model>"
    }

    /// The bundle and a version 1 store of two media and three tags (`c`, Z_PK 3, on the second
    /// medium), damaged by `damage` (SQL); the PostgreSQL route's tests use it too.
    static func store(in folder: String, required: Bool, damage: String) throws -> (store: String, bundle: String) {
        let bundle = try TestPaths.xcodeModelBundle("Media", versions: [("Media 1", Self.version(1, required: required)),
                                                                      ("Media 2", Self.version(2, required: required))], in: folder)
        try #"[{"title": "m1", "tags": [{"label": "a"}, {"label": "b"}]}, {"title": "m2", "tags": [{"label": "c"}]}]"#
            .write(toFile: folder + "/media.json", atomically: true, encoding: .utf8)
        let store = folder + "/media.sqlite"
        let imported = try FerryProcess.run(["import", folder + "/media.json", "--model", bundle, "--model-version", "Media 1",
                                             "--entity", "Media", "--out", store])
        #expect(imported.status == 0, "\(imported.err)")
        try SQLiteDatabase(path: store, mode: .readWrite).execute(damage)
        return (store, bundle)
    }

    @Test("an entity column naming another entity than its row's is named by export, restore and migrate (exit 1)")
    func entityColumn() throws {
        let folder = try TestPaths.temporaryFolder("damaged-entity-column")
        let (store, bundle) = try Self.store(in: folder, required: false, damage: "UPDATE ZTAG SET Z1_MEDIA = 2 WHERE Z_PK = 3")
        let failure = "foreign-key-entity Tag.media: 1 row(s) name another entity in Z1_MEDIA than their destination's Z_ENT (Z_PK 3: "
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 1, "\(exported.err)")
        #expect(exported.err.contains("warning: \(store) fails a relationship check of ferry verify (exported as the store holds it; "
            + "a restore keeps what its records say): \(failure)"), "\(exported.err)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/export/manifest.json"))) as? [String: Any]
        let kept = try #require(manifest?["relationshipFailures"] as? [String])
        #expect(kept.count == 1 && kept[0].hasPrefix(failure), "\(kept)")
        let restored = try FerryProcess.run(["restore", folder + "/export", "--model", bundle, "--out", folder + "/restored.sqlite"])
        #expect(restored.status == 1, "\(restored.err)")
        #expect(restored.err.contains("warning: the backed-up store fails a relationship check of ferry verify (named when it was exported; "
            + "restored as its records say): \(failure)"), "\(restored.err)")
        // Restored as the row is: a Media, which the store's own verify then passes.
        #expect(try storeRows(folder + "/restored.sqlite", "SELECT Z_PK, ZMEDIA, Z1_MEDIA FROM ZTAG WHERE Z_PK = 3") == ["3|2|1"])
        let migrated = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/migrated.sqlite"])
        #expect(migrated.status == 1, "\(migrated.err)")
        #expect(migrated.err.contains("warning: \(store) fails a relationship check of ferry verify (migrated as its records say): \(failure)"),
                "\(migrated.err)")
        // A sound store: no word, exit 0, and the manifest has no such key.
        try SQLiteDatabase(path: store, mode: .readWrite).execute("UPDATE ZTAG SET Z1_MEDIA = 1 WHERE Z_PK = 3")
        let sound = try FerryProcess.run(["export", store, "--out", folder + "/sound"])
        #expect(sound.status == 0 && !sound.err.contains("relationship check"), "\(sound.err)")
        let soundManifest = try String(contentsOfFile: folder + "/sound/manifest.json", encoding: .utf8)
        #expect(!soundManifest.contains("relationshipFailures"))
        let soundMigration = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/sound.sqlite"])
        #expect(soundMigration.status == 0, "\(soundMigration.err)")
    }

    @Test("a required to-one left empty: the export names it, the restore rejects that record and restores the rest (exit 1)")
    func requiredLeftEmpty() throws {
        let folder = try TestPaths.temporaryFolder("damaged-required-empty")
        let (store, bundle) = try Self.store(in: folder, required: true, damage: "UPDATE ZTAG SET ZMEDIA = NULL, Z1_MEDIA = NULL WHERE Z_PK = 3")
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 1, "\(exported.err)")
        #expect(exported.err.contains("required-relationship Tag.media: 1 row(s) have no destination for a required relationship (Z_PK 3)"),
                "\(exported.err)")
        let restored = try FerryProcess.run(["restore", folder + "/export", "--model", bundle, "--out", folder + "/restored.sqlite"])
        #expect(restored.status == 1, "\(restored.err)")
        #expect(restored.err.contains("reject: \(folder)/export/Tag.ndjson:3 Tag Z_PK 3: Tag: required relationship 'media' is empty"),
                "\(restored.err)")
        #expect(restored.out.contains("Tag: 2"), "\(restored.out)")
        #expect(restored.out.hasSuffix("verified, and compared with the store backed up record by record and pair by pair, "
            + "except for what the warnings above name\n"), "\(restored.out)")
        // The others keep their keys, and the store verifies.
        #expect(try storeRows(folder + "/restored.sqlite", "SELECT Z_PK, ZLABEL, ZMEDIA FROM ZTAG ORDER BY Z_PK") == ["1|a|1", "2|b|1"])
        let verified = try FerryProcess.run(["verify", folder + "/restored.sqlite", "--model", bundle])
        #expect(verified.status == 0, "\(verified.out)")
    }

    /// The row's pairs were counted only when its reference could be read, so the pair census
    /// differed and the whole migration failed (exit 5) instead of rejecting the row.
    @Test("an entity column naming an entity number the model lacks: migrate rejects the row (exit 1), export refuses the store naming it (exit 3)")
    func unknownEntityNumber() throws {
        let folder = try TestPaths.temporaryFolder("damaged-entity-number")
        let (store, bundle) = try Self.store(in: folder, required: false, damage: "UPDATE ZTAG SET Z1_MEDIA = 99 WHERE Z_PK = 3")
        let migrated = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/migrated.sqlite"])
        #expect(migrated.status == 1, "\(migrated.err)")
        #expect(migrated.err.contains("table ZTAG, row 3, column ZMEDIA: destination entity number 99 is not in the model"), "\(migrated.err)")
        #expect(try storeRows(folder + "/migrated.sqlite", "SELECT group_concat(ZLABEL) FROM ZTAG") == ["a,b"])
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 3 && exported.err.contains("row 3, column ZMEDIA: destination entity number 99"), "\(exported.err)")
    }

    /// A store's record whose required attribute is NULL (a batch update, a damaged store) was
    /// written as it was, and the whole restore or migration failed its check (exit 5).
    @Test("a record whose required attribute is NULL is a reject of restore and migrate, the rest kept (exit 1)")
    func requiredAttributeNull() throws {
        let folder = try TestPaths.temporaryFolder("damaged-required-attribute")
        let (store, bundle) = try Self.store(in: folder, required: false, damage: "UPDATE ZTAG SET ZLABEL = NULL WHERE Z_PK = 3")
        #expect(try FerryProcess.run(["export", store, "--out", folder + "/export"]).status == 0)
        let restored = try FerryProcess.run(["restore", folder + "/export", "--model", bundle, "--out", folder + "/restored.sqlite"])
        #expect(restored.status == 1, "\(restored.err)")
        #expect(restored.err.contains("Tag Z_PK 3: Tag: required attribute 'label' is NULL"), "\(restored.err)")
        #expect(try storeRows(folder + "/restored.sqlite", "SELECT group_concat(ZLABEL) FROM ZTAG") == ["a,b"])
        let migrated = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/migrated.sqlite"])
        #expect(migrated.status == 1, "\(migrated.err)")
        #expect(migrated.err.contains("Tag Z_PK 3: Tag.label: Tag.label is required and has no value or default"), "\(migrated.err)")
        #expect(try storeRows(folder + "/migrated.sqlite", "SELECT group_concat(ZLABEL) FROM ZTAG") == ["a,b"])
    }

    /// `Box.owner` is required; `Box.items` is ordered and its inverse `Item.box` required.
    private static func boxes(version number: Int) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Owner" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="boxes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Box" inverseName="owner" inverseEntity="Box"/></entity>"#
            + #"<entity name="Box" syncable="YES"><attribute name="tag" attributeType="String"/>"#
            + #"<relationship name="owner" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="boxes" inverseEntity="Owner"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="box" inverseEntity="Item"/></entity>"#
            + #"<entity name="Item" syncable="YES"><attribute name="label" attributeType="String"/>"#
            + (number > 1 ? #"<attribute name="note" optional="YES" attributeType="String"/>"# : "")
            + #"<relationship name="box" maxCount="1" deletionRule="Nullify" destinationEntity="Box" inverseName="items" inverseEntity="Box"/></entity>"#
            + "</model>"
    }

    /// A record rejected (box b1, whose required owner is NULL) took with it neither the records
    /// whose required to-one only its ordered list named (items i1 and i2): they were written
    /// without a box, and the whole restore or migration failed its check (exit 5).
    @Test("records whose required to-one names a rejected record go with it, also when an ordered list holds the pairs (exit 1)")
    func dependentsOfARejectedRecord() throws {
        let folder = try TestPaths.temporaryFolder("damaged-dependents")
        let bundle = try TestPaths.xcodeModelBundle("Boxes", versions: [("Boxes 1", Self.boxes(version: 1)), ("Boxes 2", Self.boxes(version: 2))],
                                                    in: folder)
        try #"[{"name": "ann", "boxes": [{"tag": "b1", "items": [{"label": "i1"}, {"label": "i2"}]}, {"tag": "b2", "items": [{"label": "i3"}, {"label": "i4"}]}]}]"#
            .write(toFile: folder + "/owners.json", atomically: true, encoding: .utf8)
        let store = folder + "/boxes.sqlite"
        let imported = try FerryProcess.run(["import", folder + "/owners.json", "--model", bundle, "--model-version", "Boxes 1",
                                             "--entity", "Owner", "--out", store])
        #expect(imported.status == 0, "\(imported.err)")
        // A sound store first: the lists come back in their order.
        let sound = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/sound.sqlite"])
        #expect(sound.status == 0, "\(sound.err)")
        let order = "SELECT i.ZLABEL FROM ZITEM i JOIN ZBOX b ON i.ZBOX = b.Z_PK ORDER BY b.ZTAG, i.Z_FOK_BOX"
        #expect(try storeRows(folder + "/sound.sqlite", order) == ["i1", "i2", "i3", "i4"])
        try SQLiteDatabase(path: store, mode: .readWrite).execute("""
            UPDATE ZBOX SET ZOWNER = NULL WHERE ZTAG = 'b1';
            UPDATE ZITEM SET Z_FOK_BOX = 1 WHERE ZLABEL = 'i4';
            """)
        let migrated = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/migrated.sqlite"])
        #expect(migrated.status == 1, "\(migrated.err)")
        #expect(migrated.out.contains("Item.box by source key: 2 of 4 links resolved, 2 records rejected (the relationship is required)"),
                "\(migrated.out)")
        #expect(try storeRows(folder + "/migrated.sqlite", order) == ["i4", "i3"])
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 1, "\(exported.err)")
        let restored = try FerryProcess.run(["restore", folder + "/export", "--model", bundle, "--out", folder + "/restored.sqlite"])
        #expect(restored.status == 1, "\(restored.err)")
        #expect(restored.err.contains("Item.box: 2 records not restored: their links found nothing and the relationship is required"),
                "\(restored.err)")
        #expect(try storeRows(folder + "/restored.sqlite", order) == ["i4", "i3"])
        #expect(try FerryProcess.run(["verify", folder + "/restored.sqlite", "--model", bundle]).status == 0)
    }

    /// A one-to-one whose sides disagree (page p2 names d1 as the doc it covers, while d1's
    /// cover is p1) is kept as the store held it, each side from its own column; the restored or
    /// migrated store then failed its own check for it, and nothing was written (exit 5).
    @Test("a one-to-one whose sides disagree is restored and migrated as the store held it, and named (exit 1)")
    func oneToOneSidesDisagree() throws {
        let folder = try TestPaths.temporaryFolder("damaged-one-to-one")
        let version = { (number: Int) in
            #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
                + #"<entity name="Doc" syncable="YES"><attribute name="name" attributeType="String"/>"#
                + #"<relationship name="cover" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Page" inverseName="coverOf" inverseEntity="Page"/></entity>"#
                + #"<entity name="Page" syncable="YES"><attribute name="title" attributeType="String"/>"#
                + (number > 1 ? #"<attribute name="note" optional="YES" attributeType="String"/>"# : "")
                + #"<relationship name="coverOf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Doc" inverseName="cover" inverseEntity="Doc"/></entity></model>"#
        }
        let bundle = try TestPaths.xcodeModelBundle("Covers", versions: [("Covers 1", version(1)), ("Covers 2", version(2))], in: folder)
        try #"[{"name": "d1", "cover": {"title": "p1"}}, {"name": "d2", "cover": {"title": "p2"}}]"#
            .write(toFile: folder + "/docs.json", atomically: true, encoding: .utf8)
        let store = folder + "/covers.sqlite"
        #expect(try FerryProcess.run(["import", folder + "/docs.json", "--model", bundle, "--model-version", "Covers 1", "--entity", "Doc",
                                      "--out", store]).status == 0)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("UPDATE ZPAGE SET ZCOVEROF = 1 WHERE ZTITLE = 'p2'")
        let sides = "SELECT d.ZNAME, p.ZTITLE, p.ZCOVEROF FROM ZDOC d JOIN ZPAGE p ON d.ZCOVER = p.Z_PK ORDER BY d.ZNAME"
        let held = try storeRows(store, sides)
        #expect(held == ["d1|p1|1", "d2|p2|1"])
        #expect(try FerryProcess.run(["export", store, "--out", folder + "/export"]).status == 1)
        let restored = try FerryProcess.run(["restore", folder + "/export", "--model", bundle, "--out", folder + "/restored.sqlite"])
        #expect(restored.status == 1, "\(restored.err)")
        #expect(restored.err.contains("inverse-mismatch"), "\(restored.err)")
        #expect(try storeRows(folder + "/restored.sqlite", sides) == held)
        let migrated = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/migrated.sqlite"])
        #expect(migrated.status == 1, "\(migrated.err)")
        #expect(migrated.err.contains("(migrated as its records say): inverse-mismatch"), "\(migrated.err)")
        #expect(try storeRows(folder + "/migrated.sqlite", sides) == held)
    }
}
