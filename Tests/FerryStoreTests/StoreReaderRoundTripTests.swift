import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// A store written by `CoreDataStoreWriter` with every attribute type, inheritance and every kind
/// of relationship reads back exactly as written.
@Suite struct StoreReaderRoundTripTests {
    /// Owner=1, Pet=2, Tag=3, Thing=4 (abstract), Gadget=5, Widget=6.
    static let model = ManagedObjectModel(name: "RoundTrip", entities: [
        Entity(name: "Owner", attributes: [Attribute(name: "name", type: .string)], relationships: [
            Relationship(name: "pets", destinationEntity: "Pet", inverseName: "owner", isToMany: true),
            Relationship(name: "things", destinationEntity: "Thing", inverseName: "owner", isToMany: true, isOrdered: true),
            Relationship(name: "tags", destinationEntity: "Tag", inverseName: "owners", isToMany: true, isOrdered: true),
        ]),
        Entity(name: "Pet", attributes: [Attribute(name: "name", type: .string)], relationships: [
            Relationship(name: "owner", destinationEntity: "Owner", inverseName: "pets"),
            Relationship(name: "favorite", destinationEntity: "Thing", inverseName: "fans"),
        ]),
        Entity(name: "Tag", attributes: [Attribute(name: "label", type: .string)], relationships: [
            Relationship(name: "owners", destinationEntity: "Owner", inverseName: "tags", isToMany: true),
        ]),
        Entity(name: "Thing", isAbstract: true, attributes: [
            Attribute(name: "small", type: .integer16), Attribute(name: "medium", type: .integer32),
            Attribute(name: "large", type: .integer64), Attribute(name: "price", type: .decimal),
            Attribute(name: "ratio", type: .double), Attribute(name: "weight", type: .float),
            Attribute(name: "title", type: .string), Attribute(name: "flag", type: .boolean),
            Attribute(name: "when", type: .date), Attribute(name: "payload", type: .binary),
            Attribute(name: "identifier", type: .uuid), Attribute(name: "link", type: .uri),
            Attribute(name: "color", type: .transformable),
        ], relationships: [
            Relationship(name: "owner", destinationEntity: "Owner", inverseName: "things"),
            Relationship(name: "fans", destinationEntity: "Pet", inverseName: "favorite", isToMany: true),
        ]),
        Entity(name: "Gadget", parentName: "Thing", attributes: [Attribute(name: "gadgetName", type: .string)]),
        Entity(name: "Widget", parentName: "Thing", attributes: [Attribute(name: "size", type: .integer32)]),
    ])

    static let names = ["Owner", "Pet", "Tag", "Thing", "Gadget", "Widget"]

    /// Attribute values of Thing rows, every type, extremes and NULLs included.
    static let thingValues: [[String: AttributeValue]] = [
        ["small": .integer(32767), "medium": .integer(-2_147_483_648), "large": .integer(Int64.max), "price": .decimal("12.5"),
         "ratio": .double(0.1), "weight": .double(1.5), "title": .string("東京 – 北京 😀"), "flag": .bool(true),
         "when": .date(700_000_000.25), "payload": .binary([0, 1, 255]),
         "identifier": UUIDBytes(Array(0..<16)).map(AttributeValue.uuid) ?? .null,
         "link": .uri("https://example.com/a?b=c#d"), "color": .binary(Array("bplist00".utf8))],
        ["small": .integer(-32768), "medium": .integer(0), "large": .integer(Int64.min), "price": .decimal("-0.001"),
         "ratio": .double(-1e300), "weight": .double(0), "title": .string(""), "flag": .bool(false),
         "when": .date(-978_307_200), "payload": .binary([]), "identifier": .null, "link": .null, "color": .null],
        ["small": .null, "medium": .null, "large": .null, "price": .decimal("123456789"), "ratio": .null, "weight": .null,
         "title": .null, "flag": .null, "when": .null, "payload": .null, "identifier": .null, "link": .null, "color": .null],
    ]

    @Test func everyTypeAndRelationshipReadsBack() throws {
        #expect(Self.thingValues[0]["identifier"] != .null)
        let folder = try TestPaths.temporaryFolder("reader-roundtrip")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/store.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.model, versionHashes: placeholderHashes(for: Self.names),
                                                    versionIdentifiers: ["v1"])
        var expected: [String: [StoredRecord]] = [:]

        let owners = try writer.inserter(for: "Owner")
        for name in ["Ada", "Grace"] {
            let key = try owners.insert([.text(name)])
            expected["Owner", default: []].append(StoredRecord(primaryKey: key, entity: "Owner",
                                                               attributes: ["name": .string(name)], toOne: [:]))
        }
        // Things alternate Gadget and Widget; owner 1 holds them in order 2048, 3072, …
        var thingKeys: [(key: Int64, entity: String)] = []
        for (offset, values) in (Self.thingValues + Self.thingValues).enumerated() {
            let entity = offset.isMultiple(of: 2) ? "Gadget" : "Widget"
            let inserter = try writer.inserter(for: entity)
            var row = [StoreValue](repeating: .null, count: inserter.columns.count)
            var attributes = values
            for (name, value) in values {
                row[try #require(inserter.columnIndex(for: .attribute(entity: "Thing", name: name)))] = StoreValue(value, externallyStorable: false)
            }
            if entity == "Gadget" {
                row[try #require(inserter.columnIndex(for: .attribute(entity: "Gadget", name: "gadgetName")))] = .text("g\(offset)")
                attributes["gadgetName"] = .string("g\(offset)")
            } else {
                row[try #require(inserter.columnIndex(for: .attribute(entity: "Widget", name: "size")))] = .integer(Int64(offset))
                attributes["size"] = .integer(Int64(offset))
            }
            var toOne: [String: StoredReference] = [:]
            if offset < 4 {
                let order = Int64(2048 + 1024 * offset)
                row[try #require(inserter.columnIndex(for: .toOne(entity: "Thing", relationship: "owner")))] = .integer(1)
                row[try #require(inserter.columnIndex(for: .orderKey(entity: "Thing", relationship: "owner")))] = .integer(order)
                toOne["owner"] = StoredReference(primaryKey: 1, entity: "Owner", orderKey: order)
            }
            let key = try inserter.insert(row)
            thingKeys.append((key, entity))
            expected["Thing", default: []].append(StoredRecord(primaryKey: key, entity: entity, attributes: attributes, toOne: toOne))
        }

        let pets = try writer.inserter(for: "Pet")
        let ownerColumn = try #require(pets.columnIndex(for: .toOne(entity: "Pet", relationship: "owner")))
        let favoriteColumn = try #require(pets.columnIndex(for: .toOne(entity: "Pet", relationship: "favorite")))
        let favoriteEntity = try #require(pets.columnIndex(for: .toOneEntityNumber(entity: "Pet", relationship: "favorite")))
        #expect(pets.columns[favoriteEntity].name == "Z4_FAVORITE")
        for (offset, name) in ["Rex", "Tom", "Nemo"].enumerated() {
            var row = [StoreValue](repeating: .null, count: pets.columns.count)
            row[try #require(pets.columnIndex(for: .attribute(entity: "Pet", name: "name")))] = .text(name)
            var toOne: [String: StoredReference] = [:]
            if offset < 2 {
                row[ownerColumn] = .integer(Int64(offset + 1))
                toOne["owner"] = StoredReference(primaryKey: Int64(offset + 1), entity: "Owner")
                let favorite = thingKeys[offset + 1]
                row[favoriteColumn] = .integer(favorite.key)
                row[favoriteEntity] = .integer(favorite.entity == "Gadget" ? 5 : 6)
                toOne["favorite"] = StoredReference(primaryKey: favorite.key, entity: favorite.entity)
            }
            let key = try pets.insert(row)
            expected["Pet", default: []].append(StoredRecord(primaryKey: key, entity: "Pet", attributes: ["name": .string(name)],
                                                             toOne: toOne))
        }
        let tags = try writer.inserter(for: "Tag")
        for label in ["red", "green", "blue"] { _ = try tags.insert([.text(label)]) }
        try writer.finish()

        // Many-to-many pairs go in by plain SQL: the writer has no join inserter.
        let join = try #require(writer.layout.joinTables.first)
        #expect(join.name == "Z_1TAGS")
        #expect(join.columns.map(\.name) == ["Z_1OWNERS", "Z_3TAGS", "Z_FOK_3TAGS"])
        let pairs: [RelationshipEdge] = [.init(source: 1, destination: 3, order: 2048), .init(source: 1, destination: 1, order: 3072),
                                         .init(source: 2, destination: 2, order: 2048)]
        do {
            let database = try SQLiteDatabase(path: path, mode: .readWrite)
            let insert = try database.prepare("INSERT INTO Z_1TAGS (Z_1OWNERS, Z_3TAGS, Z_FOK_3TAGS) VALUES (?, ?, ?)")
            for pair in pairs {
                try insert.bind(pair.source, at: 1)
                try insert.bind(pair.destination, at: 2)
                try insert.bind(pair.order ?? 0, at: 3)
                try insert.run()
                try insert.reset()
            }
            insert.finalize()
            try database.close()
        }

        let store = try CoreDataStoreReader(path: path)
        #expect(store.metadata.versionIdentifiers == ["v1"])
        #expect(store.metadata.versionHashes == placeholderHashes(for: Self.names))
        #expect(store.metadata.frameworkVersion == StoreMetadata.defaultFrameworkVersion)
        let reader = try store.records(model: Self.model)
        for entity in ["Owner", "Thing", "Pet"] {
            let read = try collect(reader.records(of: entity))
            let want = try #require(expected[entity])
            #expect(read.count == want.count)
            for (got, wanted) in zip(read, want) { #expect(got == wanted) }
        }
        #expect(try collect(reader.records(of: "Widget")).map(\.entity) == ["Widget", "Widget", "Widget"])
        #expect(try reader.count(for: "Gadget") == 3)
        #expect(try reader.count(for: "Thing") == 6)
        #expect(try store.count(for: "Thing") == 6)

        #expect(try edges(reader, "pets", "Owner") == [.init(source: 1, destination: 1), .init(source: 2, destination: 2)])
        #expect(try edges(reader, "owner", "Pet") == [.init(source: 1, destination: 1), .init(source: 2, destination: 2)])
        let ordered = (0..<4).map { RelationshipEdge(source: 1, destination: thingKeys[$0].key, order: Int64(2048 + 1024 * $0)) }
        #expect(try edges(reader, "things", "Owner") == ordered)
        #expect(try edges(reader, "tags", "Owner") == [pairs[0], pairs[1], pairs[2]].sorted { ($0.source, $0.order ?? 0) < ($1.source, $1.order ?? 0) })
        #expect(Set(try edges(reader, "owners", "Tag")) == Set(pairs.map { RelationshipEdge(source: $0.destination, destination: $0.source) }))
        #expect(Set(try edges(reader, "fans", "Gadget") + edges(reader, "fans", "Widget")).count == 2)
        #expect(try edges(reader, "fans", "Thing").map(\.destination) == [1, 2])
    }

    private func collect(_ cursor: StoredRecordCursor) throws -> [StoredRecord] {
        var records: [StoredRecord] = []
        while let record = try cursor.next() { records.append(record) }
        return records
    }

    private func edges(_ reader: StoreRecordReader, _ relationship: String, _ entity: String) throws -> [RelationshipEdge] {
        let cursor = try reader.edges(of: relationship, of: entity)
        var edges: [RelationshipEdge] = []
        while let edge = try cursor.next() { edges.append(edge) }
        return edges
    }
}
