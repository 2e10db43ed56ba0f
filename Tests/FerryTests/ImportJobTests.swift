import Ferry
import FerryFixtures
import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryTestSupport
import Foundation
import Testing

@Suite("ferry import: CSV into a Core Data store")
struct ImportJobTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"
    private let uploadsCSV = TestPaths.fixtures + "/legacy/uploads.csv"

    private func request(_ sources: [String], out: String, entity: String = "UploadEntity") -> ImportRequest {
        ImportRequest(sources: sources, modelPath: workspace, modelVersion: "Workspace 1", entity: entity, outputPath: out)
    }

    @Test("the uploads fixture: every row written or rejected with its line and reason")
    func uploadsFixture() throws {
        let folder = try TestPaths.temporaryFolder("import")
        let out = folder + "/Upload.sqlite"
        var request = request([uploadsCSV], out: out)
        request.rejectLogPath = folder + "/rejects.ndjson"
        let sourceBefore = try TestPaths.read(uploadsCSV)

        let summary = try ImportJob(request: request).run()

        #expect(summary.read == 34 && summary.written == 31 && summary.rejected == 3)
        #expect(summary.isBalanced)
        #expect(summary.sampleRejects.map(\.location.line) == [15, 28, 36])
        #expect(summary.sampleRejects.map(\.attribute) == ["fileType", "time", nil])
        #expect(summary.sampleRejects[0].reason == "'abc' is not an integer")
        #expect(summary.sampleRejects[2].reason == "the row has 5 fields, the header has 7")
        let log = try String(contentsOfFile: folder + "/rejects.ndjson", encoding: .utf8)
        #expect(log.split(separator: "\n").count == 3)
        #expect(try TestPaths.read(uploadsCSV) == sourceBefore)

        let store = try SQLiteDatabase(path: out, mode: .readOnly)
        #expect(try store.scalarInteger("SELECT count(*) FROM ZUPLOADENTITY") == 31)
        #expect(try store.scalarInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'UploadEntity'") == 31)
        #expect(try store.scalarInteger("SELECT count(DISTINCT Z_ENT) FROM ZUPLOADENTITY") == 1)
        #expect(try store.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try store.scalarText("SELECT ZFILENAME FROM ZUPLOADENTITY WHERE ZURLPATH LIKE '%final-v2.docx'") == #"He said "final" v2.docx"#)
        #expect(try store.scalarText("SELECT ZFILENAME FROM ZUPLOADENTITY WHERE ZURLPATH LIKE '%two-lines.txt'") == "line one\nline two.txt")
        #expect(try store.scalarText("SELECT ZFILENAME FROM ZUPLOADENTITY WHERE ZURLPATH LIKE '%travel.jpg' LIMIT 1") == "旅行写真.jpg")
        // "" is the empty string, an empty unquoted field is nil.
        #expect(try store.scalarText("SELECT quote(ZFILENAME) FROM ZUPLOADENTITY WHERE ZURLPATH LIKE '%untitled.png'") == "''")
        #expect(try store.scalarText("SELECT quote(ZFILESIZE) FROM ZUPLOADENTITY WHERE ZFILENAME = 'scan 3.png'") == "''")
        #expect(try store.scalarText("SELECT quote(ZTIME) FROM ZUPLOADENTITY WHERE ZFILENAME = 'no time.txt'") == "NULL")
        #expect(try store.scalarInteger("SELECT ZFILETYPE FROM ZUPLOADENTITY WHERE ZFILENAME = 'negative type.bin'") == -1)
        #expect(try store.scalarInteger("SELECT length(ZIMAGEDATA) FROM ZUPLOADENTITY WHERE ZFILENAME = 'IMG_0001.jpg'") == 378)
        #expect(try store.scalarInteger("SELECT count(*) FROM ZKYTASK") == 0)
    }

    @Test("the store carries Workspace 1's version hashes in Core Data's metadata")
    func metadata() throws {
        let out = try TestPaths.temporaryFolder("import") + "/Upload.sqlite"
        _ = try ImportJob(request: request([uploadsCSV], out: out)).run()
        let store = try SQLiteDatabase(path: out, mode: .readOnly)
        let statement = try store.prepare("SELECT Z_UUID, Z_PLIST FROM Z_METADATA")
        #expect(try statement.step())
        #expect(UUID(uuidString: statement.string(at: 0) ?? "") != nil)
        guard case let .dictionary(metadata) = try PropertyList.decode(try #require(statement.bytes(at: 1))) else {
            Issue.record("Z_PLIST is not a dictionary")
            return
        }
        let model = try #require(try XcodeModelLoader.loadBundle(at: workspace).version(named: "Workspace 1"))
        let hashes = VersionHasher.hashes(of: model)
        #expect(metadata["NSStoreModelVersionHashes"] == .dictionary(hashes.entityHashes.mapValues { .data($0) }))
        #expect(metadata["NSStoreModelVersionHashesDigest"] == .string(hashes.base64Digest))
        #expect(metadata["NSStoreModelVersionChecksumKey"] == .string(hashes.base64Checksum))
        #expect(metadata["NSStoreType"] == .string("SQLite"))
        #expect(metadata["_NSAutoVacuumLevel"] == .string("2"))
        #expect(try store.scalarInteger("PRAGMA page_size") == 4096)
        #expect(try store.scalarInteger("PRAGMA auto_vacuum") == 2)
        let tables = try store.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        var rows: [String] = []
        while try tables.step() { rows.append("\(tables.int64(at: 0)) \(tables.string(at: 1) ?? "") \(tables.int64(at: 2))") }
        #expect(rows == ["1 KYTask 0", "2 UploadEntity 0"])
        // Z_MODELCACHE holds the model, as Core Data keeps it: it decodes to the same hashes.
        let cache = try store.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE")
        #expect(try cache.step())
        let archived = try ModelArchiveDecoder.decodeModelCache(try #require(cache.bytes(at: 0)), name: "cache")
        #expect(VersionHasher.hashes(of: archived) == hashes)
        #expect(try !cache.step())
    }

    @Test("an existing destination is refused, and replaced atomically with replaceExisting")
    func existingDestination() throws {
        let out = try TestPaths.temporaryFolder("import") + "/Upload.sqlite"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: out))
        #expect(throws: ImportError.self) { try ImportJob(request: request([uploadsCSV], out: out)).run() }
        #expect(try TestPaths.read(out) == Array("keep me".utf8))
        var replacing = request([uploadsCSV], out: out)
        replacing.replaceExisting = true
        #expect(try ImportJob(request: replacing).run().written == 31)
        #expect(try SQLiteDatabase(path: out, mode: .readOnly).scalarInteger("SELECT count(*) FROM ZUPLOADENTITY") == 31)
    }

    @Test("a run that fails or stops leaves nothing behind")
    func allOrNothing() throws {
        let folder = try TestPaths.temporaryFolder("import")
        let out = folder + "/Upload.sqlite"
        var stopping = request([uploadsCSV], out: out)
        stopping.maxErrors = 2
        let summary = try ImportJob(request: stopping).run()
        #expect(summary.stoppedEarly && summary.rejected == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)

        let broken = folder + "/broken.csv"
        try Data("fileName,time\n\"unterminated,1\n".utf8).write(to: URL(fileURLWithPath: broken))
        #expect(throws: ImportError.self) { try ImportJob(request: request([uploadsCSV, broken], out: out)).run() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["broken.csv"])
    }

    @Test("bad requests: unknown version, entity, missing required column, unsupported file")
    func badRequests() throws {
        let folder = try TestPaths.temporaryFolder("import")
        let out = folder + "/x.sqlite"
        var unknownVersion = request([uploadsCSV], out: out)
        unknownVersion.modelVersion = "Workspace 9"
        #expect(throws: ImportError.self) { try ImportJob(request: unknownVersion).run() }
        #expect(throws: ImportError.self) { try ImportJob(request: request([uploadsCSV], out: out, entity: "Nope")).run() }
        // KYTask.taskID is required and has no default: a file without it cannot be imported.
        let tasks = folder + "/tasks.csv"
        try Data("taskTitle\nBuy milk\n".utf8).write(to: URL(fileURLWithPath: tasks))
        let error = try #require(throws: ImportError.self) { try ImportJob(request: request([tasks], out: out, entity: "KYTask")).run() }
        #expect(error.description.contains("no column for required attribute 'taskID'"))
        #expect(throws: ImportError.self) { try ImportJob(request: request([TestPaths.fixtures + "/legacy/tasks.json"], out: out)).run() }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("columns match by case and renaming identifier, unknown columns are reported once, key maps apply")
    func columnMatching() throws {
        let folder = try TestPaths.temporaryFolder("import")
        let csv = folder + "/tasks.csv"
        try Data("TASKID,title,extra,due\n1,Buy milk,x,2014-01-02\n2,Walk,y,2014-01-03\n".utf8).write(to: URL(fileURLWithPath: csv))
        var request = ImportRequest(sources: [csv], modelPath: workspace, modelVersion: "Workspace 2", entity: "Task",
                                    outputPath: folder + "/out.sqlite", keyMap: ["due": "taskDate"])
        let summary = try ImportJob(request: request).run()
        #expect(summary.written == 2)
        #expect(summary.unknownKeys == [csv: ["extra"]])
        let store = try SQLiteDatabase(path: folder + "/out.sqlite", mode: .readOnly)
        #expect(try store.scalarText("SELECT ZTITLE || '|' || ZTASKDATE FROM ZTASK WHERE ZTASKID = 2") == "Walk|2014-01-03")
        request.keyMap = [:]
        request.outputPath = folder + "/out2.sqlite"
        // Task.title is required with default "": a missing title takes the default.
        try Data("taskID\n5\n".utf8).write(to: URL(fileURLWithPath: csv))
        #expect(try ImportJob(request: request).run().written == 1)
        #expect(try SQLiteDatabase(path: folder + "/out2.sqlite", mode: .readOnly).scalarText("SELECT quote(ZTITLE) FROM ZTASK") == "''")
    }

    @Test("generated uploads at scale: accounting balances and rejects match the generator's flags")
    func generatedUploads() throws {
        let folder = try TestPaths.temporaryFolder("import")
        let csv = folder + "/uploads.csv"
        let generator = try UploadRecordGenerator(seed: 7, count: 20_000)
        var writer = FixtureWriter<UploadRecord, ByteArraySink>(format: .csv, sink: ByteArraySink())
        try writer.write(contentsOf: generator)
        try writer.finish()
        try Data(writer.sink.bytes).write(to: URL(fileURLWithPath: csv))
        let expectedRejects = generator.filter(\.quirks.isRejected).count
        #expect(expectedRejects > 0)

        var request = request([csv], out: folder + "/out.sqlite")
        request.batchSize = 3_000
        let summary = try ImportJob(request: request).run()
        #expect(summary.read == 20_000)
        #expect(summary.rejected == expectedRejects)
        #expect(summary.written == 20_000 - expectedRejects)
        let store = try SQLiteDatabase(path: folder + "/out.sqlite", mode: .readOnly)
        #expect(try store.scalarInteger("SELECT count(*) FROM ZUPLOADENTITY") == Int64(summary.written))
        #expect(try store.scalarInteger("SELECT max(Z_PK) FROM ZUPLOADENTITY") == Int64(summary.written))
    }
}
