import Ferry
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A relationship whose inverse is a to-many (or none) in one version and a to-one in the next,
/// its pairs read from the side that gives each object one destination: the store's foreign-key
/// column of the other side, or a join table read as the list of the side that stays to-many.
/// An object the pairs give several destinations of the new to-one is refused, as a record that
/// lists several destinations of its own to-one is (exit 3, the same hint), in `plan` and
/// `migrate`; it used to be a claim by several kept last-wins, which the check of pairs against
/// the source store then failed (exit 5).
@Suite("a to-many that becomes a to-one")
struct ToManyBecomesToOneTests {
    /// `Owner` and `Pet`; `pets` names `Owner.pets` (to-many), `Owner.pet` (to-one, renamed from
    /// `pets`), or nil for neither (`Pet.owner` without an inverse).
    private static func ownerModel(_ pets: String?) -> String {
        let inverse = pets.map { #" inverseName="\#($0)" inverseEntity="Owner""# } ?? ""
        let owner = switch pets {
        case "pets": #"<relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>"#
        case "pet": #"<relationship name="pet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet" elementID="pets"/>"#
        default: ""
        }
        return #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Owner" syncable="YES"><attribute name="name" attributeType="String"/>\#(owner)</entity>"#
            + #"<entity name="Pet" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner"\#(inverse)/></entity>"#
            + "</model>"
    }

    /// A bundle of `V1` (`Owner.first`) and `V2` (`Owner.pet` ⇄ `Pet.owner`), and a `V1` store of
    /// `pets` and their owners (by name).
    private func ownerStore(_ name: String, first: String?, pets: [(pet: String, owner: String)]) throws -> (bundle: String, store: String) {
        let folder = try TestPaths.temporaryFolder(name)
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("V1", Self.ownerModel(first)), ("V2", Self.ownerModel("pet"))], in: folder)
        let store = folder + "/v1.sqlite"
        let owners = Set(pets.map(\.owner)).sorted().map { #"{"name": "\#($0)"}"# }
        try "[\(owners.joined(separator: ", "))]".write(toFile: folder + "/owners.json", atomically: true, encoding: .utf8)
        try "[\(pets.map { #"{"name": "\#($0.pet)", "owner": "\#($0.owner)"}"# }.joined(separator: ", "))]"
            .write(toFile: folder + "/pets.json", atomically: true, encoding: .utf8)
        for (file, entity, extra) in [("owners.json", "Owner", []), ("pets.json", "Pet", ["--link", "owner=name", "--append"])] {
            let run = try FerryProcess.run(["import", folder + "/" + file, "--model", bundle, "--model-version", "V1", "--entity", entity,
                                            "--out", store, "--quiet"] + extra)
            try #require(run.status == 0, "\(run.err)")
        }
        return (bundle, store)
    }

    /// `ferry plan` and `ferry migrate` (verified or not) of `store`: each exits 3 with `message`,
    /// and writes nothing.
    private func expectRefused(_ store: String, bundle: String, message: String) throws {
        let out = URL(fileURLWithPath: store).deletingLastPathComponent().appendingPathComponent("out.sqlite").path
        for arguments in [["plan", store, "--model", bundle], ["migrate", store, "--model", bundle, "--out", out],
                          ["migrate", store, "--model", bundle, "--out", out, "--no-verify"]] {
            let run = try FerryProcess.run(arguments)
            #expect(run.status == 3, "\(arguments[0]): \(run.out)\(run.err)")
            #expect(run.err.contains(message), "\(run.err)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test("Owner.pets become Owner.pet, its pairs read from Pet.owner's column: an owner of two pets is refused as a list of two is (it was last-wins, then exit 5)")
    func toManyBecomesToOneFromInverseColumn() throws {
        let (bundle, store) = try ownerStore("to-many-to-one-column", first: "pets",
                                             pets: [("rex", "alice"), ("tom", "alice"), ("fido", "bob")])
        try expectRefused(store, bundle: bundle, message: "Owner.pet: a to-one relationship takes one destination in the version written, "
            + "but 1 Owner is given several through its inverse Pet.owner (the records at \(store) Z_PK 1 and \(store) Z_PK 2 name one) "
            + "(was it a to-many?), and no rule chooses one: keep the relationship to-many, or drop its pairs with written rules "
            + "`pet <- nil` for Owner and `owner <- nil` for Pet")
    }

    @Test("Pet.owner without an inverse gains the to-one Owner.pet: an owner two pets name is refused the same way")
    func inverseGainedAsToOne() throws {
        let (bundle, store) = try ownerStore("no-inverse-to-one", first: nil, pets: [("rex", "alice"), ("tom", "alice"), ("fido", "bob")])
        try expectRefused(store, bundle: bundle, message: "Owner.pet: a to-one relationship takes one destination in the version written, "
            + "but 1 Owner is given several through its inverse Pet.owner")
    }

    @Test("Owner.pets become Owner.pet where every owner has one pet: migrated and verified, both sides filled")
    func toManyBecomesToOneWithOneEach() throws {
        let (bundle, store) = try ownerStore("to-many-to-one-single", first: "pets", pets: [("rex", "alice"), ("fido", "bob")])
        let out = URL(fileURLWithPath: store).deletingLastPathComponent().appendingPathComponent("v2.sqlite").path
        let run = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", out])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(try storeRows(out, "SELECT o.ZNAME, p.ZNAME, q.ZNAME FROM ZOWNER o JOIN ZPET p ON p.Z_PK = o.ZPET JOIN ZOWNER q ON q.Z_PK = p.ZOWNER ORDER BY 1")
                == ["alice|rex|alice", "bob|fido|bob"])
    }

    @Test("the rules the refusal names run: `pet <- nil` and `owner <- nil` drop the pairs, and the migration is verified (one alone read them from the other side)")
    func refusalHintRuns() throws {
        let (bundle, store) = try ownerStore("to-many-to-one-hint", first: "pets", pets: [("rex", "alice"), ("tom", "alice")])
        let folder = URL(fileURLWithPath: store).deletingLastPathComponent().path
        try "entity Owner\n  pet <- nil\nentity Pet\n  owner <- nil\n".write(toFile: folder + "/V1 to V2.mapping", atomically: true, encoding: .utf8)
        let run = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/v2.sqlite"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(try storeRows(folder + "/v2.sqlite", "SELECT count(ZPET) FROM ZOWNER UNION ALL SELECT count(ZOWNER) FROM ZPET") == ["0", "0"])
    }

    /// Version 2: `Person.pets` ⇄ `Pet.owners`, many-to-many (a join table the store reads as
    /// `Person.pets`); version 3: `Pet.owner`, a to-one renamed from `owners`.
    private static func manyModel(toOne: Bool) -> String {
        let pet = toOne
            ? #"<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="pets" inverseEntity="Person" elementID="owners"/>"#
            : #"<relationship name="owners" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>"#
        return #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Person" syncable="YES"><attribute name="fullName" attributeType="String"/>"#
            + #"<relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Pet" inverseName="\#(toOne ? "owner" : "owners")" inverseEntity="Pet"/></entity>"#
            + #"<entity name="Pet" syncable="YES"><attribute name="name" attributeType="String"/>\#(pet)</entity>"#
            + "</model>"
    }

    @Test("a many-to-many becomes one-to-many, its join table read as the list of the side that stays to-many: a pet of two owners is refused (it was exit 5)")
    func manyToManyBecomesOneToMany() throws {
        let folder = try TestPaths.temporaryFolder("many-to-many-to-one")
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("V2", Self.manyModel(toOne: false)), ("V3", Self.manyModel(toOne: true))],
                                                    in: folder)
        let store = folder + "/v2.sqlite"
        try #"[{"fullName": "alice"}, {"fullName": "bob"}]"#.write(toFile: folder + "/people.json", atomically: true, encoding: .utf8)
        try #"[{"name": "rex", "owners": ["alice", "bob"]}, {"name": "tom", "owners": ["alice"]}]"#
            .write(toFile: folder + "/pets.json", atomically: true, encoding: .utf8)
        for (file, entity, extra) in [("people.json", "Person", []), ("pets.json", "Pet", ["--link", "owners=fullName", "--append"])] {
            let run = try FerryProcess.run(["import", folder + "/" + file, "--model", bundle, "--model-version", "V2", "--entity", entity,
                                            "--out", store, "--quiet"] + extra)
            try #require(run.status == 0, "\(run.err)")
        }
        try expectRefused(store, bundle: bundle, message: "Pet.owner: a to-one relationship takes one destination in the version written, "
            + "but 1 Pet is given several through its inverse Person.pets (the records at \(store) Z_PK 1 and \(store) Z_PK 2 name one) "
            + "(was it a to-many?), and no rule chooses one: keep the relationship to-many, or drop its pairs with written rules "
            + "`owner <- nil` for Pet and `pets <- nil` for Person")
    }
}
