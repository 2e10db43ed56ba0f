@testable import Ferry
import FerryMigration
import FerryModel
import FerryStore
import FerryTestSupport
import FerryVerifyTestSupport
import Foundation
import Testing

/// The receipt a verified migration leaves in its store, and `verify --against` choosing between
/// comparing with it and migrating the sources again.
@Suite("migration receipts")
struct MigrationReceiptTests {
    private let model = TestPaths.migrations + "/Workspace.xcdatamodeld"

    /// The flagship's two upload files and two task files, copied into `folder` (so a test may
    /// change them), as a request writing `folder/Workspace.sqlite`.
    private func request(in folder: String) throws -> MigrateRequest {
        var sources: [MigrationSource] = []
        for (entity, name) in [("UploadEntity", "uploads.csv"), ("UploadEntity", "uploads.plist"), ("Task", "tasks.json"), ("Task", "tasks.ndjson")] {
            try FileManager.default.copyItem(atPath: TestPaths.fixtures + "/legacy/" + name, toPath: folder + "/" + name)
            sources.append(MigrationSource(path: folder + "/" + name, kind: .file(entity: entity, version: nil)))
        }
        return MigrateRequest(sources: sources, modelPath: model, outputPath: folder + "/Workspace.sqlite",
                              files: FileRecordSource(linkAttributes: ["attachments": "remotePath", "tags": "name"]),
                              variables: ["zone": "Asia/Shanghai"])
    }

    private func receipt(of store: String) throws -> MigrationReceipt? {
        try MigrationReceipt.read(from: CoreDataStoreReader(path: store).metadata)
    }

    @Test("a verified migration writes a receipt: every input's digest, the ledger, and the fingerprints it was verified with")
    func receiptWritten() throws {
        let request = try request(in: try TestPaths.temporaryFolder("receipt"))
        let summary = try MigrateJob(request: request).run()
        #expect(summary.receiptMissing == nil)
        let receipt = try #require(try receipt(of: request.outputPath))
        #expect(receipt.inputs.inputs.map(\.name) == [
            "ferry", "fingerprints", "options", "model", "mapping Workspace 1 to Workspace 2", "mapping Workspace 2 to Workspace 3",
            "source 1 (file UploadEntity)", "source 2 (file UploadEntity)", "source 3 (file Task)", "source 4 (file Task)",
        ])
        #expect(receipt.inputs == (try MigrationInputs.of(request, bundle: XcodeModelLoader.loadBundle(at: model))))
        // A receipt of a build whose fingerprints left out each record's Z_PK is not compared with.
        let older = MigrationInputs(inputs: receipt.inputs.inputs.filter { $0.name != "fingerprints" })
        #expect(older.differences(from: receipt.inputs) == ["fingerprints"])
        // A source left out is said as the number of sources, not as each source after it
        // named twice ("source 2 (file UploadEntity), …, source 2 (file Task)"; first-hour review).
        let fewer = MigrationInputs(inputs: receipt.inputs.inputs.filter { $0.name != "source 2 (file UploadEntity)" })
        #expect(fewer.differences(from: receipt.inputs) == ["the sources (the receipt's were 4, this run gives 3)"])
        // Paths are no inputs: the model copied elsewhere matched no receipt (its path was one of
        // the options). An option changed is named.
        let folder = try TestPaths.temporaryFolder("receipt-model-copy")
        var moved = request
        moved.modelPath = folder + "/Workspace.xcdatamodeld"
        for name in try FileManager.default.contentsOfDirectory(atPath: TestPaths.migrations) where name.hasPrefix("Workspace") {
            try FileManager.default.copyItem(atPath: TestPaths.migrations + "/" + name, toPath: folder + "/" + name)
        }
        let bundle = try XcodeModelLoader.loadBundle(at: model)
        #expect(try MigrationInputs.of(moved, bundle: bundle).differences(from: receipt.inputs).isEmpty)
        moved.variables["zone"] = "Europe/Berlin"
        #expect(try MigrationInputs.of(moved, bundle: bundle).differences(from: receipt.inputs) == ["options (variables)"])
        #expect(receipt.records == summary.written.values.reduce(0, +))
        #expect(receipt.fingerprints == summary.verification?.fingerprints)
        #expect(receipt.edgeFingerprints == summary.verification?.edgeFingerprints)
        #expect(!receipt.edgeFingerprints.isEmpty)
        #expect(try StoreReport(path: request.outputPath, bundlePath: nil).receipt?.contains("verified migration of 4 source(s)") == true)
        // Core Data's own keys are untouched by it.
        let metadata = try CoreDataStoreReader(path: request.outputPath).metadata
        let current = try #require(try XcodeModelLoader.loadBundle(at: model).version(named: "Workspace 3"))
        #expect(metadata.versionHashes == VersionHasher.hashes(of: current).entityHashes)
    }

    @Test("a written mapping spanning versions is an input: changed, the receipt no longer matches (it was no input, and verify --against trusted the receipt)")
    func spanningMappingIsAnInput() throws {
        let folder = try TestPaths.temporaryFolder("receipt-span")
        let entity = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="E" syncable="YES"><attribute name="a" optional="YES" attributeType="String"/></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("V1", entity), ("V2", entity), ("V3", entity)], in: folder)
        let mapping = folder + "/V1 to V3.mapping"
        try Data("entity E\n  a = upper(a)\n".utf8).write(to: URL(fileURLWithPath: mapping))
        try Data(#"[{"a": "one"}]"#.utf8).write(to: URL(fileURLWithPath: folder + "/e.json"))
        let request = MigrateRequest(sources: [MigrationSource(argument: "E@V1:\(folder)/e.json")], modelPath: bundle, outputPath: folder + "/out.sqlite")
        _ = try MigrateJob(request: request).run()
        let receipt = try #require(try receipt(of: request.outputPath))
        #expect(receipt.inputs.inputs.map(\.name).filter { $0.hasPrefix("mapping") } == ["mapping V1 to V2", "mapping V1 to V3", "mapping V2 to V3"])
        try Data("entity E\n  a = lower(a)\n".utf8).write(to: URL(fileURLWithPath: mapping))
        #expect(try MigrationInputs.of(request, bundle: XcodeModelLoader.loadBundle(at: bundle)).differences(from: receipt.inputs) == ["mapping V1 to V3"])
        #expect(!(try SourceVerification.verify(store: request.outputPath, against: request).passed))
    }

    @Test("without verification (--no-verify) there is no receipt, and verify --against migrates again")
    func noReceiptWithoutVerification() throws {
        var request = try request(in: try TestPaths.temporaryFolder("receipt"))
        request.verify = false
        _ = try MigrateJob(request: request).run()
        #expect(try receipt(of: request.outputPath) == nil)
        #expect(try StoreReport(path: request.outputPath, bundlePath: nil).receipt == nil)
        let report = try SourceVerification.verify(store: request.outputPath, against: request)
        #expect(report.passed)
        #expect(report.notes.contains { $0.contains("it has no receipt") }, "\(report.notes)")
    }

    @Test("a source whose bytes changed is migrated again, and the note names it; the verdict is the re-run's")
    func changedSource() throws {
        let request = try request(in: try TestPaths.temporaryFolder("receipt"))
        _ = try MigrateJob(request: request).run()
        // A trailing blank line: other bytes, the same records.
        let ndjson = request.sources[3].path
        try (String(contentsOfFile: ndjson, encoding: .utf8) + "\n").write(toFile: ndjson, atomically: true, encoding: .utf8)
        let same = try SourceVerification.verify(store: request.outputPath, against: request)
        #expect(same.passed)
        #expect(same.notes.contains { $0.contains("migrated again") && $0.contains("source 4 (file Task)") }, "\(same.notes)")
        // One more task: the re-run finds a record the store does not have.
        let line = try #require(String(contentsOfFile: ndjson, encoding: .utf8).split(separator: "\n").first { $0.contains("\"taskID\"") })
        let added = line.replacingOccurrences(of: "\"taskID\": ", with: "\"taskID\": 9") + "\n"
        try (String(contentsOfFile: ndjson, encoding: .utf8) + added).write(toFile: ndjson, atomically: true, encoding: .utf8)
        #expect(!(try SourceVerification.verify(store: request.outputPath, against: request).passed))
    }

    @Test("a source store's external data files are part of its input: one changed is migrated again and fails; one added, removed or renamed differs")
    func externalDataOfSourceStore() throws {
        let folder = try TestPaths.temporaryFolder("receipt-external")
        let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        let photo = #"<entity name="Photo"><attribute name="number" optional="YES" attributeType="Integer 64"/>"#
            + #"<attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>"#
        let bundlePath = try TestPaths.xcodeModelBundle("Photos", versions: [
            ("V1", header + photo + "</entity></model>"),
            ("V2", header + photo + #"<attribute name="caption" optional="YES" attributeType="String"/></entity></model>"#),
        ], in: folder)
        let bundle = try XcodeModelLoader.loadBundle(at: bundlePath)
        let v1 = try #require(bundle.version(named: "V1"))
        // Photo 1's image is in the file F1 beside the store, as Core Data moves a large value out.
        let source = folder + "/Photos.sqlite"
        let writer = try CoreDataStoreWriter.create(at: source, model: v1, versionHashes: VersionHasher.hashes(of: v1).entityHashes,
                                                    versionIdentifiers: [""])
        let photos = try writer.inserter(for: "Photo")
        try photos.insert(photos.columns.map { column in
            switch column.role {
            case .attribute(_, "number"): .integer(1)
            case .attribute(_, "image"): .blob([ExternalBinaryData.externalTag] + Array("F1".utf8) + [0])
            default: .null
            }
        })
        try writer.finish()
        let files = folder + "/.Photos_SUPPORT/_EXTERNAL_DATA"
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        try Data([7, 8, 9]).write(to: URL(fileURLWithPath: files + "/F1"))
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundlePath,
                                     outputPath: folder + "/Photos2.sqlite")
        _ = try MigrateJob(request: request).run()
        let intact = try SourceVerification.verify(store: request.outputPath, against: request)
        #expect(intact.passed && intact.notes.contains { $0.contains("by the store's receipt") }, "\(intact.notes)")

        // The .sqlite is untouched; the value it names is not what was migrated.
        try Data([7, 8, 10]).write(to: URL(fileURLWithPath: files + "/F1"))
        let changed = try SourceVerification.verify(store: request.outputPath, against: request)
        #expect(changed.notes.contains { $0.contains("migrated again") && $0.contains("source 1 (store)") }, "\(changed.notes)")
        #expect(!changed.passed)
        #expect(changed.section(named: "against sources")?.failures.map { "\($0.check) \($0.subject)" } == ["fingerprint-mismatch Photo"])
        try Data([7, 8, 9]).write(to: URL(fileURLWithPath: files + "/F1"))
        let inputs = try MigrationInputs.of(request, bundle: bundle)
        #expect(try MigrationInputs.of(request, bundle: bundle).differences(from: inputs).isEmpty)
        for (label, change, undo) in [
            ("added", { try Data([1]).write(to: URL(fileURLWithPath: files + "/F2")) }, { try FileManager.default.removeItem(atPath: files + "/F2") }),
            ("removed", { try FileManager.default.moveItem(atPath: files + "/F1", toPath: folder + "/F1") },
             { try FileManager.default.moveItem(atPath: folder + "/F1", toPath: files + "/F1") }),
            ("renamed", { try FileManager.default.moveItem(atPath: files + "/F1", toPath: files + "/F0") },
             { try FileManager.default.moveItem(atPath: files + "/F0", toPath: files + "/F1") }),
        ] as [(String, () throws -> Void, () throws -> Void)] {
            try change()
            #expect(try MigrationInputs.of(request, bundle: bundle).differences(from: inputs) == ["source 1 (store)"], "\(label)")
            try undo()
        }
        #expect(try SourceVerification.verify(store: request.outputPath, against: request).notes.contains { $0.contains("by the store's receipt") })
    }

    @Test("other options are other inputs: a variable changes the digest, the output path, batch size and reject limit do not")
    func optionsDigest() throws {
        let bundle = try XcodeModelLoader.loadBundle(at: model)
        let request = try request(in: try TestPaths.temporaryFolder("receipt"))
        let inputs = try MigrationInputs.of(request, bundle: bundle)
        var elsewhere = request
        elsewhere.outputPath = "/elsewhere.sqlite"
        elsewhere.batchSize = 7
        elsewhere.maxErrors = 100
        #expect(try MigrationInputs.of(elsewhere, bundle: bundle).differences(from: inputs).isEmpty)
        var zone = request
        zone.variables["zone"] = "UTC"
        #expect(try MigrationInputs.of(zone, bundle: bundle).differences(from: inputs) == ["options (variables)"])
        var reordered = request
        reordered.sources.swapAt(0, 1)
        #expect(try MigrationInputs.of(reordered, bundle: bundle).differences(from: inputs) == ["source 1 (file UploadEntity)", "source 2 (file UploadEntity)"])
        // Dictionaries render in one order whatever their insertion order.
        var many = request
        many.variables = ["a": "1", "b": "2", "c": "3", "d": "4", "zone": "Asia/Shanghai"]
        var manyAgain = request
        manyAgain.variables = ["zone": "Asia/Shanghai", "d": "4", "c": "3", "b": "2", "a": "1"]
        #expect(OptionsText.render(many) == OptionsText.render(manyAgain))
        #expect(OptionsText.render(many).contains("zone"))
    }

    @Test("standard input cannot be read again: its input never matches")
    func standardInput() {
        let input = MigrationInputs.Input(name: "source 1 (file Task)", digest: nil)
        #expect(MigrationInputs(inputs: [input]).differences(from: MigrationInputs(inputs: [input])) == ["source 1 (file Task)"])
    }

    /// Found by a hostile tester: the table kept the pair the sources give while the index
    /// Core Data reads the lists through named another task, and every fingerprint (read through
    /// that index, or of the table) matched the receipt: verify by receipt exited 0.
    @Test("an index that names another destination than its table fails verify by receipt and on a re-run, though the fingerprints match")
    func staleIndexAgainstReceipt() throws {
        let request = try request(in: try TestPaths.temporaryFolder("receipt"))
        _ = try MigrateJob(request: request).run()
        let database = try SQLiteDatabase(path: request.outputPath, mode: .readWrite)
        let upload = try #require(try database.scalarInteger("SELECT min(Z_PK) FROM ZUPLOAD WHERE ZTASK IS NOT NULL"))
        let task = try #require(try database.scalarInteger("SELECT ZTASK FROM ZUPLOAD WHERE Z_PK = \(upload)"))
        // The index and the table move the upload to another task; then the table alone moves it back.
        try database.execute("UPDATE ZUPLOAD SET ZTASK = (SELECT max(Z_PK) FROM ZTASK WHERE Z_PK <> \(task)) WHERE Z_PK = \(upload)")
        try database.close()
        let store = try VerifyStores.staleIndex(request.outputPath, "stale", index: "ZUPLOAD_ZTASK_INDEX",
                                                "UPDATE ZUPLOAD SET ZTASK = \(task) WHERE Z_PK = \(upload)")
        let report = try SourceVerification.verify(store: store, against: request)
        #expect(report.notes.contains { $0.contains("by the store's receipt") })
        #expect(report.failures.map { "\($0.check) \($0.subject)" } == ["stale-index Task.attachments"], "\(report.failures)")
        let again = try SourceVerification.verify(store: store, against: request, rerun: true)
        #expect(again.failures.map { "\($0.check) \($0.subject)" } == ["stale-index Task.attachments"], "\(again.failures)")
    }

    @Test("a deleted row fails by receipt: the fingerprint and the ledger's row count")
    func deletedRow() throws {
        let request = try request(in: try TestPaths.temporaryFolder("receipt"))
        _ = try MigrateJob(request: request).run()
        let database = try SQLiteDatabase(path: request.outputPath, mode: .readWrite)
        try database.execute("DELETE FROM ZUPLOAD WHERE Z_PK = (SELECT max(Z_PK) FROM ZUPLOAD WHERE ZTASK IS NULL)")
        try database.close()
        let report = try SourceVerification.verify(store: request.outputPath, against: request)
        #expect(report.notes.contains { $0.contains("by the store's receipt") })
        #expect(Set(report.failures.map(\.check)).isSuperset(of: ["fingerprint-count", "row-count"]), "\(report.failures.map(\.check))")
    }

    /// Found by the verify pass: another valid UUID in Z_METADATA passed every mode, though every
    /// object's URI then names another store.
    @Test("a store whose UUID was changed fails by receipt, naming both UUIDs")
    func changedStoreUUID() throws {
        let request = try request(in: try TestPaths.temporaryFolder("receipt"))
        _ = try MigrateJob(request: request).run()
        let written = try #require(try receipt(of: request.outputPath)?.storeUUID)
        #expect(try CoreDataStoreReader(path: request.outputPath).metadata.storeUUID.text == written)
        #expect(try SourceVerification.verify(store: request.outputPath, against: request).passed)
        let other = "00000000-0000-4000-8000-000000000001"
        let database = try SQLiteDatabase(path: request.outputPath, mode: .readWrite)
        try database.execute("UPDATE Z_METADATA SET Z_UUID = '\(other)'")
        try database.close()
        let report = try SourceVerification.verify(store: request.outputPath, against: request)
        #expect(report.failures.map(\.check) == ["store-uuid"], "\(report.failures)")
        #expect(report.failures.first?.message == "the store's UUID is \(other); the migration that wrote it gave it \(written)")
        // Migrating again gives a new UUID: the receipt still says which one the store had.
        #expect(try SourceVerification.verify(store: request.outputPath, against: request, rerun: true).failures.map(\.check) == ["store-uuid"])
    }
}
