import CSQLite
import FerryFormats
import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

@Suite struct CoreDataStoreWriterTests {
    static let entityNames = ["Car", "ExpensiveSportCar", "Person", "SportCar"]
    static let uuid = StoreUUID("A4832D9A-596A-48CD-A2AA-D1D3152E62A9") ?? StoreUUID()

    private func makeWriter(at path: String, batchSize: Int = 10_000) throws -> CoreDataStoreWriter {
        try CoreDataStoreWriter.create(
            at: path, model: Models.sampleModelV1, versionHashes: placeholderHashes(for: Self.entityNames),
            versionIdentifiers: ["1"], storeUUID: Self.uuid, batchSize: batchSize)
    }

    @Test func createdStoreHasTheLayoutBookkeepingAndPragmas() throws {
        let path = temporaryStorePath("empty")
        defer { removeStoreFiles(path) }
        let writer = try makeWriter(at: path)
        #expect(!FileManager.default.fileExists(atPath: path))
        try writer.finish()
        #expect(!FileManager.default.fileExists(atPath: writer.temporaryPath))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

        #expect(try SchemaSnapshot(path: path) == SchemaSnapshot(layout: try StoreLayout(model: Models.sampleModelV1)))
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try database.scalarInteger("PRAGMA page_size") == 4096)
        #expect(try database.scalarInteger("PRAGMA auto_vacuum") == 2)
        // WAL mode is persistent: the header's read and write format versions (bytes 18 and 19) are 2.
        let header = try TestPaths.read(path).prefix(20)
        #expect(header.suffix(2) == [2, 2])

        let keys = try database.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        var rows: [String] = []
        while try keys.step() {
            rows.append("\(keys.int64(at: 0)) \(keys.string(at: 1) ?? "?") \(keys.int64(at: 2)) \(keys.int64(at: 3))")
        }
        #expect(rows == ["1 Car 0 0", "2 SportCar 1 0", "3 ExpensiveSportCar 2 0", "4 Person 0 0"])

        let metadata = try database.prepare("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        #expect(try metadata.step())
        #expect(metadata.int64(at: 0) == 1)
        #expect(metadata.string(at: 1) == "A4832D9A-596A-48CD-A2AA-D1D3152E62A9")
        #expect(metadata.bytes(at: 2)?.starts(with: Array("bplist00".utf8)) == true)
        #expect(try !metadata.step())
        #expect(try database.scalarInteger("SELECT count(*) FROM Z_MODELCACHE") == 1)
    }

    @Test func bulkInsertSharesTheRootCounterAndCommitsInBatches() throws {
        let path = temporaryStorePath("bulk")
        defer { removeStoreFiles(path) }
        let writer = try makeWriter(at: path, batchSize: 4_000)
        let people = try writer.inserter(for: "Person")
        let cars = try writer.inserter(for: "Car")
        let sportCars = try writer.inserter(for: "ExpensiveSportCar")
        #expect(people.columns.map(\.name) == ["ZUPDATEDAT", "ZFIRSTNAME", "ZLASTNAME", "ZID"])
        #expect(cars.columns.map(\.name) == ["ZOWNER", "ZMARKEDFORDELETIONASOF", "ZMAKER", "ZMODEL", "ZNUMBERPLATE", "ZCOLOR"])
        #expect(sportCars.columns.map(\.name) == ["ZOWNER", "ZISLIMITEDEDITION", "ZMARKEDFORDELETIONASOF", "ZMAKER", "ZMODEL",
                                                   "ZNUMBERPLATE", "ZCOLOR"])
        let limited = try #require(sportCars.columnIndex(for: .attribute(entity: "ExpensiveSportCar", name: "isLimitedEdition")))
        let sportPlate = try #require(sportCars.columnIndex(named: "ZNUMBERPLATE"))
        let owner = try people.insert([.real(700_000_000), .text("Ada"), .utf8(Array("Lovelace".utf8)), .blob(Array(repeating: 7, count: 16))])
        #expect(owner == 1)
        var lastKey: Int64 = 0
        for row in 0..<25_000 {
            let plate = StoreValue.text("P-\(row)")
            if row % 5 == 0 {
                var values = [StoreValue](repeating: .null, count: sportCars.columns.count)
                values[0] = .integer(owner)
                values[limited] = .integer(1)
                values[sportPlate] = plate
                lastKey = try sportCars.insert(values)
            } else {
                lastKey = try cars.insert([.integer(owner), .real(Double(row)), .text("Maker"), .text("M"), plate, .blob([1, 2])])
            }
        }
        #expect(lastKey == 25_000)
        try writer.finish()

        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try database.scalarInteger("SELECT count(*) FROM ZCAR") == 25_000)
        #expect(try database.scalarInteger("SELECT count(*) FROM ZCAR WHERE Z_ENT = 3 AND ZISLIMITEDEDITION = 1") == 5_000)
        #expect(try database.scalarInteger("SELECT count(*) FROM ZCAR WHERE Z_OPT = 1 AND ZOWNER = 1") == 25_000)
        #expect(try database.scalarInteger("SELECT max(Z_PK) FROM ZCAR") == 25_000)
        #expect(try database.scalarInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Car'") == 25_000)
        #expect(try database.scalarInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'ExpensiveSportCar'") == 0)
        #expect(try database.scalarInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'") == 1)
        #expect(try database.scalarText("SELECT ZLASTNAME FROM ZPERSON") == "Lovelace")
    }

    @Test func rejectedRowsLeaveTheBatchUsable() throws {
        let path = temporaryStorePath("unique")
        defer { removeStoreFiles(path) }
        let writer = try makeWriter(at: path)
        let cars = try writer.inserter(for: "Car")
        let row: [StoreValue] = [.null, .null, .null, .null, .text("SAME"), .null]
        #expect(try cars.insert(row) == 1)
        let error = try #require(throws: StoreWriterError.self) { try cars.insert(row) }
        guard case .sqlite(let sqliteError) = error else { Issue.record("unexpected \(error)"); return }
        #expect(sqliteError.primaryCode == SQLITE_CONSTRAINT)
        #expect(try cars.insert([.null, .null, .null, .null, .text("OTHER"), .null]) == 2)
        try writer.finish()
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try database.scalarInteger("SELECT count(*) FROM ZCAR") == 2)
        #expect(try database.scalarInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") == 2)
    }

    @Test func misuseIsATypedError() throws {
        let path = temporaryStorePath("misuse")
        defer { removeStoreFiles(path) }
        let writer = try makeWriter(at: path)
        #expect(throws: StoreWriterError.unknownEntity("Boat")) { try writer.inserter(for: "Boat") }
        let cars = try writer.inserter(for: "Car")
        #expect(throws: StoreWriterError.valueCount(entity: "Car", expected: 6, got: 1)) { try cars.insert([.null]) }
        writer.discard()
        #expect(!FileManager.default.fileExists(atPath: writer.temporaryPath))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(throws: StoreWriterError.writerClosed(path: path)) { try cars.insert(Array(repeating: .null, count: 6)) }
    }

    @Test func versionHashesMustCoverTheModel() throws {
        let path = temporaryStorePath("hashes")
        var hashes = placeholderHashes(for: Self.entityNames)
        hashes["Person"] = [1, 2, 3]
        #expect(throws: StoreWriterError.versionHashMismatch(entity: "Person", reason: "3 bytes instead of 32")) {
            try CoreDataStoreWriter.create(at: path, model: Models.sampleModelV1, versionHashes: hashes, versionIdentifiers: [])
        }
        hashes["Person"] = nil
        #expect(throws: StoreWriterError.versionHashMismatch(entity: "Person", reason: "missing")) {
            try CoreDataStoreWriter.create(at: path, model: Models.sampleModelV1, versionHashes: hashes, versionIdentifiers: [])
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func metadataPlistHoldsTheCoreDataKeys() {
        let metadata = StoreMetadata(storeUUID: Self.uuid, versionHashes: ["Car": [UInt8](repeating: 9, count: 32)],
                                     versionIdentifiers: [""], hashesDigest: [0, 1, 2], checksum: [255])
        guard case .dictionary(let plist) = metadata.propertyList else { Issue.record("not a dictionary"); return }
        #expect(plist["NSStoreType"] == .string("SQLite"))
        #expect(plist["NSPersistenceFrameworkVersion"] == .integer(1344))
        #expect(plist["NSStoreModelVersionHashes"] == .dictionary(["Car": .data([UInt8](repeating: 9, count: 32))]))
        #expect(plist["NSStoreModelVersionHashesVersion"] == .integer(3))
        #expect(plist["NSStoreModelVersionIdentifiers"] == .array([.string("")]))
        #expect(plist["_NSAutoVacuumLevel"] == .string("2"))
        #expect(plist["NSStoreModelVersionHashesDigest"] == .string("AAEC"))
        #expect(plist["NSStoreModelVersionChecksumKey"] == .string("/w=="))
        #expect(plist["NSStoreUUID"] == nil)
        #expect(metadata.storeUUID.text == "A4832D9A-596A-48CD-A2AA-D1D3152E62A9")
        let bare = StoreMetadata(versionHashes: [:], versionIdentifiers: [])
        guard case .dictionary(let barePlist) = bare.propertyList else { Issue.record("not a dictionary"); return }
        #expect(barePlist["NSStoreModelVersionHashesDigest"] == nil && barePlist["NSStoreModelVersionChecksumKey"] == nil)
    }
}
