import Ferry
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// A source row whose `Z_ENT` names an abstract entity: `migrate` within one version refused it
/// (exit 3, from the writer), `export` counted it missing (exit 5), and `migrate` across versions
/// dropped it as filtered with its links (exit 0, verified). Every verb now refuses it the same
/// way, from the reader, naming the table, the row and its `Z_ENT` (exit 3).
@Suite("rows of an abstract entity")
struct AbstractEntityRowCommandTests {
    /// `Person` (abstract) with `Employee` and `Customer`, `Item.owner` ⇄ `Person.items`; version 2
    /// adds `Item.note`.
    private static func contents(version: Int) -> String {
        let note = version == 1 ? "" : #"<attribute name="note" optional="YES" attributeType="String"/>"#
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Item" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>\(note)
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="items" inverseEntity="Person"/>
                </entity>
                <entity name="Person" isAbstract="YES" syncable="YES">
                    <attribute name="pname" optional="YES" attributeType="String"/>
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
                </entity>
                <entity name="Employee" parentEntity="Person" syncable="YES">
                    <attribute name="salary" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                </entity>
                <entity name="Customer" parentEntity="Person" syncable="YES">
                    <attribute name="tier" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """
    }

    @Test("migrate across versions, migrate within one, and export refuse the store, naming the row")
    func refused() throws {
        let folder = try TestPaths.temporaryFolder("abstract-row-verbs")
        let bundle = try TestPaths.xcodeModelBundle("People", versions: [("People", Self.contents(version: 1)), ("People 2", Self.contents(version: 2))],
                                                    in: folder)
        let store = folder + "/people.sqlite"
        try #"[{"pname": "alice", "salary": 1}, {"pname": "bob", "salary": 2}]"#.write(toFile: folder + "/employees.json", atomically: true, encoding: .utf8)
        try #"[{"name": "a", "owner": "bob"}]"#.write(toFile: folder + "/items.json", atomically: true, encoding: .utf8)
        _ = try ImportJob(request: ImportRequest(sources: [folder + "/employees.json"], modelPath: bundle, modelVersion: "People", entity: "Employee",
                                                 outputPath: store)).run()
        _ = try ImportJob(request: ImportRequest(sources: [folder + "/items.json"], modelPath: bundle, modelVersion: "People", entity: "Item",
                                                 outputPath: store, existingStore: .append,
                                                 files: FileRecordSource(linkAttributes: ["owner": "pname"]))).run()
        // bob is stored as a Person, his salary cleared so that no column is left over.
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("UPDATE ZPERSON SET Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'), ZSALARY = NULL WHERE ZPNAME = 'bob'")
        let person = try #require(try database.scalarInteger("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'"))
        try database.close()
        let refusal = "table ZPERSON, row 2 (Z_PK): its Z_ENT \(person) is entity Person, which is abstract and cannot have rows"

        let across = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/people2.sqlite"])
        #expect(across.status == 3 && across.err.contains(refusal), "\(across.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/people2.sqlite"))
        let within = try FerryProcess.run(["migrate", store, "--model", bundle, "--model-version", "People", "--out", folder + "/same.sqlite"])
        #expect(within.status == 3 && within.err.contains(refusal), "\(within.err)")
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(exported.status == 3 && exported.err.contains(refusal), "\(exported.err)")
    }
}
