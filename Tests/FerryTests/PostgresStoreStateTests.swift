import Ferry
import FerryFormats
import FerryPostgres
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerifyTestSupport
import Foundation
import Testing

/// What identifies a store besides its records, through PostgreSQL: its UUID, each root's
/// `Z_MAX` and the application's own metadata keys; and what a load must refuse rather than
/// load a store it cannot give back.
@Suite("a store's identity and state through PostgreSQL", .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
struct PostgresStoreStateTests {
    static let maxima = "SELECT Z_NAME || '=' || Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0 ORDER BY Z_ENT"

    /// Adds `entries` to the store's metadata, as `NSPersistentStoreCoordinator.setMetadata` keeps them.
    static func addApplicationMetadata(_ entries: [String: PropertyListValue], to store: String) throws {
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        let read = try database.prepare("SELECT Z_PLIST FROM Z_METADATA")
        #expect(try read.step())
        guard case .dictionary(var plist) = try PropertyList.decode(read.bytes(at: 0) ?? []) else { Issue.record("no metadata"); return }
        read.finalize()
        plist.merge(entries) { $1 }
        let update = try database.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
        try update.bindBlob(try BinaryPropertyListWriter().encode(.dictionary(plist)), at: 1)
        try update.run()
        update.finalize()
        try database.close()
    }

    @Test("each root's Z_MAX (above the keys in use after deletes) and the application's metadata keys come back; verify compares them")
    func keepsStoreState() throws {
        let folder = try TestPaths.temporaryFolder("pg-store-state")
        let model = try PostgresTestSupport.garageModel()
        let plain = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let store = try VerifyStores.broken(plain, "deleted", "UPDATE Z_PRIMARYKEY SET Z_MAX = 40 WHERE Z_NAME = 'Part'; "
            + "UPDATE Z_PRIMARYKEY SET Z_MAX = 9 WHERE Z_NAME = 'Tag'")
        // A NaN among them is kept, and not a difference (it is not equal to itself).
        try Self.addApplicationMetadata(["ACAccountTypeVersion": .integer(42), "MyAppSchemaVersion": .string("v7"), "MyAppRatio": .real(.nan)],
                                        to: store)
        let uri = try PostgresTestSupport.database()
        #expect(try PostgresTestSupport.load([store], into: uri).allLoaded)
        let restored = folder + "/Restored.sqlite"
        let summary = try PostgresTestSupport.restore(store, from: uri, model: model, to: restored)
        #expect(summary.catalogRecordsState)
        #expect(try storeRows(restored, Self.maxima) == storeRows(store, Self.maxima))
        #expect(try storeRows(restored, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Part'") == ["40"])
        let entries = try CoreDataStoreReader(path: restored).metadata.applicationEntries
        #expect(entries["ACAccountTypeVersion"] == .integer(42) && entries["MyAppSchemaVersion"] == .string("v7"))
        let original = try CoreDataStoreReader(path: store).metadata.applicationEntries
        #expect(Set(entries.keys) == Set(original.keys) && entries.allSatisfy { PropertyListValue.sameKept($0.value, original[$0.key]) })
        #expect(entries["MyAppRatio"].map { if case .real(let ratio) = $0 { ratio.isNaN } else { false } } == true)
        #expect(try PostgresVerifyJob(target: ConnectionTarget(uri), againstPath: store).run().passed)
        // The same records and UUID without them: verify names what differs.
        let other = try PostgresVerifyJob(target: ConnectionTarget(uri), againstPath: plain).run()
        let failures = other.failures.map { "\($0.check) \($0.subject)" }
        #expect(Set(failures) == ["z-max Part", "z-max Tag", "metadata store"], "\(other.failures)")
        #expect(other.failures.first { $0.check == "metadata" }?.message.contains("ACAccountTypeVersion, MyAppRatio, MyAppSchemaVersion") == true)
    }

    @Test("a catalog an older Ferry made (no Z_MAX or metadata columns) is still restored as then, saying so; the next load adds the columns")
    func olderCatalog() throws {
        let (model, store, uri) = try PostgresTestSupport.loadedGarage("pg-older-catalog")
        try PostgresTestSupport.query(uri, "ALTER TABLE ferry.ferry_stores DROP COLUMN primary_key_maxima, DROP COLUMN application_metadata")
        let summary = try PostgresTestSupport.restore(store, from: uri, model: model, to: store + ".restored")
        #expect(!summary.catalogRecordsState)
        #expect(try storeRows(store + ".restored", Self.maxima) == storeRows(store, Self.maxima))
        let second = try PostgresTestSupport.garageStore(at: store + ".second.sqlite", modelFolder: model, seed: 1)
        #expect(try PostgresTestSupport.load([second], into: uri).allLoaded)
        #expect(try PostgresTestSupport.query(uri, "SELECT count(primary_key_maxima) FROM ferry.ferry_stores") == [["1"]])
        #expect(try PostgresTestSupport.restore(second, from: uri, model: model, to: second + ".restored").catalogRecordsState)
    }

    @Test("verify --store A --against B fails when B is another store (another UUID), however equal their records")
    func otherUUID() throws {
        let (_, store, uri) = try PostgresTestSupport.loadedGarage("pg-other-uuid")
        let other = try VerifyStores.broken(store, "other", "UPDATE Z_METADATA SET Z_UUID = '11111111-1111-1111-1111-111111111111'")
        let uuid = try CoreDataStoreReader(path: store).metadata.storeUUID.value
        let report = try PostgresVerifyJob(target: ConnectionTarget(uri), againstPath: other, storeUUID: uuid).run()
        #expect(!report.passed && report.failures.map(\.check) == ["uuid"], "\(report.failures)")
        #expect(report.failures.first?.message.contains("11111111-1111-1111-1111-111111111111") == true)
        #expect(try PostgresVerifyJob(target: ConnectionTarget(uri), againstPath: store, storeUUID: uuid).run().passed)
    }

    @Test("a Decimal no store keeps as it is (an integer past 2^53 in the column) refuses the load naming its row; nothing is loaded")
    func inexactDecimalIsRefused() throws {
        let folder = try TestPaths.temporaryFolder("pg-big-decimal")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let damaged = try VerifyStores.broken(store, "big", "UPDATE ZVEHICLE SET ZPRICE = 9223372036854775807 WHERE ZPAYLOAD IS NOT NULL")
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([damaged], into: uri)
        let message = summary.stores.first?.failure?.message ?? ""
        // The store reader refuses it first (the storage rule `verify` holds stores to).
        #expect(!summary.allLoaded && message.contains("table ZVEHICLE, row 2, column ZPRICE: Truck Z_PK 2, attribute price: integer 9223372036854775807 has no exact double"),
                "\(message)")
        #expect(try !PostgresTestSupport.holdsSchema(uri))
    }

    @Test("a row no reader reads (its Z_ENT names another root's entity) refuses the load, with or without --no-verify", arguments: [true, false])
    func rowOfAnotherRoot(verify: Bool) throws {
        let folder = try TestPaths.temporaryFolder("pg-other-root")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        let damaged = try VerifyStores.broken(store, "stray", "INSERT INTO ZVEHICLE (Z_PK, Z_ENT, Z_OPT) VALUES "
            + "(9, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'), 1); UPDATE Z_PRIMARYKEY SET Z_MAX = 9 WHERE Z_NAME = 'Vehicle'")
        let uri = try PostgresTestSupport.database()
        let summary = PostgresExportJob(storePaths: [damaged], target: try ConnectionTarget(uri), verify: verify).run()
        let failure = summary.stores.first?.failure
        #expect(failure?.isVerification == true && failure?.message.contains("entity Tag") == true, "\(failure?.message ?? "loaded")")
        #expect(try !PostgresTestSupport.holdsSchema(uri))
    }
}

extension PostgresStoreStateTests {
    @Test("a value only the database holds (a Car's doors on a Truck's row, a part's order position without its vehicle) refuses the restore naming its row, and fails verify",
          arguments: [
              ("UPDATE ferry.\"Vehicle\" SET doors = 3 WHERE entity = 'Truck'", "Truck Z_PK", "doors: a value in a column of Car"),
              ("UPDATE ferry.\"Part\" SET vehicle = NULL WHERE label = 'mirror'", "Part Z_PK", "vehicle_position: an order position with no vehicle"),
          ])
    func valuesOnlyTheDatabaseHolds(damage: String, row: String, reason: String) throws {
        let (model, store, uri) = try PostgresTestSupport.loadedGarage("pg-database-only")
        try PostgresTestSupport.query(uri, damage)
        let error = #expect(throws: PostgresTransferError.self) {
            try PostgresTestSupport.restore(store, from: uri, model: model, to: store + ".restored")
        }
        let message = error?.description ?? ""
        #expect(message.contains(row) && message.contains(reason) && message.contains("so a restore would drop it"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: store + ".restored"))
        let verified = Result { try PostgresVerifyJob(target: ConnectionTarget(uri), againstPath: store).run() }
        if case .success(let report) = verified { Issue.record("verify passed: \(report.passed)") }
    }
}
