import Ferry
import FerryFormats
import FerryModel
import FerryPostgres
import FerryStore
import FerryTestSupport
import Foundation
import Testing

@Suite("store → PostgreSQL → store", .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
struct PostgresRoundTripTests {
    @Test("every record, value and pair comes back identical, with its Z_PK and the store's UUID")
    func garageRoundTrip() throws {
        let folder = try TestPaths.temporaryFolder("pg-roundtrip")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([store], into: uri)
        let report = try #require(summary.stores.first?.report, "\(summary.stores.first?.failure?.message ?? "")")
        #expect(report.databaseCounts == report.storeCounts)
        #expect(report.databaseCounts.entities == ["Car": 1, "Truck": 1, "Vehicle": 1, "Person": 2, "Licence": 1, "Part": 4, "Tag": 2, "Recall": 2])
        #expect(report.databaseCounts.relationships == ["Vehicle.owner": 2, "Part.vehicle": 4, "Truck.recalls": 2, "Person.licence": 1,
                                                         "Licence.holder": 1, "Tag.vehicles": 3])
        #expect(report.exactDates == 1)
        let restored = folder + "/Restored.sqlite"
        try PostgresTestSupport.restore(store, from: uri, model: model, to: restored)
        #expect(try ExportTestSupport.contents(of: store, modelPath: model) == ExportTestSupport.contents(of: restored, modelPath: model))
        #expect(try CoreDataStoreReader(path: restored).metadata.storeUUID == CoreDataStoreReader(path: store).metadata.storeUUID)
    }

    /// The `store` column's `uuid` type prints a UUID in lowercase, and the restore wrote it in
    /// uppercase: a store whose `Z_UUID` another tool spelled in lowercase came back as another
    /// store (its text is part of every object's URI). The catalog keeps the spelling.
    @Test("a store whose Z_UUID is in lowercase comes back spelled so; a catalog row without the spelling restores it in uppercase")
    func uuidSpelling() throws {
        let folder = try TestPaths.temporaryFolder("pg-uuid-spelling")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let edit = try SQLiteDatabase(path: store, mode: .readWrite)
        try edit.execute("UPDATE Z_METADATA SET Z_UUID = lower(Z_UUID)")
        try edit.close()
        let lowercase = try #require(try StoreUUIDSpellingTests.storedUUID(store))
        #expect(lowercase == lowercase.lowercased() && lowercase != lowercase.uppercased())
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([store], into: uri)
        #expect(summary.stores.first?.report != nil, "\(summary.stores.first?.failure?.message ?? "")")
        try PostgresTestSupport.restore(store, from: uri, model: model, to: folder + "/Restored.sqlite")
        #expect(try StoreUUIDSpellingTests.storedUUID(folder + "/Restored.sqlite") == lowercase)

        // As an older Ferry left the row.
        try PostgresTestSupport.query(uri, "UPDATE ferry.ferry_stores SET store_spelling = NULL")
        try PostgresTestSupport.restore(store, from: uri, model: model, to: folder + "/Older.sqlite")
        #expect(try StoreUUIDSpellingTests.storedUUID(folder + "/Older.sqlite") == lowercase.uppercased())
    }

    /// A restore from PostgreSQL wrote every value of a Binary attribute that allows external
    /// storage in its row, where the store kept some in its external data folder: the catalog
    /// now names them as a backup's manifest does, and the restore keeps them outside again.
    @Test("the values the store kept in its external data folder are kept there again, under the same names")
    func externalData() throws {
        let store = try ExternalBinaryVerbTests.makeStore("pg-external-data", external: true)
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([store], into: uri)
        #expect(summary.stores.first?.report != nil, "\(summary.stores.first?.failure?.message ?? "")")
        let output = FilePath.split(store).folder + "/Restored.sqlite"
        let uuid = try CoreDataStoreReader(path: store).metadata.storeUUID.value
        _ = try PostgresRestoreJob(target: ConnectionTarget(uri), storeUUID: uuid, model: .version(ExternalBinaryVerbTests.model, origin: "Photos"),
                                   outputPath: output).run()
        for table in ["ZPHOTO", "ZALBUM"] {
            #expect(try RestoreExternalDataTests.rows(table, of: output) == RestoreExternalDataTests.rows(table, of: store), "\(table)")
        }
        #expect(try TestPaths.read(ExternalDataFolder.path(besideStore: output) + "/" + ExternalBinaryVerbTests.fileName) == [7, 8, 9])
    }

    @Test("a restore reads through the record pipeline: reading the database, link resolution and verification (before the rename), each reported")
    func restorePhases() throws {
        let (model, store, uri) = try PostgresTestSupport.loadedGarage("pg-phases")
        let uuid = try CoreDataStoreReader(path: store).metadata.storeUUID.value
        var phases: [String] = []
        var totals: [Int?] = []
        let summary = try PostgresRestoreJob(target: ConnectionTarget(uri), storeUUID: uuid, model: .bundle(model),
                                             outputPath: store + ".restored").run { progress in
            if phases.last != progress.phase {
                phases.append(progress.phase)
                totals.append(progress.total)
            }
        }
        #expect(phases == ["reading \(try ConnectionTarget(uri)) schema ferry store \(uuid.uuidString)", "resolving links", "verifying"])
        #expect(totals.first == 14)
        #expect(summary.records == ["Car": 1, "Truck": 1, "Vehicle": 1, "Person": 2, "Licence": 1, "Part": 4, "Tag": 2, "Recall": 2])
        #expect(summary.counts.pairs == 13 && summary.links.allSatisfy { $0.unresolved == 0 })
    }

    @Test("columns are natively typed; the date finer than a microsecond is kept exactly beside its timestamptz")
    func columnTypes() throws {
        let folder = try TestPaths.temporaryFolder("pg-types")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let uri = try PostgresTestSupport.database()
        _ = try PostgresTestSupport.load([store], into: uri)
        let types = try PostgresTestSupport.query(uri, """
            SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'ferry' AND table_name = 'Vehicle'
            ORDER BY ordinal_position
            """).map { "\($0[0] ?? "") \($0[1] ?? "")" }
        #expect(types == ["store uuid", "z_pk bigint", "entity text", "built timestamp with time zone", "built_exact double precision",
                          "electric boolean", "manual text", "mileage bigint", "name text", "photo bytea", "price numeric", "ratio real",
                          "seats integer", "serial uuid", "weight double precision", "wheels smallint", "owner bigint", "doors smallint",
                          "payload double precision"])
        let car = try PostgresTestSupport.query(uri, """
            SELECT entity, mileage::text, price::text, built AT TIME ZONE 'UTC', built_exact, encode(photo, 'hex'), ratio::text
            FROM ferry."Vehicle" WHERE entity = 'Car'
            """)
        #expect(car == [["Car", "9007199254740993", "-12345.678900001", "2017-03-27 22:14:38.123457", "512345678.1234567", "000102ff00", "0.1"]])
        let plain = try PostgresTestSupport.query(uri, "SELECT built_exact FROM ferry.\"Vehicle\" WHERE entity = 'Truck'")
        #expect(plain == [[nil]])
        let parts = try PostgresTestSupport.query(uri, "SELECT label FROM ferry.\"Part\" WHERE vehicle IS NOT NULL ORDER BY vehicle, vehicle_position")
        #expect(parts.map { $0[0] } == ["seat", "wheel", "door", "mirror"])
    }

    @Test("a value no store holds, or a date whose exact seconds and timestamptz disagree, refuses the restore and fails verify --against",
          arguments: [
              ("UPDATE ferry.\"Vehicle\" SET built = '-infinity' WHERE entity = 'Truck'", "'-infinity', which no date holds"),
              ("UPDATE ferry.\"Vehicle\" SET built = 'infinity' WHERE entity = 'Truck'", "'infinity', which no date holds"),
              ("UPDATE ferry.\"Vehicle\" SET weight = 'NaN' WHERE entity = 'Truck'", "NaN, which a store cannot hold"),
              ("UPDATE ferry.\"Vehicle\" SET built = '1999-01-01' WHERE entity = 'Car'", "and the timestamptz beside it disagree"),
              ("UPDATE ferry.\"Vehicle\" SET built = NULL WHERE entity = 'Car'", "and the timestamptz beside it disagree"),
          ])
    func unrestorableValues(damage: String, reason: String) throws {
        let (model, store, uri) = try PostgresTestSupport.loadedGarage("pg-unrestorable")
        try PostgresTestSupport.query(uri, damage)
        let error = #expect(throws: (any Error).self) { try PostgresTestSupport.restore(store, from: uri, model: model, to: store + ".restored") }
        #expect("\(error.map { String(describing: $0) } ?? "")".contains(reason), "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: store + ".restored"))
        let verified = Result { try PostgresVerifyJob(target: ConnectionTarget(uri), againstPath: store).run() }
        if case .success(let report) = verified { #expect(!report.passed, "verify passed a schema the restore refuses") }
    }

    @Test("a date before 4713 BC, which PostgreSQL's timestamptz cannot hold, is refused by the load naming its row, not by the server")
    func dateBeforePostgresRange() throws {
        let folder = try TestPaths.temporaryFolder("pg-early-date")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("UPDATE ZVEHICLE SET ZBUILT = -300000000000 WHERE Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Truck')")
        try database.close()
        let summary = try PostgresTestSupport.load([store], into: try PostgresTestSupport.database())
        let message = summary.stores.first?.failure?.message ?? ""
        #expect(!summary.allLoaded && message.contains("outside what PostgreSQL's timestamptz holds (4713 BC to 294276 AD)"), "\(message)")
    }

    /// A helper column took the natural name of an attribute called so (`built_exact` Ferry's,
    /// the attribute `built_exact_2`), and someone querying the table read the wrong column.
    @Test("the model's attributes keep their names; Ferry's helper columns give way to one named like them")
    func helperColumnsGiveWay() throws {
        let model = ManagedObjectModel(name: "M", entities: [Entity(name: "Event", attributes: [
            Attribute(name: "when", type: .date, isOptional: true), Attribute(name: "when_exact", type: .string, isOptional: true),
        ])])
        let layout = try PostgresLayout(model: model)
        let table = try #require(layout.entityTables.first)
        #expect(table.column(.attribute(entity: "Event", name: "when_exact"))?.name == "when_exact")
        #expect(table.column(.exactDate(entity: "Event", name: "when"))?.name == "when_exact_2")
        #expect(table.column(.attribute(entity: "Event", name: "when"))?.name == "when")
    }

    @Test("delete rules become foreign key actions; uniqueness constraints unique indexes per store")
    func constraints() throws {
        let folder = try TestPaths.temporaryFolder("pg-constraints")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let uri = try PostgresTestSupport.database()
        _ = try PostgresTestSupport.load([store], into: uri)
        let keys = try PostgresTestSupport.query(uri, """
            SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint
            WHERE contype = 'f' AND connamespace = 'ferry'::regnamespace ORDER BY 1, 2
            """).map { "\($0[0] ?? ""): \($0[1] ?? "")" }
        let deferred = " DEFERRABLE INITIALLY DEFERRED"
        #expect(keys == [
            "ferry.\"Licence\": FOREIGN KEY (store, holder) REFERENCES ferry.\"Person\"(store, z_pk) ON DELETE CASCADE" + deferred,
            "ferry.\"Part\": FOREIGN KEY (store, vehicle) REFERENCES ferry.\"Vehicle\"(store, z_pk) ON DELETE CASCADE" + deferred,
            "ferry.\"Person\": FOREIGN KEY (store, licence) REFERENCES ferry.\"Licence\"(store, z_pk) ON DELETE SET NULL (licence)" + deferred,
            "ferry.\"Tag_vehicles\": FOREIGN KEY (store, destination) REFERENCES ferry.\"Vehicle\"(store, z_pk) ON DELETE CASCADE" + deferred,
            "ferry.\"Tag_vehicles\": FOREIGN KEY (store, source) REFERENCES ferry.\"Tag\"(store, z_pk) ON DELETE CASCADE" + deferred,
            "ferry.\"Truck_recalls\": FOREIGN KEY (store, destination) REFERENCES ferry.\"Recall\"(store, z_pk) ON DELETE CASCADE" + deferred,
            "ferry.\"Truck_recalls\": FOREIGN KEY (store, source) REFERENCES ferry.\"Vehicle\"(store, z_pk) ON DELETE RESTRICT" + deferred,
            "ferry.\"Vehicle\": FOREIGN KEY (store, owner) REFERENCES ferry.\"Person\"(store, z_pk) ON DELETE RESTRICT" + deferred,
        ])
        let indexes = try PostgresTestSupport.query(uri, "SELECT indexdef FROM pg_indexes WHERE schemaname = 'ferry' AND tablename = 'Vehicle' AND indexname NOT LIKE '%pkey' ORDER BY 1")
            .compactMap { $0[0] }
        #expect(indexes.count == 2)
        #expect(indexes.contains { $0.contains("(store, serial)") && !$0.contains("WHERE") })
        // Text goes into the index as its MD5: an index entry holds at most 2,704 bytes, and a store
        // with a longer unique String (which SQLite keeps unique) was refused.
        #expect(indexes.contains { $0.contains("(store, md5(name), doors) WHERE (entity = 'Car'::text)") }, "\(indexes)")
        let car = try PostgresTestSupport.query(uri, "SELECT store, name, doors FROM ferry.\"Vehicle\" WHERE entity = 'Car' LIMIT 1")
        let row = try #require(car.first)
        let duplicate = "INSERT INTO ferry.\"Vehicle\" (store, z_pk, entity, name, doors) VALUES ('\(row[0] ?? "")', 999, 'Car', "
            + "'\((row[1] ?? "").replacing("'", with: "''"))', \(row[2] ?? "NULL"))"
        let refused = try #require(throws: PostgresError.self) { try PostgresTestSupport.query(uri, duplicate) }
        #expect("\(refused)".contains("duplicate key"), "\(refused)")
        // Deny: a person who owns vehicles cannot go, nor a truck with recalls; Cascade: a car takes its parts along.
        #expect(throws: PostgresError.self) { try PostgresTestSupport.query(uri, "DELETE FROM ferry.\"Person\" WHERE name LIKE 'Ada%'") }
        #expect(throws: PostgresError.self) { try PostgresTestSupport.query(uri, "DELETE FROM ferry.\"Vehicle\" WHERE entity = 'Truck'") }
        try PostgresTestSupport.query(uri, "DELETE FROM ferry.\"Vehicle\" WHERE entity = 'Car'")
        #expect(try PostgresTestSupport.query(uri, "SELECT label FROM ferry.\"Part\"") == [["mirror"]])
    }

    /// Two valid stores were refused (exit 4): unique dates a tenth of a microsecond apart (the
    /// index saw the microsecond), and a unique String of 8,000 characters (past what an index
    /// entry holds).
    @Test("unique values SQLite keeps apart load: dates apart by less than a microsecond, texts longer than an index entry")
    func uniqueValuesPostgresWouldMerge() throws {
        let folder = try TestPaths.temporaryFolder("pg-unique-values")
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Event" syncable="YES"><attribute name="at" optional="YES" attributeType="Date"/>"#
            + #"<attribute name="text" optional="YES" attributeType="String"/><uniquenessConstraints><uniquenessConstraint>"#
            + #"<constraint value="at"/></uniquenessConstraint><uniquenessConstraint><constraint value="text"/></uniquenessConstraint>"#
            + "</uniquenessConstraints></entity></model>"
        let model = try TestPaths.xcodeModelBundle("Events", versions: [("Events 1", xml)], in: folder)
        let long = String(repeating: "写真abc", count: 2_000)
        try ("{\"at\": 1000.0000001, \"text\": \"a\"}\n{\"at\": 1000.0000002, \"text\": \"\(long)\"}\n"
            + "{\"at\": 1000.000001, \"text\": \"\(long)b\"}\n").write(toFile: folder + "/events.ndjson", atomically: true, encoding: .utf8)
        let store = folder + "/events.sqlite"
        let imported = try FerryProcess.run(["import", folder + "/events.ndjson", "--model", model, "--entity", "Event", "--out", store,
                                             "--date-epoch", "reference"])
        #expect(imported.status == 0, "\(imported.err)")
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([store], into: uri)
        let report = try #require(summary.stores.first?.report, "\(summary.stores.first?.failure?.message ?? "")")
        #expect(report.databaseCounts.rows == 3)
        // The same values again in one store are still refused by the index.
        let duplicate = "INSERT INTO ferry.\"Event\" (store, z_pk, entity, at, at_exact) SELECT store, 99, entity, at, at_exact "
            + "FROM ferry.\"Event\" WHERE z_pk = 1"
        let refused = try #require(throws: PostgresError.self) { try PostgresTestSupport.query(uri, duplicate) }
        #expect("\(refused)".contains("duplicate key"), "\(refused)")
        try PostgresTestSupport.restore(store, from: uri, model: model, to: folder + "/back.sqlite")
        #expect(try FerryProcess.run(["verify", folder + "/back.sqlite", "--against", store, "--model", model]).status == 0)
    }

    @Test("corpus stores (sub-entities, ordered relationships, WAL data) come back identical", .enabled(if: TestPaths.corpusAvailable),
          arguments: CorpusStores.withModels.map(\.store))
    func corpusRoundTrip(store relative: String) throws {
        let model = try #require(CorpusStores.withModels.first { $0.store == relative }?.model)
        let (store, modelPath) = (CorpusStores.coredata + "/" + relative, CorpusStores.coredata + "/" + model)
        let folder = try TestPaths.temporaryFolder("pg-corpus")
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([store], into: uri, model: modelPath)
        let report = try #require(summary.stores.first?.report, "\(summary.stores.first?.failure?.message ?? "")")
        #expect(report.storeCounts == report.databaseCounts)
        try PostgresTestSupport.restore(store, from: uri, model: modelPath, to: folder + "/Restored.sqlite")
        #expect(try ExportTestSupport.contents(of: store, modelPath: modelPath)
            == ExportTestSupport.contents(of: folder + "/Restored.sqlite", modelPath: modelPath))
    }
}
