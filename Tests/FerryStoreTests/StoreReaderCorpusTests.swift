import FerryModel
import FerryStore
import FerryTestSupport
import Testing

/// Every corpus store with a known model, read through that model and compared with hand-written SQL.
@Suite("store reader on corpus stores", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct StoreReaderCorpusTests {
    /// Whether a read value has the type the attribute declares.
    private func matches(_ value: AttributeValue, _ type: AttributeType) -> Bool {
        switch (value, type) {
        case (.null, _): true
        case (.integer, .integer16), (.integer, .integer32), (.integer, .integer64): true
        case (.bool, .boolean), (.double, .double), (.double, .float), (.decimal, .decimal), (.string, .string): true
        case (.date, .date), (.binary, .binary), (.binary, .transformable), (.uuid, .uuid), (.uri, .uri): true
        default: false
        }
    }

    @Test("every entity streams: counts, value types, Z_MAX, to-one keys", arguments: CorpusStores.withModels.map(\.store))
    func everyEntity(store: String) throws {
        let modelPath = try #require(CorpusStores.withModels.first { $0.store == store }?.model)
        let model = try XcodeModelLoader.loadModel(at: CorpusStores.path(modelPath))
        let reader = try CoreDataStoreReader(path: CorpusStores.path(store))
        #expect(reader.metadata.storeType == "SQLite")
        #expect(reader.metadata.versionHashes.keys.sorted() == model.entities.map(\.name).sorted())
        let records = try reader.records(model: model)
        let hand = try SQLiteDatabase(path: CorpusStores.path(store), mode: .readOnly)
        var maxKeyByRoot: [String: Int64] = [:]
        var total: Int64 = 0
        for entity in model.entities {
            let table = try #require(records.layout.table(forEntity: entity.name))
            let numbers = model.hierarchy(below: entity.name).compactMap { records.layout.entityNumbers[$0.name] }
            let expected = try hand.scalarInteger(
                "SELECT count(*) FROM \(table.name) WHERE Z_ENT IN (\(numbers.map(String.init).joined(separator: ",")))")
            let cursor = try records.records(of: entity.name)
            var count: Int64 = 0
            var lastKey: Int64 = 0
            while let record = try cursor.next() {
                count += 1
                #expect(record.primaryKey > lastKey, "\(store) \(entity.name): keys ascend")
                lastKey = record.primaryKey
                let concrete = model.allAttributes(of: record.entity).filter { !$0.isTransient }
                #expect(record.attributes.count == concrete.count)
                for attribute in concrete {
                    let value = try #require(record.attributes[attribute.name], "\(entity.name).\(attribute.name)")
                    #expect(matches(value, attribute.type), "\(store) \(record.entity).\(attribute.name): \(value)")
                }
                for (name, reference) in record.toOne {
                    #expect(reference.primaryKey > 0, "\(store) \(record.entity).\(name)")
                    #expect(model.entity(named: reference.entity) != nil)
                }
                let root = try #require(model.rootEntity(of: record.entity)).name
                maxKeyByRoot[root] = max(maxKeyByRoot[root] ?? 0, record.primaryKey)
            }
            #expect(count == expected, "\(store) \(entity.name)")
            total += count
            #expect(try records.count(for: entity.name) == expected)
        }
        #expect(total > 0 || store.hasSuffix("_empty.sqlite"), "\(store): no rows read")
        for (root, maxKey) in maxKeyByRoot {
            let number = try #require(records.layout.entityNumbers[root])
            let entry = try #require(reader.primaryKeys.first { $0.entityNumber == Int64(number) })
            #expect(entry.maxPrimaryKey >= maxKey, "\(store) \(root): Z_MAX \(entry.maxPrimaryKey) < \(maxKey)")
        }
    }

    @Test("to-one foreign keys read as the destination's key")
    func toOneKeys() throws {
        let (store, modelPath) = CorpusStores.withModels[2]
        let model = try XcodeModelLoader.loadModel(at: CorpusStores.path(modelPath))
        let records = try CoreDataStoreReader(path: CorpusStores.path(store)).records(model: model)
        let hand = try SQLiteDatabase(path: CorpusStores.path(store), mode: .readOnly)
        let cursor = try records.records(of: "Post")
        var linked = 0
        while let post = try cursor.next() {
            let expected = try hand.scalarInteger("SELECT ZCOLOR FROM ZPOST WHERE Z_PK = \(post.primaryKey)")
            #expect(post.toOne["color"]?.primaryKey == expected)
            #expect(post.toOne["color"].map(\.entity) ?? "Color" == "Color")
            if expected != nil { linked += 1 }
        }
        #expect(linked > 0)
        var edges = 0
        let colorEdges = try records.edges(of: "color", of: "Post")
        while let edge = try colorEdges.next() {
            #expect(try hand.scalarInteger("SELECT ZCOLOR FROM ZPOST WHERE Z_PK = \(edge.source)") == edge.destination)
            edges += 1
        }
        #expect(edges == linked)
    }

    @Test("XCServerCoreData 2.0.1 many-to-many edges equal the join tables")
    func manyToManyEdges() throws {
        let (store, modelPath) = CorpusStores.xcServer201
        let model = try XcodeModelLoader.loadModel(at: CorpusStores.path(modelPath))
        let records = try CoreDataStoreReader(path: CorpusStores.path(store)).records(model: model)
        let hand = try SQLiteDatabase(path: CorpusStores.path(store), mode: .readOnly)
        let cases: [(entity: String, relationship: String, inverseEntity: String, inverse: String, sql: String)] = [
            ("Configuration", "repositories", "Repository", "configurations",
             "SELECT Z_8CONFIGURATIONS, Z_18REPOSITORIES FROM Z_8REPOSITORIES"),
            ("Device", "integrations", "Integration", "testedDevices", "SELECT Z_9TESTEDDEVICES, Z_13INTEGRATIONS FROM Z_9INTEGRATIONS"),
            ("Device", "deviceSpecifications", "DeviceSpecification", "devices",
             "SELECT Z_9DEVICES, Z_10DEVICESPECIFICATIONS FROM Z_9DEVICESPECIFICATIONS"),
        ]
        for item in cases {
            var expected: Set<RelationshipEdge> = []
            let rows = try hand.prepare(item.sql)
            while try rows.step() { expected.insert(RelationshipEdge(source: rows.int64(at: 0), destination: rows.int64(at: 1))) }
            #expect(!expected.isEmpty)
            let forward = try collect(records.edges(of: item.relationship, of: item.entity))
            #expect(forward.count == expected.count, "\(item.entity).\(item.relationship)")
            #expect(Set(forward) == expected)
            let backward = try collect(records.edges(of: item.inverse, of: item.inverseEntity))
            #expect(Set(backward.map { RelationshipEdge(source: $0.destination, destination: $0.source) }) == expected)
        }
    }

    @Test("a store whose rows are only in its -wal is read with them")
    func walRows() throws {
        let (store, modelPath) = CorpusStores.walStore
        let model = try XcodeModelLoader.loadModel(at: CorpusStores.path(modelPath))
        let records = try CoreDataStoreReader(path: CorpusStores.path(store)).records(model: model)
        let cursor = try records.records(of: "Post")
        var posts = 0
        while try cursor.next() != nil { posts += 1 }
        #expect(posts > 0)
        #expect(Int64(posts) == (try records.count(for: "Post")))
    }

    @Test("metadata, primary keys and schema of a store")
    func storeDescription() throws {
        let reader = try CoreDataStoreReader(path: CorpusStores.path(CorpusStores.xcServer201.store))
        #expect(reader.metadata.frameworkVersion ?? 0 > 0)
        #expect(reader.metadata.versionHashes.values.allSatisfy { $0.count == 32 })
        #expect(reader.primaryKeys.count == 23)
        #expect(reader.primaryKeyEntry(named: "Device")?.entityNumber == 9)
        let join = try #require(reader.schema.table(named: "Z_8REPOSITORIES"))
        #expect(join.columns.map(\.name) == ["Z_8CONFIGURATIONS", "Z_18REPOSITORIES"])
        #expect(join.columns.map(\.primaryKeyPosition) == [1, 2])
        let index = try #require(reader.schema.indexes.first { $0.name == "Z_8REPOSITORIES_Z_18REPOSITORIES_INDEX" })
        #expect(index.columns == ["Z_18REPOSITORIES", "Z_8CONFIGURATIONS"])
        let hand = try SQLiteDatabase(path: CorpusStores.path(CorpusStores.xcServer201.store), mode: .readOnly)
        #expect(try reader.count(for: "Integration") == hand.scalarInteger("SELECT count(*) FROM ZINTEGRATION"))
    }

    private func collect(_ cursor: RelationshipEdgeCursor) throws -> [RelationshipEdge] {
        var edges: [RelationshipEdge] = []
        while let edge = try cursor.next() { edges.append(edge) }
        return edges
    }
}
