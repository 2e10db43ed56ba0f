import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A uniqueness constraint of an abstract entity spans its sub-entities. A Cat that duplicated a
/// stored Dog's name was "merged" into the Dog: the row stayed a Dog holding the Cat's values,
/// and the Cat was gone from its entity, with exit 0 and a store that verified.
@Suite("Duplicates of another entity's row")
struct DuplicateAcrossEntitiesTests {
    private static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Animal" isAbstract="YES" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Dog" parentEntity="Animal" syncable="YES">
                <attribute name="breed" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Cat" parentEntity="Animal" syncable="YES">
                <attribute name="lives" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            </entity>
        </model>
        """

    @Test("a record whose unique values a sibling entity's row holds is a reject under every duplicate policy, not a merge",
          arguments: ["keep-newest", "keep-first"])
    func rejectsAcrossSiblings(policy: String) throws {
        let folder = try TestPaths.temporaryFolder("duplicate-sibling")
        let bundle = try TestPaths.xcodeModelBundle("Animals", versions: [("Animals", Self.contents)], in: folder)
        try "name,breed\nrex,lab\nfido,pug\n".write(toFile: folder + "/dogs.csv", atomically: true, encoding: .utf8)
        try "name,lives\nrex,9\ntom,7\n".write(toFile: folder + "/cats.csv", atomically: true, encoding: .utf8)
        let store = folder + "/animals.sqlite"
        var run = try FerryProcess.run(["import", folder + "/dogs.csv", "--model", bundle, "--entity", "Dog", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        run = try FerryProcess.run(["import", folder + "/cats.csv", "--model", bundle, "--entity", "Cat", "--out", store, "--append",
                                    "--on-duplicate", policy])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("cats.csv:2: Cat: a Dog (Z_PK 1) already holds these values on unique (name); a Cat cannot be merged"),
                "\(run.err)")
        #expect(try storeRows(store, "SELECT ZNAME || '|' || coalesce(ZBREED, '') || '|' || coalesce(ZLIVES, '') FROM ZANIMAL ORDER BY Z_PK")
                == ["rex|lab|", "fido|pug|", "tom||7"])
    }
}
