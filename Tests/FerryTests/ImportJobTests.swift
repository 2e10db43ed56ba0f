import Ferry
import FerryFixtures
import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryStoreTestSupport
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
        replacing.existingStore = .replace
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
        let binary = folder + "/garbage.bin"
        try Data([0xFF, 0xFE, 0xFD, 0x00, 0x81, 0x0A, 0x41]).write(to: URL(fileURLWithPath: binary))
        let garbage = try #require(throws: ImportError.self) { try ImportJob(request: request([binary], out: out)).run() }
        #expect(garbage.description.contains(binary))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("columns match by case and renaming identifier, unknown columns are reported once, key maps apply")
    func columnMatching() throws {
        let folder = try TestPaths.temporaryFolder("import")
        let csv = folder + "/tasks.csv"
        try Data("TASKID,title,extra,due\n1,Buy milk,x,2014-01-02\n2,Walk,y,2014-01-03\n".utf8).write(to: URL(fileURLWithPath: csv))
        var request = ImportRequest(sources: [csv], modelPath: workspace, modelVersion: "Workspace 2", entity: "Task",
                                    outputPath: folder + "/out.sqlite", files: FileRecordSource(keyMap: ["due": "taskDate"]))
        let summary = try ImportJob(request: request).run()
        #expect(summary.written == 2)
        #expect(summary.unknownKeys == [csv: ["extra"]])
        let store = try SQLiteDatabase(path: folder + "/out.sqlite", mode: .readOnly)
        #expect(try store.scalarText("SELECT ZTITLE || '|' || ZTASKDATE FROM ZTASK WHERE ZTASKID = 2") == "Walk|2014-01-03")
        request.files.keyMap = [:]
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

@Suite("ferry import: JSON, NDJSON, property lists, links and appending")
struct ImportDocumentsTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"
    private let legacy = TestPaths.fixtures + "/legacy"


    /// Uploads from CSV and plist into Workspace 2, then tasks from JSON and NDJSON appended with links.
    private func workspace2(_ folder: String) throws -> (uploads: ImportSummary, tasks: ImportSummary, path: String) {
        let path = folder + "/W2.sqlite"
        let uploads = try ImportJob(request: ImportRequest(
            sources: [legacy + "/uploads.csv", legacy + "/uploads.plist"], modelPath: workspace, modelVersion: "Workspace 2",
            entity: "Upload", outputPath: path)).run()
        let tasks = try ImportJob(request: ImportRequest(
            sources: [legacy + "/tasks.json", legacy + "/tasks.ndjson"], modelPath: workspace, modelVersion: "Workspace 2",
            entity: "Task", outputPath: path, existingStore: .append, files: FileRecordSource(linkAttributes: ["attachments": "remotePath", "tags": "name"]),
            createMissing: ["tags"])).run()
        return (uploads, tasks, path)
    }

    @Test("legacy uploads and tasks land in one Workspace 2 store, renamed keys matched by renaming identifier")
    func flagshipFiles() throws {
        let (uploads, tasks, path) = try workspace2(try TestPaths.temporaryFolder("docs"))
        // uploads.csv: 34 rows, 3 rejects; uploads.plist: 21 elements, 3 rejects (Fixtures/README.md).
        #expect(uploads.read == 55 && uploads.written == 49 && uploads.rejected == 6 && uploads.isBalanced)
        #expect(uploads.sampleRejects.map(\.location.description).contains("\(legacy)/uploads.plist:342 [20]"))
        // tasks.json: 30 objects, 2 rejects in Workspace 2 (dates are still strings); tasks.ndjson: 23 lines, line 5 is not JSON.
        #expect(tasks.read == 53 && tasks.written == 50 && tasks.rejected == 3 && tasks.isBalanced)
        #expect(tasks.sampleRejects.last?.location.line == 5)
        #expect(tasks.sampleRejects.last?.reason.hasPrefix("not valid JSON") == true)
        // finishStatus, urlPath and imageData reached isFinished, remotePath and thumbnail (renaming identifiers).
        #expect(try storeRows(path, "SELECT count(ZISFINISHED), count(ZREMOTEPATH), count(ZTHUMBNAIL) FROM ZUPLOAD") == ["47|49|16"])

        let attachments = try #require(tasks.links.first { $0.relationship == "Task.attachments" })
        #expect(attachments.unresolved == 1 && attachments.unresolvedSamples.first?.hasSuffix("/remote/uploads/2014/09/ghost.jpg'") == true)
        let tags = try #require(tasks.links.first { $0.relationship == "Task.tags" })
        #expect(tags.created == 9 && tags.unresolved == 0)
        #expect(try storeRows(path, "SELECT count(*) FROM ZTAG") == ["9"])
        #expect(try storeRows(path, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == ["Tag|9", "Task|50", "Upload|49"])
        // Every tag link of the files is a join row; task 1 of tasks.json has its tags.
        #expect(try storeRows(path, "SELECT count(*) FROM Z_1TASKS") == [String(tags.resolved - tags.duplicatePairs)])
        #expect(try storeRows(path, "PRAGMA integrity_check") == ["ok"])
    }

    @Test("appending refuses a store of another model version and leaves it untouched")
    func appendWrongVersion() throws {
        let folder = try TestPaths.temporaryFolder("docs")
        let path = folder + "/W1.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [legacy + "/uploads.csv"], modelPath: workspace, modelVersion: "Workspace 1",
                                                 entity: "UploadEntity", outputPath: path)).run()
        let before = try TestPaths.read(path)
        let append = ImportRequest(sources: [legacy + "/tasks.json"], modelPath: workspace, modelVersion: "Workspace 2",
                                   entity: "Task", outputPath: path, existingStore: .append)
        let error = try #require(throws: ImportError.self) { try ImportJob(request: append).run() }
        #expect(error.description.contains("not a store of model version 'Workspace 2'"))
        #expect(try TestPaths.read(path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["W1.sqlite"])
    }

    @Test("duplicates on a uniqueness constraint follow the policy, also against records already in the store")
    func duplicatesAgainstStore() throws {
        let folder = try TestPaths.temporaryFolder("docs")
        let path = folder + "/W3.sqlite"
        let first = folder + "/a.ndjson", second = folder + "/b.ndjson"
        try Data("{\"taskID\": 1, \"title\": \"old\"}\n{\"taskID\": 2, \"title\": \"two\"}\n".utf8).write(to: URL(fileURLWithPath: first))
        try Data("{\"taskID\": 1, \"title\": \"new\"}\n{\"taskID\": 1, \"title\": \"newer\"}\n".utf8).write(to: URL(fileURLWithPath: second))
        var request = ImportRequest(sources: [first], modelPath: workspace, modelVersion: "Workspace 3", entity: "Task", outputPath: path)
        #expect(try ImportJob(request: request).run().written == 2)
        request.sources = [second]
        request.existingStore = .append
        // The same file appended under each policy in turn.
        request.importsAgain = true
        let rejected = try ImportJob(request: request).run()
        #expect(rejected.rejected == 2 && rejected.written == 0)
        request.duplicates = .keepFirst
        #expect(try ImportJob(request: request).run().merged == 2)
        #expect(try storeRows(path, "SELECT ZTITLE FROM ZTASK WHERE ZTASKID = 1") == ["old"])
        request.duplicates = .keepNewest
        let newest = try ImportJob(request: request).run()
        #expect(newest.merged == 2 && newest.isBalanced)
        #expect(try storeRows(path, "SELECT ZTITLE FROM ZTASK ORDER BY ZTASKID") == ["newer", "two"])
    }

    @Test("gzip sources and format detection by content")
    func gzipAndSniffing() throws {
        let folder = try TestPaths.temporaryFolder("docs")
        let json = try TestPaths.read(legacy + "/tasks.ndjson")
        let compressed = try GzipWriter.compress(json)
        try Data(compressed).write(to: URL(fileURLWithPath: folder + "/export.data"))
        let summary = try ImportJob(request: ImportRequest(
            sources: [folder + "/export.data"], modelPath: workspace, modelVersion: "Workspace 1", entity: "KYTask",
            outputPath: folder + "/t.sqlite")).run()
        // Detected as JSON from the decompressed bytes; the NDJSON layout found by its lines.
        #expect(summary.read == 23 && summary.written == 22)
        #expect(summary.unknownKeys.values.first?.sorted() == ["attachments", "tags"])
    }

    @Test("upsert by --key where the model has no constraint: duplicates in the input and against the store")
    func upsertByKey() throws {
        let folder = try TestPaths.temporaryFolder("docs")
        let path = folder + "/W1.sqlite"
        var request = ImportRequest(sources: [legacy + "/uploads.csv"], modelPath: workspace, modelVersion: "Workspace 1",
                                    entity: "UploadEntity", outputPath: path, duplicates: .keepFirst)
        request.identityKey = ["time", "urlPath", "fileName"]
        let first = try ImportJob(request: request).run()
        // uploads.csv holds 3 exact duplicates (Fixtures/README.md).
        #expect(first.written == 28 && first.merged == 3 && first.isBalanced)
        request.sources = [legacy + "/uploads.plist"]
        request.existingStore = .append
        let second = try ImportJob(request: request).run()
        // Every plist dictionary but `no size.png` and the 3 bad elements is a record of the CSV too.
        #expect(second.written == 1 && second.merged == 17 && second.rejected == 3)
        #expect(try storeRows(path, "SELECT count(*) FROM ZUPLOADENTITY") == ["29"])
        request.identityKey = ["nope"]
        #expect(throws: ImportError.self) { try ImportJob(request: request).run() }
    }

    /// Found by a differential run (helper): the third record replaced the first's values, its
    /// `rid` the second's, and the run stopped on SQLite's UNIQUE constraint (exit 3, naming the
    /// temporary file).
    @Test("keep-newest by --key: a copy whose values are another record's on the model's own constraint is a reject, not a failed run")
    func keepNewestAgainstAnotherConstraint() throws {
        let folder = try TestPaths.temporaryFolder("key-newest")
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Rec" syncable="YES">
                    <attribute name="need" optional="YES" attributeType="String"/>
                    <attribute name="rid" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="rid"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Recs", versions: [("Recs", contents)], in: folder)
        try "{\"rid\": 1, \"need\": \"a\"}\n{\"rid\": 2, \"need\": \"b\"}\n{\"rid\": 2, \"need\": \"a\"}\n"
            .write(toFile: folder + "/recs.ndjson", atomically: true, encoding: .utf8)
        var request = ImportRequest(sources: [folder + "/recs.ndjson"], modelPath: bundle, entity: "Rec", outputPath: folder + "/r.sqlite",
                                    duplicates: .keepNewest)
        request.identityKey = ["need"]
        let summary = try ImportJob(request: request).run()
        #expect(summary.written == 2 && summary.rejected == 1 && summary.isBalanced)
        #expect(summary.sampleRejects.first?.reason.contains("its values are Z_PK 2's on unique (rid)") == true, "\(summary.sampleRejects)")
        #expect(try storeRows(folder + "/r.sqlite", "SELECT ZRID || ZNEED FROM ZREC ORDER BY Z_PK") == ["1a", "2b"])
    }

    @Test("thumbnails (external storage allowed) are stored with Core Data's inline tag and read back as the PNG")
    func externalStorageTag() throws {
        let path = try TestPaths.temporaryFolder("docs") + "/W2.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [legacy + "/uploads.csv"], modelPath: workspace, modelVersion: "Workspace 2",
                                                 entity: "Upload", outputPath: path)).run()
        #expect(try storeRows(path, "SELECT DISTINCT substr(hex(ZTHUMBNAIL), 1, 10) FROM ZUPLOAD WHERE ZTHUMBNAIL IS NOT NULL") == ["0189504E47"])
        let bundle = try XcodeModelLoader.loadBundle(at: workspace)
        let cursor = try CoreDataStoreReader(path: path).records(model: try #require(bundle.version(named: "Workspace 2"))).records(of: "Upload")
        var thumbnails = 0
        while let record = try cursor.next() {
            guard case let .binary(bytes) = record.attributes["thumbnail"] else { continue }
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            thumbnails += 1
        }
        #expect(thumbnails == 9)
    }
}
