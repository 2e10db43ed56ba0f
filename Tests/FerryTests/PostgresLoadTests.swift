import Ferry
import FerryPostgres
import FerryStore
import FerryTestSupport
import FerryVerifyTestSupport
import Foundation
import Testing

@Suite("loading stores into PostgreSQL: whole or not at all", .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
struct PostgresLoadTests {
    @Test("a store loaded again is refused and left as it was; with replace its rows are replaced")
    func reload() throws {
        let folder = try TestPaths.temporaryFolder("pg-reload")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let uri = try PostgresTestSupport.database()
        #expect(try PostgresTestSupport.load([store], into: uri).allLoaded)
        let again = try PostgresTestSupport.load([store], into: uri)
        let failure = try #require(again.stores.first?.failure)
        #expect(failure.message.contains("already in schema ferry") && failure.isDestination && !again.allLoaded)
        #expect(again.stores.first?.outcome == "refused")
        #expect(try PostgresTestSupport.query(uri, "SELECT count(*) FROM ferry.\"Part\"") == [["4"]])
        let replaced = try PostgresTestSupport.load([store], into: uri, replace: true)
        #expect(replaced.allLoaded && replaced.stores.first?.outcome == "replaced")
        #expect(try PostgresTestSupport.query(uri, "SELECT count(*) FROM ferry.\"Part\"") == [["4"]])
        #expect(try PostgresTestSupport.query(uri, "SELECT count(*) FROM ferry.ferry_stores") == [["1"]])
    }

    @Test("two stores of one UUID in one run (two phones restored from one backup): the first is loaded, the other refused naming it, replace or not",
          arguments: [false, true])
    func sameUUIDTwice(replace: Bool) throws {
        let folder = try TestPaths.temporaryFolder("pg-same-uuid")
        let model = try PostgresTestSupport.garageModel()
        let first = try PostgresTestSupport.garageStore(at: folder + "/Phone1.sqlite", modelFolder: model)
        let second = folder + "/Phone2.sqlite"
        try FileManager.default.copyItem(atPath: first, toPath: second)
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([first, second], into: uri, replace: replace)
        #expect(summary.stores.map(\.outcome) == ["loaded", "refused"])
        let message = summary.stores.last?.failure?.message ?? ""
        #expect(message.contains("is also the UUID of \(first), loaded by this run"), "\(message)")
        #expect(summary.stores.last?.failure?.isDestination == false)
        #expect(try PostgresTestSupport.query(uri, "SELECT source FROM ferry.ferry_stores") == [[first]])
    }

    /// Found by a hostile run: a row of no entity that other rows point at failed the load with
    /// PostgreSQL's foreign-key error (exit 4), where the same row pointed at by nothing is the
    /// census's finding (exit 5).
    @Test("a row whose Z_ENT names no entity fails the load as the census's finding, whether other rows point at it or not")
    func strayRowPointedAt() throws {
        let summary = try PostgresTestSupport.loadEdited(
            "pg-stray", "UPDATE ZPERSON SET Z_ENT = 99 WHERE Z_PK = (SELECT ZOWNER FROM ZVEHICLE WHERE ZOWNER IS NOT NULL LIMIT 1)")
        let failure = summary.stores.first?.failure
        #expect(failure?.isVerification == true && failure?.message.contains("names no entity") == true, "\(failure?.message ?? "")")
    }

    /// Found by a hostile run: a row keyed below 1 loaded (exit 0), and no restore could read it back.
    @Test("a row keyed below 1 is refused by the load, naming it: no restore could bring it back")
    func keyBelowOneIsRefused() throws {
        let summary = try PostgresTestSupport.loadEdited("pg-key-zero", "UPDATE ZVEHICLE SET Z_PK = -5 WHERE ZNAME = 'cart'")
        let message = summary.stores.first?.failure?.message ?? ""
        #expect(!summary.allLoaded && message.contains("Z_PK -5") && message.contains("a key below 1"), "\(message)")
    }

    /// Found by a hostile run: the first store of a UUID failed, and the second, valid, was refused
    /// as "also the UUID of" the one that was never loaded.
    @Test("a store of a UUID whose first store in the run failed is loaded")
    func sameUUIDAfterAFailure() throws {
        let folder = try TestPaths.temporaryFolder("pg-same-uuid-failed")
        let model = try PostgresTestSupport.garageModel()
        let first = try PostgresTestSupport.garageStore(at: folder + "/Phone1.sqlite", modelFolder: model)
        let second = folder + "/Phone2.sqlite"
        try FileManager.default.copyItem(atPath: first, toPath: second)
        // Text PostgreSQL cannot hold: the first store is refused.
        let database = try SQLiteDatabase(path: first, mode: .readWrite)
        try database.execute("UPDATE ZVEHICLE SET ZNAME = 'a' || char(0) || 'b'")
        try database.close()
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([first, second], into: uri)
        #expect(summary.stores.map(\.outcome) == ["failed", "loaded"], "\(summary.stores.map { $0.failure?.message ?? "" })")
        #expect(try PostgresTestSupport.query(uri, "SELECT source FROM ferry.ferry_stores") == [[second]])
    }

    @Test("an ordered list whose order is not known (two parts at one order key) is refused by the load, and by a restore of such rows")
    func unknownOrderIsRefused() throws {
        let folder = try TestPaths.temporaryFolder("pg-order-keys")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let tied = try VerifyStores.broken(store, "tied", "UPDATE ZPART SET Z_FOK_VEHICLE = "
            + "(SELECT min(Z_FOK_VEHICLE) FROM ZPART p WHERE p.ZVEHICLE = ZPART.ZVEHICLE) WHERE ZVEHICLE IS NOT NULL")
        let uri = try PostgresTestSupport.database()
        let refused = try PostgresTestSupport.load([tied], into: uri)
        let message = refused.stores.first?.failure?.message ?? ""
        #expect(!refused.allLoaded && message.contains("share order key") && message.contains("so its order is not known"), "\(message)")
        #expect(try !PostgresTestSupport.holdsSchema(uri))
        #expect(try PostgresTestSupport.load([store], into: uri).allLoaded)
        try PostgresTestSupport.query(uri, "UPDATE ferry.\"Part\" SET vehicle_position = 1 WHERE vehicle IS NOT NULL")
        let error = #expect(throws: (any Error).self) { try PostgresTestSupport.restore(store, from: uri, model: model, to: folder + "/R.sqlite") }
        #expect(String(describing: error).contains("so its order is not known"), "\(String(describing: error))")
    }

    @Test("a value no record carries (a car's doors on a truck's row) refuses the load, as it refuses a file export")
    func strandedValuesAreRefused() throws {
        let folder = try TestPaths.temporaryFolder("pg-stranded")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let damaged = try VerifyStores.broken(store, "doors", "UPDATE ZVEHICLE SET ZDOORS = 4 WHERE ZPAYLOAD IS NOT NULL")
        let summary = try PostgresTestSupport.load([damaged], into: try PostgresTestSupport.database())
        let message = summary.stores.first?.failure?.message ?? ""
        #expect(!summary.allLoaded && message.contains("ZVEHICLE.ZDOORS: 1 value on rows of entities other than Car"), "\(message)")
    }

    @Test("an order position on a row without its to-one refuses the load, as it refuses a file export")
    func orderPositionWithoutToOneIsRefused() throws {
        let summary = try PostgresTestSupport.loadEdited("pg-stranded-position", "UPDATE ZPART SET ZVEHICLE = NULL WHERE ZLABEL = 'wheel'")
        let message = summary.stores.first?.failure?.message ?? ""
        #expect(!summary.allLoaded && message.contains("ZPART.Z_FOK_VEHICLE: 1 value on rows of Part whose vehicle is NULL"), "\(message)")
    }

    @Test("many stores share the tables; a store that fails keeps nothing and does not stop the others (--jobs 2)")
    func fleet() throws {
        let folder = try TestPaths.temporaryFolder("pg-fleet")
        let model = try PostgresTestSupport.garageModel()
        let stores = try (1...4).map { try PostgresTestSupport.garageStore(at: folder + "/Garage\($0).sqlite", modelFolder: model, seed: $0) }
        // A row whose Z_ENT names no entity: the reader skips it, the store's own count does not.
        let broken = try VerifyStores.broken(stores[2], "stray", "UPDATE ZPART SET Z_ENT = 99 WHERE Z_PK = 1")
        // A text PostgreSQL cannot hold: the load stops in the middle of its COPY.
        let nul = try PostgresTestSupport.garageStore(at: folder + "/Nul.sqlite", modelFolder: model, seed: 9, carName: "bad\u{0}name")
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([stores[0], broken, stores[1], nul, "/no/such/store.sqlite", stores[3]], into: uri, jobs: 2)
        #expect(summary.stores.map(\.storePath) == [stores[0], broken, stores[1], nul, "/no/such/store.sqlite", stores[3]])
        #expect(summary.stores.map(\.outcome) == ["loaded", "failed", "loaded", "failed", "failed", "loaded"])
        let verification = try #require(summary.stores[1].failure)
        #expect(verification.isVerification && verification.message.contains("Z_ENT 99"))
        let value = try #require(summary.stores[3].failure)
        #expect(!value.isVerification && !value.isDestination && value.message.contains("NUL"))
        #expect(try PostgresTestSupport.query(uri, "SELECT count(*) FROM ferry.ferry_stores") == [["3"]])
        for table in ["Vehicle", "Part", "Person", "Tag_vehicles", "Truck_recalls"] {
            let stored = try PostgresTestSupport.query(uri, "SELECT count(DISTINCT store) FROM ferry.\"\(table)\"")
            #expect(stored == [["3"]], "\(table)")
        }
        for store in [broken, nul] {
            let uuid = try CoreDataStoreReader(path: store).metadata.storeUUID.text
            #expect(try PostgresTestSupport.query(uri, "SELECT count(*) FROM ferry.\"Part\" WHERE store = $1", [uuid]) == [["0"]])
        }
        for store in [stores[0], stores[1], stores[3]] {
            let restored = store + ".restored"
            try PostgresTestSupport.restore(store, from: uri, model: model, to: restored)
            #expect(try ExportTestSupport.contents(of: store, modelPath: model) == ExportTestSupport.contents(of: restored, modelPath: model))
        }
    }

    @Test("one worker loads store after store on its connection: a store that fails mid-COPY or is refused leaves the next one whole")
    func oneWorker() throws {
        let folder = try TestPaths.temporaryFolder("pg-one-worker")
        let model = try PostgresTestSupport.garageModel()
        let stores = try (1...3).map { try PostgresTestSupport.garageStore(at: folder + "/Garage\($0).sqlite", modelFolder: model, seed: $0) }
        let nul = try PostgresTestSupport.garageStore(at: folder + "/Nul.sqlite", modelFolder: model, seed: 9, carName: "bad\u{0}name")
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([stores[0], nul, stores[1], stores[0], stores[2]], into: uri, jobs: 1)
        #expect(summary.stores.map(\.outcome) == ["loaded", "failed", "loaded", "refused", "loaded"])
        #expect(try PostgresTestSupport.query(uri, "SELECT count(*) FROM ferry.ferry_stores") == [["3"]])
        for store in stores {
            let restored = store + ".restored"
            try PostgresTestSupport.restore(store, from: uri, model: model, to: restored)
            #expect(try ExportTestSupport.contents(of: store, modelPath: model) == ExportTestSupport.contents(of: restored, modelPath: model))
        }
    }

    @Test("stores of two models cannot share a schema; each schema keeps its own tables")
    func otherModel() throws {
        let folder = try TestPaths.temporaryFolder("pg-models")
        let model = try PostgresTestSupport.garageModel()
        let garage = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let workspace = try ExportTestSupport.workspace2Store(folder)
        let uri = try PostgresTestSupport.database()
        let mixed = try PostgresTestSupport.load([garage, workspace], into: uri)
        #expect(mixed.stores.map(\.outcome) == ["loaded", "failed"])
        #expect(mixed.stores[1].failure?.message.contains("holds the tables of another model") == true)
        let apart = try PostgresTestSupport.load([workspace], into: uri, schema: "work space", model: ExportTestSupport.workspace)
        #expect(apart.allLoaded)
        try PostgresTestSupport.restore(workspace, from: uri, schema: "work space", model: ExportTestSupport.workspace, to: folder + "/W.sqlite")
        #expect(try ExportTestSupport.contents(of: workspace, modelPath: ExportTestSupport.workspace)
            == ExportTestSupport.contents(of: folder + "/W.sqlite", modelPath: ExportTestSupport.workspace))
    }

    @Test("a restore names a store the schema does not hold, and writes nothing")
    func notLoaded() throws {
        let folder = try TestPaths.temporaryFolder("pg-missing")
        let uri = try PostgresTestSupport.database()
        let error = try #require(throws: PostgresTransferError.self) {
            try PostgresRestoreJob(target: ConnectionTarget(uri), storeUUID: UUID(), model: .bundle(ExportTestSupport.workspace),
                                   outputPath: folder + "/Out.sqlite").run()
        }
        #expect(error.description.contains("holds no store") && !error.isDestinationFailure(loadingDatabase: false))
        #expect(error.description.hasSuffix("(it holds no stores)"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/Out.sqlite"))
        // A schema that holds stores names them, so that the right UUID can be given.
        let garage = try PostgresTestSupport.loadedGarage("pg-missing-named")
        let uuid = try CoreDataStoreReader(path: garage.store).metadata.storeUUID.text
        let named = try #require(throws: PostgresTransferError.self) {
            try PostgresRestoreJob(target: ConnectionTarget(garage.uri), storeUUID: UUID(), model: .bundle(garage.model),
                                   outputPath: folder + "/Out.sqlite").run()
        }
        #expect(named.description.contains("it holds 1 (give --store one of their UUIDs") && named.description.contains(uuid), "\(named)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/Out.sqlite"))
    }
}
