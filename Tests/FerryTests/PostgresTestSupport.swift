import Ferry
import FerryMigration
import FerryModel
import FerryPostgres
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// Stores and databases for the PostgreSQL tests: a "garage" model with every attribute type,
/// sub-entities, and every kind of relationship and delete rule, and stores of it.
enum PostgresTestSupport {
    /// Why the PostgreSQL tests are skipped, shown in the test report.
    static let skipReason = Comment(rawValue: PostgresTestServer.unavailableReason ?? "")

    /// Vehicle (root; Car and Truck below it) with one attribute of every type; Person owns
    /// vehicles (Deny) and has a one-to-one Licence (Cascade); a vehicle's ordered parts go with
    /// it (Cascade), its tags are many-to-many; a truck's recalls are a to-many without inverse (Deny).
    /// Serial numbers are unique, and a Car's (name, doors).
    static let garageXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Vehicle" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="wheels" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                <attribute name="seats" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                <attribute name="mileage" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                <attribute name="electric" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                <attribute name="price" optional="YES" attributeType="Decimal"/>
                <attribute name="weight" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="ratio" optional="YES" attributeType="Float" usesScalarValueType="YES"/>
                <attribute name="built" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="photo" optional="YES" attributeType="Binary"/>
                <attribute name="serial" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
                <attribute name="manual" optional="YES" attributeType="URI"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="vehicles" inverseEntity="Person"/>
                <relationship name="parts" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Part" inverseName="vehicle" inverseEntity="Part"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="vehicles" inverseEntity="Tag"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="serial"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Car" parentEntity="Vehicle" syncable="YES">
                <attribute name="doors" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="name"/>
                        <constraint value="doors"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Truck" parentEntity="Vehicle" syncable="YES">
                <attribute name="payload" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                <relationship name="recalls" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Recall"/>
            </entity>
            <entity name="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="vehicles" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Vehicle" inverseName="owner" inverseEntity="Vehicle"/>
                <relationship name="licence" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Licence" inverseName="holder" inverseEntity="Licence"/>
            </entity>
            <entity name="Licence" syncable="YES">
                <attribute name="number" optional="YES" attributeType="String"/>
                <relationship name="holder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="licence" inverseEntity="Person"/>
            </entity>
            <entity name="Part" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="vehicle" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Vehicle" inverseName="parts" inverseEntity="Vehicle"/>
            </entity>
            <entity name="Tag" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="vehicles" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Vehicle" inverseName="tags" inverseEntity="Vehicle"/>
            </entity>
            <entity name="Recall" syncable="YES">
                <attribute name="code" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// The garage model as an `.xcdatamodel` folder.
    static func garageModel() throws -> String {
        try TestPaths.xcodeModelFolder(garageXML, name: "Garage")
    }

    /// A garage store at `path`: 2 people (one with a licence), 3 vehicles (a car, a truck, a
    /// plain vehicle) with every attribute set on the car (a date finer than a microsecond, a
    /// 4-byte-exact Float), 4 ordered parts, 2 tags, 2 recalls. `seed` varies the names.
    @discardableResult
    static func garageStore(at path: String, modelFolder: String, seed: Int = 0, carName: String? = nil) throws -> String {
        let model = try #require(try XcodeModelLoader.loadBundle(at: modelFolder).versions.first)
        let writer = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                    versionIdentifiers: [""])
        let graph = StoreGraphWriter(writer: writer, model: model)
        func write(_ entity: String, _ key: String, _ pairs: [String: AttributeValue], links: [String: [String]] = [:]) throws {
            let schema = try #require(RecordSchema(model: model, entityName: entity))
            let record = Record(values: schema.attributes.map { pairs[$0.name] ?? .null }, location: SourceLocation(file: "garage"),
                                key: .text(key), links: links.map { RecordLink(relationship: $0.key, targets: $0.value.map { .key(.text($0)) }) })
            #expect(try graph.write(record, schema: schema, namespace: 0) == .inserted)
        }
        try write("Licence", "l1", ["number": .string("B-\(seed)")])
        try write("Person", "p1", ["name": .string("Ada \(seed)")], links: ["licence": ["l1"]])
        try write("Person", "p2", ["name": .string("Bo \(seed)")])
        for (key, label) in [("a", "wheel"), ("b", "door"), ("c", "seat"), ("d", "mirror")] {
            try write("Part", key, ["label": .string(label)])
        }
        try write("Tag", "t1", ["name": .string("red")])
        try write("Tag", "t2", ["name": .string("fast 🚗")])
        try write("Recall", "r1", ["code": .string("R-1")])
        try write("Recall", "r2", ["code": .string("R-2")])
        let serial = try #require(UUIDBytes((0..<16).map { UInt8($0 * 3 + seed) }))
        try write("Car", "car", [
            "name": .string(carName ?? "Zoë's car \(seed) 'quoted' \"too\""), "wheels": .integer(4), "seats": .integer(70_000),
            "mileage": .integer(9_007_199_254_740_993), "electric": .bool(true), "price": .decimal("-12345.678900001"),
            "weight": .double(1234.5678901234567), "ratio": .double(Double(Float(0.1))), "built": .date(512_345_678.123_456_7),
            "photo": .binary([0, 1, 2, 255, 0]), "serial": .uuid(serial), "manual": .uri("https://example.com/manual?a=1&b=2"),
            "doors": .integer(5),
        ], links: ["owner": ["p1"], "parts": ["c", "a", "b"], "tags": ["t1", "t2"]])
        try write("Truck", "truck", ["name": .string("hauler"), "payload": .double(12.5), "built": .date(0.5)],
                  links: ["owner": ["p1"], "parts": ["d"], "tags": ["t2"], "recalls": ["r1", "r2"]])
        try write("Vehicle", "plain", ["name": .string("cart"), "built": .date(-1_000_000.25)])
        for report in try graph.resolveLinks() { #expect(report.unresolved == 0, "\(report.relationship)") }
        try writer.finish()
        return path
    }

    /// A garage store (in a temporary folder named after `name`) loaded into the `ferry` schema
    /// of a fresh database: the model folder, the store and the database's URI.
    static func loadedGarage(_ name: String) throws -> (model: String, store: String, uri: String) {
        let folder = try TestPaths.temporaryFolder(name)
        let model = try garageModel()
        let store = try garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let uri = try database()
        let summary = try load([store], into: uri)
        try #require(summary.allLoaded, "\(summary.stores.first?.failure?.message ?? "")")
        return (model, store, uri)
    }

    /// A garage store (in a temporary folder named after `name`) changed by `sql`, as a hand or
    /// another program could have left it, then loaded into a fresh database.
    static func loadEdited(_ name: String, _ sql: String) throws -> PostgresExportSummary {
        let folder = try TestPaths.temporaryFolder(name)
        let store = try garageStore(at: folder + "/Garage.sqlite", modelFolder: try garageModel())
        let connection = try SQLiteDatabase(path: store, mode: .readWrite)
        try connection.execute(sql)
        try connection.close()
        return try load([store], into: try database())
    }

    /// A fresh database on the test server.
    static func database() throws -> String {
        try PostgresTestServer.running().database().uri
    }

    /// Runs SQL on a database (as postgres); every row's columns as text.
    @discardableResult
    static func query(_ uri: String, _ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        try PostgresConnection(ConnectionTarget(uri)).execute(sql, parameters)
    }

    /// Whether the database holds the schema: a first load that fails leaves none behind.
    static func holdsSchema(_ uri: String, _ schema: String = "ferry") throws -> Bool {
        try query(uri, "SELECT count(*) FROM pg_namespace WHERE nspname = $1", [schema]) == [["1"]]
    }

    /// Loads stores into a schema.
    static func load(_ stores: [String], into uri: String, schema: String = "ferry", model: String? = nil, jobs: Int = 1,
                     replace: Bool = false) throws -> PostgresExportSummary {
        PostgresExportJob(storePaths: stores, target: try ConnectionTarget(uri), schema: schema, modelPath: model, jobs: jobs,
                          replace: replace).run()
    }

    /// Rebuilds a store from a schema.
    @discardableResult
    static func restore(_ store: String, from uri: String, schema: String = "ferry", model: String, to path: String) throws -> PostgresRestoreJob.Summary {
        let uuid = try CoreDataStoreReader(path: store).metadata.storeUUID.value
        return try PostgresRestoreJob(target: ConnectionTarget(uri), schema: schema, storeUUID: uuid, model: .bundle(model), outputPath: path).run()
    }
}
