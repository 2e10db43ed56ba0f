@testable import Ferry
import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// Every row of a source store is accounted for by a count that does not trust the reader
/// (`StoreCensus`: plain SQL per table and `Z_ENT`); a store whose rows the reader cannot all
/// deliver fails the job before anything is written.
@Suite("source stores: every row accounted for independently")
struct SourceAccountingTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    /// A Workspace 2 store of the flagship's uploads.
    private func uploadStore(_ folder: String) throws -> String {
        let path = folder + "/uploads.sqlite"
        let summary = try ImportJob(request: ImportRequest(
            sources: [TestPaths.fixtures + "/legacy/uploads.csv"], modelPath: workspace, modelVersion: "Workspace 2",
            entity: "Upload", outputPath: path)).run()
        #expect(summary.written > 0)
        return path
    }

    private func migrate(_ store: String, into out: String) throws -> MigrationSummary {
        var request = MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: workspace, outputPath: out)
        request.variables = ["zone": "UTC"]
        return try MigrateJob(request: request).run()
    }

    @Test("the census counts each entity's rows by Z_ENT and finds rows of no entity")
    func census() throws {
        let folder = try TestPaths.temporaryFolder("census")
        let store = try uploadStore(folder)
        let clean = try StoreCensus(path: store)
        let uploads = try #require(clean.appEntities.first { $0.name == "Upload" })
        let rows = try SQLiteDatabase(path: store, mode: .readOnly).scalarInteger("SELECT count(*) FROM ZUPLOAD")
        #expect(uploads.rows == rows && uploads.rows > 0)
        #expect(clean.strays.isEmpty)
        #expect(clean.discrepancies(delivered: [uploads.number: uploads.rows]).isEmpty)
        #expect(clean.discrepancies(delivered: [uploads.number: uploads.rows - 1]).count == 1)

        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("INSERT INTO ZUPLOAD (Z_PK, Z_ENT, Z_OPT) VALUES (9001, 42, 1), (9002, 42, 1), (9003, 42, 1)")
        try database.close()
        let dirty = try StoreCensus(path: store)
        #expect(dirty.strays.map { "\($0.table) \($0.entityNumber) \($0.rows)" } == ["ZUPLOAD 42 3"])
        #expect(dirty.discrepancies(delivered: [uploads.number: uploads.rows]).first?.contains("Z_ENT 42") == true)
    }

    @Test("a census begun beside a read counts what the reader's own connection counts, live stores at once")
    func censusBesideRead() throws {
        let folder = try TestPaths.temporaryFolder("census-work")
        let store = try uploadStore(folder)
        let alone = try CoreDataStoreReader(path: store)
        _ = try alone.beginRead()
        #expect(try alone.startCensus().wait() == alone.census())
        // A live WAL store: a second connection might see a later commit, so it is counted here.
        let writer = try SQLiteDatabase(path: store, mode: .readWrite)
        try writer.execute("PRAGMA journal_mode=WAL")
        let live = try CoreDataStoreReader(path: store)
        _ = try live.beginRead()
        let work = live.startCensus()
        #expect(work.countedSoFar != nil)
        try writer.execute("INSERT INTO ZUPLOAD (Z_PK, Z_ENT, Z_OPT) VALUES (9001, 42, 1)")
        #expect(try work.wait() == live.census())
        #expect(try work.wait().strays.isEmpty)
    }

    @Test("migrate refuses a store with rows of an unknown Z_ENT, naming table, Z_ENT and count, and writes nothing")
    func strayRowsFailMigration() throws {
        let folder = try TestPaths.temporaryFolder("stray")
        let store = try uploadStore(folder)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("INSERT INTO ZUPLOAD (Z_PK, Z_ENT, Z_OPT) VALUES (9001, 42, 1), (9002, 42, 1), (9003, 42, 1)")
        try database.close()
        let out = folder + "/out.sqlite"
        do {
            _ = try migrate(store, into: out)
            Issue.record("the migration passed with three rows of no entity")
        } catch let MigrateError.notAccounted(source, problems) {
            #expect(source == store)
            #expect(problems == ["table ZUPLOAD: 3 rows with Z_ENT 42, which names no entity in Z_PRIMARYKEY"])
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("export and backup refuse a store with rows of an unknown Z_ENT and keep no file")
    func strayRowsFailExport() throws {
        let folder = try TestPaths.temporaryFolder("stray-export")
        let store = try uploadStore(folder)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("INSERT INTO ZUPLOAD (Z_PK, Z_ENT, Z_OPT) VALUES (9001, 42, 1), (9002, 42, 1), (9003, 42, 1)")
        try database.close()
        let out = folder + "/export"
        let error = try #require(throws: ExportError.self) {
            try ExportJob(request: ExportRequest(storePath: store, outputFolder: out, format: .ndjson)).run()
        }
        #expect(error.isVerificationFailure && error.description.contains("3 rows with Z_ENT 42"))
        // Built aside: neither the folder nor its temporary twin is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("export") }.isEmpty)
        #expect(throws: ExportError.self) { try BackupJob(storePath: store, folder: folder + "/backups").run() }
        // A first backup refused: not even its folder is made.
        #expect(!FileManager.default.fileExists(atPath: folder + "/backups"))
    }

    @Test("inspect shows both figures where reader and plain SQL differ, and rows of no entity")
    func inspectNamesDifferences() throws {
        let folder = try TestPaths.temporaryFolder("inspect-stray")
        let store = try uploadStore(folder)
        let clean = try StoreReport(path: store, bundlePath: nil)
        #expect(clean.discrepancies.isEmpty && clean.plainSQLCounts?["Upload"] == clean.counts["Upload"])
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("INSERT INTO ZUPLOAD (Z_PK, Z_ENT, Z_OPT) VALUES (9001, 42, 1)")
        try database.close()
        let dirty = try StoreReport(path: store, bundlePath: nil)
        #expect(dirty.discrepancies == ["table ZUPLOAD: 1 rows with Z_ENT 42, which names no entity in Z_PRIMARYKEY"])
    }

    @Test("a store too old for Z_MODELCACHE, given no model, still reports its rows per entity",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func oldStoreCounts() throws {
        let store = TestPaths.corpus + "/coredata/log2timeline__plaso/test_data/ios/kik.sqlite"
        let report = try StoreReport(path: store, bundlePath: nil)
        #expect(report.model == nil && report.discrepancies.isEmpty)
        let plain = try SQLiteDatabase(path: store, mode: .readOnly)
        #expect(report.counts["KikMessage"] == (try plain.scalarInteger("SELECT count(*) FROM ZKIKMESSAGE")))
        #expect(report.counts.values.reduce(0, +) > 0)
    }

    @Test("a store whose metadata lost its version hashes is matched through its model cache, and every row is carried")
    func missingVersionHashes() throws {
        let folder = try TestPaths.temporaryFolder("nohashes")
        let store = try uploadStore(folder)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        let select = try database.prepare("SELECT Z_PLIST FROM Z_METADATA")
        #expect(try select.step())
        guard case .dictionary(var metadata) = try PropertyList.decode(try #require(select.bytes(at: 0))) else {
            Issue.record("metadata is not a dictionary")
            return
        }
        select.finalize()
        metadata["NSStoreModelVersionHashes"] = .dictionary([:])
        let update = try database.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
        try update.bindBlob(BinaryPropertyListWriter().encode(.dictionary(metadata)), at: 1)
        try update.run()
        update.finalize()
        try database.close()
        let rows = try #require(try StoreCensus(path: store).appEntities.first { $0.name == "Upload" }?.rows)
        let summary = try migrate(store, into: folder + "/out.sqlite")
        #expect(summary.ledgers.reduce(0) { $0 + $1.read } == Int(rows))
        #expect(summary.isBalanced && summary.written["Upload", default: 0] > 0)
    }
}

/// `import --append` never loses what another process writes to the store meanwhile.
@Suite("appending beside a concurrent writer")
struct AppendConcurrencyTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    private func store(_ folder: String) throws -> String {
        let path = folder + "/uploads.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [TestPaths.fixtures + "/legacy/uploads.csv"], modelPath: workspace,
                                                 modelVersion: "Workspace 1", entity: "UploadEntity", outputPath: path)).run()
        return path
    }

    private func appendRequest(_ path: String) -> ImportRequest {
        ImportRequest(sources: [TestPaths.fixtures + "/legacy/uploads.plist"], modelPath: workspace, modelVersion: "Workspace 1",
                      entity: "UploadEntity", outputPath: path, existingStore: .append)
    }

    @Test("a store another connection has open is refused, and keeps every row that connection commits")
    func liveStoreRefused() throws {
        let path = try store(try TestPaths.temporaryFolder("append-live"))
        let other = try SQLiteDatabase(path: path, mode: .readWrite)
        try other.execute("PRAGMA journal_mode=WAL")
        let before = try #require(try other.scalarInteger("SELECT count(*) FROM ZUPLOADENTITY"))
        let error = try #require(throws: ImportError.self) { try ImportJob(request: appendRequest(path)).run() }
        #expect(error.description.contains("another process has it open"))
        try other.execute("INSERT INTO ZUPLOADENTITY (Z_PK, Z_ENT, Z_OPT) VALUES (5000, 1, 1)")
        #expect(try other.scalarInteger("SELECT count(*) FROM ZUPLOADENTITY") == before + 1)
        try other.close()
    }

    @Test("a store that changes while the copy is written is not replaced; the other writer's rows stay")
    func changedStoreNotReplaced() throws {
        let path = try store(try TestPaths.temporaryFolder("append-changed"))
        let model = try #require(try XcodeModelLoader.loadBundle(at: workspace).version(named: "Workspace 1"))
        let writer = try CoreDataStoreWriter.append(to: path, model: model)
        let other = try SQLiteDatabase(path: path, mode: .readWrite)
        try other.execute("INSERT INTO ZUPLOADENTITY (Z_PK, Z_ENT, Z_OPT) VALUES (5000, 1, 1)")
        try other.close()
        #expect(throws: StoreWriterError.self) { try writer.finish() }
        writer.discard()
        let check = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try check.scalarInteger("SELECT count(*) FROM ZUPLOADENTITY WHERE Z_PK = 5000") == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
            .allSatisfy { !$0.contains(".ferry-") })
    }
}

/// Relationship pairs are tallied where the store keeps them and compared with their census.
@Suite("relationship pairs accounted for")
struct PairAccountingTests {
    @Test("a store's pair census counts keys and join rows once per place", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func census() throws {
        let path = CorpusStores.path(CorpusStores.xcServer201.store)
        let reader = try CoreDataStoreReader(path: path)
        let layout = try reader.layout(for: try StoreModelMatch.archivedModel(of: reader))
        let pairs = try reader.pairCensus(layout: layout)
        let plain = try SQLiteDatabase(path: path, mode: .readOnly)
        for table in ["Z_8REPOSITORIES", "Z_9DEVICESPECIFICATIONS", "Z_9INTEGRATIONS"] {
            #expect(pairs[table] == (try plain.scalarInteger("SELECT count(*) FROM \(table)")))
        }
        #expect(pairs["ZINTEGRATION.ZBOT"] == (try plain.scalarInteger("SELECT count(ZBOT) FROM ZINTEGRATION")))
    }
}
