import Ferry
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// The model's bounds (Xcode's Minimum and Maximum: a number's value, a string's length in
/// UTF-16 code units as `NSString` counts it) are what Core Data's validation refuses to save
/// beyond. `import` wrote such values with exit 0: an app could not save those objects. New
/// objects are now held to them (rejects naming the bound), `update` refuses them, and `verify`
/// notes stored values outside them (objects already stored keep them, as a migration carries
/// them), counted with plain SQL.
@Suite("the model's value bounds")
struct AttributeBoundsTests {
    private static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Member" syncable="YES">
                <attribute name="name" attributeType="String" minValueString="1" maxValueString="5"/>
                <attribute name="age" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="120" usesScalarValueType="YES"/>
                <attribute name="score" optional="YES" attributeType="Double" maxValueString="1.5" usesScalarValueType="YES"/>
                <attribute name="joined" optional="YES" attributeType="Date" minDateTimeInterval="599529600" usesScalarValueType="NO"/>
            </entity>
        </model>
        """

    /// A store imported from CSV rows `name,age,score`; the import's run.
    private func imported(_ rows: String, in folder: String) throws -> (store: String, bundle: String, run: FerryProcess.Result) {
        let bundle = try TestPaths.xcodeModelBundle("Members", versions: [("Members", Self.contents)], in: folder)
        try ("name,age,score,joined\n" + rows).write(toFile: folder + "/members.csv", atomically: true, encoding: .utf8)
        let store = folder + "/members.sqlite"
        let run = try FerryProcess.run(["import", folder + "/members.csv", "--model", bundle, "--entity", "Member", "--out", store])
        return (store, bundle, run)
    }

    @Test("import rejects values outside the bounds, naming the bound; lengths count UTF-16 code units")
    func importRejects() throws {
        let folder = try TestPaths.temporaryFolder("bounds-import")
        let (store, _, run) = try imported("ann,30,1.0,2020-01-01\nbob,-1,1.0,\ncarolina,30,1.0,\ndee,121,,\n😀😀😀,5,1,\nééééé,5,1,\neve,5,2.0,\n"
                                               + "fay,5,1,2019-12-31T23:59:59Z\n", in: folder)
        #expect(run.status == 1, "\(run.err)")
        for reason in ["Member.age: -1 is below the model's minimum of 0", "Member.name: its length 8 is above the model's maximum of 5",
                       "Member.age: 121 is above the model's maximum of 120", "Member.name: its length 6 is above the model's maximum of 5",
                       "Member.score: 2 is above the model's maximum of 1.5",
                       "Member.joined: 2019-12-31T23:59:59.000Z is below the model's minimum of 2020-01-01T00:00:00.000Z"] {
            #expect(run.err.contains(reason), "\(reason)\n\(run.err)")
        }
        #expect(try storeRows(store, "SELECT ZNAME FROM ZMEMBER ORDER BY Z_PK") == ["ann", "ééééé"])
    }

    @Test("verify notes stored values outside the bounds, counted with plain SQL, and still passes")
    func verifyNotes() throws {
        let folder = try TestPaths.temporaryFolder("bounds-verify")
        let (store, _, run) = try imported("ann,30,1.0,\nbea,40,1.0,\n", in: folder)
        #expect(run.status == 0, "\(run.err)")
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("UPDATE ZMEMBER SET ZAGE = 200 WHERE ZNAME = 'ann'; UPDATE ZMEMBER SET ZNAME = '😀😀😀' WHERE ZNAME = 'bea'")
        try database.close()
        let verified = try FerryProcess.run(["verify", store])
        #expect(verified.status == 0, "\(verified.out)\(verified.err)")
        let text = verified.out + verified.err
        #expect(text.contains("Member.age: 1 row(s) fail the model's validation"), "\(text)")
        #expect(text.contains("Member.name: 1 row(s) fail the model's validation"), "\(text)")
    }

    @Test("update refuses a value outside the bounds (exit 3), the store unchanged")
    func updateRefuses() throws {
        let folder = try TestPaths.temporaryFolder("bounds-update")
        let (store, _, run) = try imported("ann,30,1.0,\n", in: folder)
        #expect(run.status == 0, "\(run.err)")
        let before = try TestPaths.read(store)
        let update = try FerryProcess.run(["update", store, "--entity", "Member", "--where", "TRUEPREDICATE", "--set", "age=130"])
        #expect(update.status == 3 && update.err.contains("130 is above the model's maximum of 120"), "\(update.err)")
        #expect(try TestPaths.read(store) == before)
    }
}
