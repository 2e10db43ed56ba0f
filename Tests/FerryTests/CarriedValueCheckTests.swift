@testable import Ferry
import FerryMigration
import FerryModel
import FerryStore
import FerryTestSupport
import FerryVerify
import FerryVerifyTestSupport
import Foundation
import Testing

/// The values a migration carries unchanged, fingerprinted from the source records as read and
/// from the store, without any mapping code in between.
@Suite("carried values")
struct CarriedValueCheckTests {
    private let model = TestPaths.migrations + "/Workspace.xcdatamodeld"

    @Test("a fingerprint's term taken out again leaves the fingerprint of the rest, whatever the order and carries")
    func removeTerm() {
        let encodings: [[UInt8]] = (0..<200).map { Array("record \($0)".utf8) }
        var all = Fingerprint(), rest = Fingerprint()
        for (index, bytes) in encodings.enumerated() {
            all.add(encoded: bytes)
            if index % 3 != 0 { rest.add(encoded: bytes) }
        }
        for bytes in encodings.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element).reversed() {
            all.remove(bytes.withUnsafeBytes { Fingerprint.Term(encoded: $0) })
        }
        #expect(all == rest && all.count == rest.count)
        var one = Fingerprint()
        let term = encodings[0].withUnsafeBytes { Fingerprint.Term(encoded: $0) }
        one.add(term)
        one.remove(term)
        #expect(one == Fingerprint())
    }

    @Test("a Workspace 1 upload carries fileName, isFinished, remotePath and thumbnail to Workspace 3; computed ones are not carried")
    func carriedAttributes() throws {
        let bundle = try XcodeModelLoader.loadBundle(at: model)
        let chain = try MigrationPlanner(bundle: bundle, modelPath: model, variables: ["zone": "UTC"], target: nil).chain(options: .init())
        let schema = try #require(chain.schema(version: 0, entity: "UploadEntity"))
        let carried = CarriedAttributes(route: chain.route(entity: "UploadEntity", from: 0), chain: chain, schema: schema)
        #expect(carried.names == ["fileName", "isFinished", "remotePath", "thumbnail"])
        #expect(carried.sourceIndexes.map { schema.attributes[$0].name } == ["fileName", "finishStatus", "urlPath", "imageData"])
        // taskLevel → priority is converted (Integer 16 → 32), title is required: neither is carried.
        let task = try #require(chain.schema(version: 0, entity: "KYTask"))
        #expect(CarriedAttributes(route: chain.route(entity: "KYTask", from: 0), chain: chain, schema: task).names == ["isComplete", "notes"])
    }

    @Test("the store as written passes; a changed value, a lost row and a changed thumbnail fail")
    func changedStore() throws {
        let folder = try TestPaths.temporaryFolder("carried")
        let request = MigrateRequest(sources: [MigrationSource(argument: "UploadEntity:\(TestPaths.fixtures)/legacy/uploads.csv")],
                                     modelPath: model, outputPath: folder + "/Workspace.sqlite", variables: ["zone": "UTC"])
        let bundle = try XcodeModelLoader.loadBundle(at: model)
        let chain = try MigrationPlanner(bundle: bundle, modelPath: model, variables: request.variables, target: nil).chain(options: .init())
        let final = chain.last
        let writer = try CoreDataStoreWriter.create(at: request.outputPath, model: final,
                                                    versionHashes: VersionHasher.hashes(of: final).entityHashes, versionIdentifiers: [""])
        defer { writer.discard() }
        let watch = CarriedValueWatch(chain: chain)
        var pipeline = RecordPipeline(chain: chain, graph: StoreGraphWriter(writer: writer, model: final), rejects: RejectCollector(limit: nil))
        pipeline.observer = watch
        let path = request.sources[0].path
        let opened = try request.files.open(path, model: chain.versions[0], schema: try #require(chain.schema(version: 0, entity: "UploadEntity")))
        try pipeline.read(FileRecordCursor(path: path, records: opened.records, entity: "UploadEntity", version: 0, versionName: "Workspace 1"),
                          namespace: 0)
        let links = try pipeline.finish()
        try writer.commit()
        let check = watch.check

        let intact = try check.section(store: writer.temporaryPath, model: final, links: links)
        #expect(intact.section.checks == 1 && intact.section.failures.isEmpty, "\(intact.section.failures)")
        #expect(intact.note == nil)
        for (sql, failure) in [
            ("UPDATE ZUPLOAD SET ZFILENAME = 'renamed' WHERE Z_PK = 2", "fingerprint-mismatch"),
            ("UPDATE ZUPLOAD SET ZTHUMBNAIL = X'0100' WHERE ZTHUMBNAIL IS NOT NULL AND Z_PK = (SELECT min(Z_PK) FROM ZUPLOAD WHERE ZTHUMBNAIL IS NOT NULL)", "fingerprint-mismatch"),
            ("DELETE FROM ZUPLOAD WHERE Z_PK = 3", "fingerprint-count"),
        ] {
            let copy = folder + "/changed-\(UUID().uuidString).sqlite"
            try FileManager.default.copyItem(atPath: writer.temporaryPath, toPath: copy)
            let database = try SQLiteDatabase(path: copy, mode: .readWrite)
            try database.execute(sql)
            try database.close()
            let changed = try check.section(store: copy, model: final, links: links)
            #expect(changed.section.failures.map(\.check) == [failure], "\(sql)")
        }
    }

    @Test("objects of the store whose identity is kept are checked on their Z_PK: two uploads that swapped their values fail")
    func swappedObjects() throws {
        let folder = try TestPaths.temporaryFolder("carried-keys")
        let source = try ExportTestSupport.workspace2Store(folder)
        let bundle = try XcodeModelLoader.loadBundle(at: model)
        let chain = try MigrationPlanner(bundle: bundle, modelPath: model, variables: ["zone": "UTC"], target: nil).chain(options: .init())
        let final = chain.last
        let keptKeys = try KeptPrimaryKeys.of(store: source, chain: chain)
        #expect(keptKeys.largestByRoot["Upload", default: 0] > 0, "\(keptKeys.largestByRoot)")
        let writer = try CoreDataStoreWriter.create(at: folder + "/Workspace3.sqlite", model: final,
                                                    versionHashes: VersionHasher.hashes(of: final).entityHashes, versionIdentifiers: [""])
        defer { writer.discard() }
        for (root, largest) in keptKeys.largestByRoot { try writer.keepPrimaryKeys(through: largest, root: root) }
        let watch = CarriedValueWatch(chain: chain, keptKeys: keptKeys)
        var pipeline = RecordPipeline(chain: chain, graph: StoreGraphWriter(writer: writer, model: final), rejects: RejectCollector(limit: nil))
        pipeline.observer = watch
        try pipeline.read(try StoreRecordCursor(path: source, chain: chain, keepsIdentity: true), namespace: 0)
        let links = try pipeline.finish()
        try writer.commit()

        let intact = try watch.check.section(store: writer.temporaryPath, model: final, links: links)
        #expect(intact.section.failures.isEmpty, "\(intact.section.failures)")
        #expect(intact.section.checks >= 1 && intact.note?.contains("Upload") != true, "\(intact.note ?? "")")
        let copy = folder + "/swapped.sqlite"
        try FileManager.default.copyItem(atPath: writer.temporaryPath, toPath: copy)
        let database = try SQLiteDatabase(path: copy, mode: .readWrite)
        try database.execute(VerifyStores.swapSQL(table: "ZUPLOAD", columns: VerifyStores.attributeColumns(of: "Upload", in: final), rows: 1, 2))
        try database.close()
        let swapped = try watch.check.section(store: copy, model: final, links: links)
        #expect(swapped.section.failures.map { "\($0.check) \($0.subject)" } == ["fingerprint-mismatch Upload"])
    }

    @Test("an object of the kept store that got a new Z_PK (its table now shared) is checked on its values alone, and passes")
    func renumberedObject() throws {
        let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        let folder = try TestPaths.temporaryFolder("carried-renumbered")
        let label = #"<attribute name="label" optional="YES" attributeType="String"/>"#
        let bundle = try TestPaths.xcodeModelBundle("Rides", versions: [
            ("V1", header + #"<entity name="Car">\#(label)</entity><entity name="Bike">\#(label)</entity></model>"#),
            ("V2", header + #"<entity name="Vehicle" isAbstract="YES"/><entity name="Car" parentEntity="Vehicle">\#(label)</entity>"#
                + #"<entity name="Bike" parentEntity="Vehicle">\#(label)</entity></model>"#),
        ], in: folder)
        try #"[{"label": "truck"}, {"label": "van"}]"#.write(toFile: folder + "/cars.json", atomically: true, encoding: .utf8)
        try #"[{"label": "bmx"}, {"label": "tandem"}]"#.write(toFile: folder + "/bikes.json", atomically: true, encoding: .utf8)
        var first = MigrateRequest(sources: [MigrationSource(argument: "Car@V1:\(folder)/cars.json"), MigrationSource(argument: "Bike@V1:\(folder)/bikes.json")],
                                   modelPath: bundle, outputPath: folder + "/v1.sqlite")
        first.targetVersion = "V1"
        _ = try MigrateJob(request: first).run()
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: folder + "/v1.sqlite", kind: .store)],
                                                             modelPath: bundle, outputPath: folder + "/v2.sqlite")).run()
        #expect(summary.warnings.contains { $0.contains("2 objects of the store whose UUID is kept got a new Z_PK") }, "\(summary.warnings)")
        let report = try #require(summary.verification)
        #expect(report.passed, "\(report.failures)")
        #expect(report.section(named: "carried values")?.checks == 2, "\(report.notes)")
    }

    @Test("the flagship: Upload's and Task's carried values are checked; a task that replaced an earlier one (keep-newest) counts once, with its values")
    func flagship() throws {
        let legacy = TestPaths.fixtures + "/legacy"
        let request = MigrateRequest(
            sources: ["UploadEntity:\(legacy)/uploads.csv", "UploadEntity:\(legacy)/uploads.plist", "Task:\(legacy)/tasks.json",
                      "Task:\(legacy)/tasks.ndjson"].map(MigrationSource.init(argument:)),
            modelPath: model, outputPath: try TestPaths.temporaryFolder("carried") + "/Workspace.sqlite",
            files: FileRecordSource(linkAttributes: ["attachments": "remotePath", "tags": "name"]), variables: ["zone": "Asia/Shanghai"])
        let summary = try MigrateJob(request: request).run()
        #expect(summary.ledgers.contains { $0.entity == "Task" && $0.merged > 0 }, "the fixtures have tasks given twice")
        let report = try #require(summary.verification)
        let section = try #require(report.section(named: "carried values"))
        #expect(section.checks == 2 && section.failures.isEmpty, "\(section.failures)")
        #expect(report.notes.isEmpty, "\(report.notes)")
    }
}
