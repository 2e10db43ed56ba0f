import FerryModel
import FerryStore
import FerryTestSupport
@testable import FerryVerify
import FerryVerifyTestSupport
import Testing

/// Record fingerprints read straight from the columns (`RecordFingerprintScan`) must equal the
/// definition: records as `StoreRecordReader` gives them, added with `Fingerprint.add(_:attributes:)`.
@Suite("record fingerprints read straight from the columns")
struct VerifyFingerprintScanTests {
    /// Every attribute type with a column, a sub-entity, and a to-one to an entity with
    /// sub-entities (so its table has a `Z<n>_PARENT` column).
    static let model = ManagedObjectModel(name: "Kinds", entities: [
        Entity(name: "Thing", attributes: [
            Attribute(name: "small", type: .integer16), Attribute(name: "medium", type: .integer32),
            Attribute(name: "large", type: .integer64), Attribute(name: "flag", type: .boolean),
            Attribute(name: "ratio", type: .double), Attribute(name: "share", type: .float),
            Attribute(name: "when", type: .date), Attribute(name: "amount", type: .decimal),
            Attribute(name: "text", type: .string), Attribute(name: "link", type: .uri),
            Attribute(name: "data", type: .binary), Attribute(name: "object", type: .transformable),
            Attribute(name: "id", type: .uuid), Attribute(name: "photo", type: .binary, allowsExternalBinaryDataStorage: true),
        ], relationships: [
            Relationship(name: "parent", destinationEntity: "Thing", inverseName: "children"),
            Relationship(name: "children", destinationEntity: "Thing", inverseName: "parent", isToMany: true),
        ]),
        Entity(name: "Gadget", parentName: "Thing", attributes: [Attribute(name: "extra", type: .string)]),
    ])

    static let uuid: [UInt8] = Array(1...16)

    /// The values of row 2 (a Thing) and row 3 (a Gadget whose parent is row 2); row 1 is all NULL.
    static let thing: [String: AttributeValue] = [
        "small": .integer(7), "medium": .integer(-5), "large": .integer(1 << 40), "flag": .bool(true),
        "ratio": .double(-0.0), "share": .double(0.25), "when": .date(600_000_000), "amount": .decimal("12.5"),
        "text": .string("héllo 家"), "link": .uri("https://example.com/a"), "data": .binary([0, 1, 2]),
        "object": .binary([9]), "id": UUIDBytes(uuid).map(AttributeValue.uuid) ?? .null, "photo": .binary([5, 6, 7]),
    ]
    static let gadget: [String: AttributeValue] = ["text": .string("plain"), "amount": .decimal("7"), "extra": .string("more")]

    static func makeStore() throws -> String {
        let path = try TestPaths.temporaryFolder("verify-scan") + "/Kinds.sqlite"
        let store = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                   versionIdentifiers: [""])
        let thingNumber = try #require(try StoreLayout(model: model).entityNumbers["Thing"])
        func insert(_ entity: String, _ values: [String: StoreValue], parent: Int64? = nil) throws {
            let inserter = try store.inserter(for: entity)
            _ = try inserter.insert(inserter.columns.map { column in
                switch column.role {
                case .attribute(_, let name): values[name] ?? .null
                case .toOne: parent.map(StoreValue.integer) ?? .null
                case .toOneEntityNumber: parent == nil ? .null : .integer(Int64(thingNumber))
                default: .null
                }
            })
        }
        try insert("Thing", [:])
        try insert("Thing", [
            "small": .integer(7), "medium": .integer(-5), "large": .integer(1 << 40), "flag": .integer(1),
            "ratio": .real(-0.0), "share": .real(0.25), "when": .real(600_000_000), "amount": .real(12.5),
            "text": .text("héllo 家"), "link": .text("https://example.com/a"), "data": .blob([0, 1, 2]),
            "object": .blob([9]), "id": .blob(uuid), "photo": .blob(ExternalBinaryData.encode([5, 6, 7])),
        ])
        try insert("Gadget", ["text": .text("plain"), "amount": .integer(7), "extra": .text("more")], parent: 2)
        try store.finish()
        return path
    }

    /// The definition: records from the store reader, unreadable ones left out and counted, each
    /// tied to its `Z_PK` as the report's are (`RecordKeying.all`).
    static func byReader(_ path: String, _ entity: String) throws -> (fingerprint: Fingerprint, unreadable: Int) {
        let names = CanonicalEncoding.ordered(model.allAttributes(of: entity).map(\.name))
        let cursor = try CoreDataStoreReader(path: path).records(model: model).records(of: entity)
        var fingerprint = Fingerprint()
        var unreadable = 0
        while true {
            do {
                guard let record = try cursor.next() else { break }
                fingerprint.add(record.attributes, attributes: names, key: record.primaryKey)
            } catch {
                unreadable += 1
            }
        }
        return (fingerprint, unreadable)
    }

    /// The fast scan alone (nil when it hands the entity to the record reader), the rows `keying` names tied to their key.
    static func byScan(_ path: String, _ entity: String, keying: RecordKeying = .none) throws -> Fingerprint? {
        let connection = try ScanConnection(path: path, sampleLimit: 5)
        let context = StoreContext(model: model, layout: try StoreLayout(model: model), connection: connection)
        let names = CanonicalEncoding.ordered(model.allAttributes(of: entity).map(\.name))
        return RecordFingerprintScan(entity: entity, attributes: names, keying: keying, context: context)?.run(on: connection)
    }

    @Test("an intact store is read by the scan, and gives the fingerprints of the plain records")
    func intact() throws {
        let path = try Self.makeStore()
        let names = CanonicalEncoding.ordered(Self.model.allAttributes(of: "Thing").map(\.name))
        var things = Fingerprint(), keyedThings = Fingerprint(), someKeyed = Fingerprint()
        for (key, record) in zip(Int64(1)..., [[:], Self.thing, Self.gadget]) {
            things.add(record, attributes: names)
            keyedThings.add(record, attributes: names, key: key)
            someKeyed.add(record, attributes: names, key: key <= 2 ? key : nil)
        }
        var gadgets = Fingerprint(), keyedGadgets = Fingerprint()
        gadgets.add(Self.gadget, attributes: CanonicalEncoding.ordered(names + ["extra"]))
        keyedGadgets.add(Self.gadget, attributes: CanonicalEncoding.ordered(names + ["extra"]), key: 3)

        #expect(try Self.byScan(path, "Thing") == things)
        #expect(try Self.byScan(path, "Gadget") == gadgets)
        #expect(try Self.byScan(path, "Thing", keying: .all) == keyedThings)
        #expect(try Self.byScan(path, "Thing", keying: RecordKeying(through: 2)) == someKeyed)
        #expect(keyedThings != things && someKeyed != keyedThings)
        #expect(try Self.byReader(path, "Thing").fingerprint == keyedThings)
        let report = try StoreVerifier(path: path, model: .model(Self.model)).verify()
        #expect(report.passed, "\(report.failures)")
        #expect(report.fingerprint(of: "Thing") == keyedThings)
        #expect(report.fingerprint(of: "Gadget") == keyedGadgets)
    }

    @Test("values of other storage classes give the record reader's fingerprint and unreadable count", arguments: [
        ("real-in-integer", "UPDATE ZTHING SET ZSMALL = 3.5 WHERE Z_PK = 2", true),
        ("text-in-integer", "UPDATE ZTHING SET ZLARGE = 'x' WHERE Z_PK = 2", true),
        ("out-of-range", "UPDATE ZTHING SET ZSMALL = 40000 WHERE Z_PK = 2", true),
        ("boolean-2", "UPDATE ZTHING SET ZFLAG = 2 WHERE Z_PK = 2", true),
        ("blob-text", "UPDATE ZTHING SET ZTEXT = CAST('as blob' AS BLOB) WHERE Z_PK = 2", true),
        ("decimal-text", "UPDATE ZTHING SET ZAMOUNT = 'abc' WHERE Z_PK = 2", true),
        ("uuid-text", "UPDATE ZTHING SET ZID = '01234567-89AB-CDEF-0123-456789ABCDEF' WHERE Z_PK = 2", true),
        ("text-key", "UPDATE ZTHING SET ZPARENT = 'two' WHERE Z_PK = 3", true),
        ("sub-entity-attribute", "UPDATE ZTHING SET ZEXTRA = X'FF' WHERE Z_PK = 3", true),
        ("text-in-binary", "UPDATE ZTHING SET ZOBJECT = 'abc' WHERE Z_PK = 2", true),
        ("external-file", "UPDATE ZTHING SET ZPHOTO = X'02414243' || X'00' WHERE Z_PK = 2", true),
        ("unknown-tag", "UPDATE ZTHING SET ZPHOTO = X'0741' WHERE Z_PK = 2", true),
        ("text-in-tagged", "UPDATE ZTHING SET ZPHOTO = 'abc' WHERE Z_PK = 2", true),
        ("empty-tagged", "UPDATE ZTHING SET ZPHOTO = X'' WHERE Z_PK = 2", false),
        ("invalid-utf8", "UPDATE ZTHING SET ZTEXT = CAST(X'66FF6F' AS TEXT) WHERE Z_PK = 2", true),
        ("non-ascii-link", "UPDATE ZTHING SET ZLINK = 'https://例え.jp' WHERE Z_PK = 2", false),
    ])
    func odd(label: String, sql: String, fallsBack: Bool) throws {
        let path = try VerifyStores.broken(try Self.makeStore(), label, sql)
        let report = try StoreVerifier(path: path, model: .model(Self.model)).verify()
        for entity in ["Thing", "Gadget"] {
            let expected = try Self.byReader(path, entity)
            #expect(report.fingerprint(of: entity) == expected.fingerprint, "\(label) \(entity)")
            let unreadable = report.failures.first { $0.check == "unreadable-record" && $0.subject == entity }?.count ?? 0
            #expect(unreadable == Int64(expected.unreadable), "\(label) \(entity)")
        }
        let scanned = try Self.byScan(path, "Thing", keying: .all)
        #expect((scanned == nil) == fallsBack, "\(label)")
        if let scanned { #expect(scanned == (try Self.byReader(path, "Thing").fingerprint)) }
    }
}
