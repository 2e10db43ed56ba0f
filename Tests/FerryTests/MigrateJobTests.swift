import Ferry
import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerify
import Foundation
import Synchronization
import Testing

/// The multi-version models of the corpus and a real store of an older version of each.
/// (wibosco's v1 store is not among them: v3 makes `Post.color` required, which only its mapping
/// model's app code fills; see `unfilledFromTheOtherSideRejectsRecords`. XCServerCoreData's 1.2.0 store
/// crosses a step whose mapping model, beside the model, runs app code: it migrates with the
/// written mapping that converts it, `ConvertedXCServerModel`; an absolute bundle path is used as it is.)
private let corpusMigrations: [(store: String, bundle: String, target: String?)] = [
    ("wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_3.sqlite",
     "wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", nil),
    ("wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_WAL.sqlite",
     "wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", nil),
    ("alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V1.sqlite",
     "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld", "SampleModel3"),
    ("alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite",
     "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld", "SampleModel3_v3"),
    ("richardpiazza__XCServerCoreData/Tests/XCServerCoreData_1.2.0.sqlite", ConvertedXCServerModel.bundle, nil),
    ("richardpiazza__XCServerCoreData/Tests/XCServerCoreData_2.0.1.sqlite",
     "richardpiazza__XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld", nil),
] + (1...6).map { version in
    // apptentive's six model versions (framework 419–754, no model cache: read through the XML model).
    ("apptentive__apptentive-ios/Apptentive/ApptentiveTests/data/ATDataModelv\(version).sqlite",
     "apptentive__apptentive-ios/Apptentive/Apptentive/Model/ATDataModel.xcdatamodeld", nil)
} + ["Moody", "Moody 2", "Moody 3", "Moody 4", "Moody 5"].map { name in
    // objc.io's Moody chain (framework 637, stores with a -wal) to Moody 6.
    ("objcio__core-data/Migrations/MigrationsTests/\(name).moody", "objcio__core-data/Migrations/Migrations/Moody.xcdatamodeld", nil)
}

@Suite("ferry migrate: real stores of older versions to the newest", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct CorpusMigrationTests {
    private let coredata = TestPaths.corpus + "/coredata"

    private func sqliteMaster(_ path: String) throws -> [String] {
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let statement = try database.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        var rows: [String] = []
        while try statement.step() { rows.append(statement.string(at: 0) ?? "") }
        return rows
    }

    @Test("every record accounted for; the new store has the target version's layout and hashes", arguments: corpusMigrations.indices)
    func migrate(_ index: Int) throws {
        let (store, bundlePath, target) = corpusMigrations[index]
        let folder = try TestPaths.temporaryFolder("migrate")
        let out = folder + "/out.sqlite"
        let modelPath = bundlePath.hasPrefix("/") ? bundlePath : "\(coredata)/\(bundlePath)"
        let request = MigrateRequest(sources: [MigrationSource(path: "\(coredata)/\(store)", kind: .store)],
                                     modelPath: modelPath, targetVersion: target, outputPath: out)
        let summary = try MigrateJob(request: request).run()
        #expect(summary.isBalanced)
        #expect(summary.rejected == 0, "\(summary.sampleRejects.prefix(3))")
        let source = try CoreDataStoreReader(path: "\(coredata)/\(store)")
        let bundle = try XcodeModelLoader.loadBundle(at: modelPath)
        let targetModel = try #require(bundle.version(named: target ?? bundle.currentVersionName))
        // Every record is written, or dropped because a later version of the chain has no such
        // entity (apptentive's ATTextMessage; Moody 5 drops Continent, which Moody 6 adds again),
        // as Core Data's inferred mapping drops them.
        for ledger in summary.ledgers {
            #expect(ledger.read == ledger.written + ledger.filtered, "\(ledger.entity): \(ledger)")
            let later = bundle.versions.drop { $0.name != ledger.version }.dropFirst()
            #expect(ledger.filtered == 0 || later.contains { $0.entity(named: ledger.entity) == nil }, "\(ledger.entity): \(ledger)")
        }
        #expect(summary.ledgers.reduce(0) { $0 + $1.read } == Int(try source.primaryKeys.filter { $0.superNumber == 0 }
            .reduce(Int64(0)) { $0 + (try source.count(for: $1.name)) }))
        for link in summary.links { #expect(link.unresolved == 0 && link.conflicts == 0, "\(link)") }

        let written = try CoreDataStoreReader(path: out)
        #expect(written.metadata.versionHashes == VersionHasher.hashes(of: targetModel).entityHashes)
        // Object identity: the store keeps its UUID, as Core Data keeps it when it migrates.
        #expect(written.metadata.storeUUID == source.metadata.storeUUID)
        #expect(summary.identity?.keptFrom == "\(coredata)/\(store)")
        // Same tables, columns and indexes as a store created empty for the target version.
        let empty = folder + "/empty.sqlite"
        let hashes = VersionHasher.hashes(of: targetModel)
        let fresh = try CoreDataStoreWriter.create(at: empty, model: targetModel, versionHashes: hashes.entityHashes, versionIdentifiers: [""])
        try fresh.finish()
        #expect(try sqliteMaster(out) == sqliteMaster(empty))
        #expect(try SQLiteDatabase(path: out, mode: .readOnly).scalarText("PRAGMA integrity_check") == "ok")
    }

    @Test("a migrated store that fails verification replaces nothing, --force included")
    func failedVerificationReplacesNothing() throws {
        let folder = try TestPaths.temporaryFolder("migrate-fails")
        let out = folder + "/out.sqlite"
        let original = Data("a good store, kept as it is".utf8)
        try original.write(to: URL(fileURLWithPath: out))
        let bundle = try TestPaths.xcodeModelBundle("Items", versions: [("Items", NestedRecordImportTests.itemsOfMadeProducts)], in: folder)
        // A reference makes a Product (named by its code only) that lacks its required maker: the
        // item is written with it, and the store fails verification.
        try #"[{"qty": 1, "product": {"code": "P2"}}]"#.write(toFile: folder + "/items.json", atomically: true, encoding: .utf8)
        var request = MigrateRequest(sources: [MigrationSource(path: folder + "/items.json", kind: .file(entity: "Item", version: nil))],
                                     modelPath: bundle, outputPath: out)
        request.replaceExisting = true
        let summary = try MigrateJob(request: request).run()
        let report = try #require(summary.verification)
        #expect(!report.passed)
        #expect(report.failures.contains { $0.check == "required-relationship" && $0.subject == "Product.maker" })
        #expect(summary.discarded == "it failed verification")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["Items.xcdatamodeld", "items.json", "out.sqlite"])
    }

    @Test("records whose required to-one a source could fill from the other side, and none does, are rejects of their store; the store verifies")
    func unfilledFromTheOtherSideRejectsRecords() throws {
        let folder = try TestPaths.temporaryFolder("migrate-other-side")
        let example = "\(coredata)/wibosco__CoreDataMigration-Example"
        // Colors whose post link could fill each Post's required color, and fills none: the posts
        // were written without one, and the whole run failed verification (exit 5).
        try ##"[{"hex": "#ffffff"}]"##.write(toFile: folder + "/colors.json", atomically: true, encoding: .utf8)
        let store = "\(example)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(
            sources: [MigrationSource(path: store, kind: .store),
                      MigrationSource(path: folder + "/colors.json", kind: .file(entity: "Color", version: "CoreDataMigration_Example 4"))],
            modelPath: "\(example)/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld", outputPath: folder + "/v4.sqlite")).run()
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification?.failures))")
        #expect(summary.rejected > 0 && summary.written["Post", default: 0] == 0 && summary.written["Color", default: 0] == 1)
        let first = try #require(summary.sampleRejects.first)
        #expect(first.entity == "Post" && first.reason == "required relationship 'color' is empty: no record of the run gives it", "\(first)")
        #expect(first.location.description.hasSuffix("/CoreDataMigration_Example_1.sqlite Z_PK 1"), "\(first.location)")
    }

    @Test("a required to-one that nothing in the run fills (new in the target version) rejects each record, as Core Data would refuse it")
    func unfilledRequiredRejectsRecords() throws {
        let folder = try TestPaths.temporaryFolder("migrate-unfilled")
        let example = "\(coredata)/wibosco__CoreDataMigration-Example"
        // Post.color is new and required in version 3, and Color new: the whole run failed
        // verification (exit 5) after writing every post, the plan having said nothing.
        let summary = try MigrateJob(request: MigrateRequest(
            sources: [MigrationSource(path: "\(example)/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite",
                                      kind: .store)],
            modelPath: "\(example)/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld",
            targetVersion: "CoreDataMigration_Example 3", outputPath: folder + "/v3.sqlite")).run()
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification?.failures))")
        #expect(summary.rejected == 5979 && summary.written["Post", default: 0] == 0)
        let first = try #require(summary.sampleRejects.first)
        #expect(first.entity == "Post" && first.reason == "required relationship 'color' is empty (Core Data refuses to save the object without a destination)")
        #expect(first.location.description.hasSuffix("/CoreDataMigration_Example_2.sqlite Post Z_PK 1"), "\(first.location)")
        // The plan says so before a run finds it.
        let plan = try MigrationPlan(modelPath: "\(example)/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld")
        #expect(plan.warnings.contains("a store of CoreDataMigration_Example 2: every Post record is rejected, as Post.color is required in "
            + "CoreDataMigration_Example 4 and nothing fills it (a written rule can make its destination, or the relationship be optional)"),
                "\(plan.warnings)")
    }

    @Test("every object keeps its Z_PK and Z_OPT, so the URIs apps saved stay valid")
    func objectIdentity() throws {
        let store = "\(coredata)/richardpiazza__XCServerCoreData/Tests/XCServerCoreData_1.2.0.sqlite"
        let out = try TestPaths.temporaryFolder("identity") + "/out.sqlite"
        _ = try MigrateJob(request: MigrateRequest(
            sources: [MigrationSource(path: store, kind: .store)], modelPath: ConvertedXCServerModel.bundle, outputPath: out)).run()
        let before = try SQLiteDatabase(path: store, mode: .readOnly)
        let after = try SQLiteDatabase(path: out, mode: .readOnly)
        func identities(_ database: SQLiteDatabase, _ table: String) throws -> [String] {
            let rows = try database.prepare("SELECT Z_PK, Z_OPT FROM \(table) ORDER BY Z_PK")
            var result: [String] = []
            while try rows.step() { result.append("\(rows.int64(at: 0)):\(rows.int64(at: 1))") }
            return result
        }
        var compared = 0
        for table in ["ZBOT", "ZINTEGRATION", "ZDEVICE", "ZREPOSITORY", "ZXCODESERVER"] {
            let source = try identities(before, table)
            #expect(try identities(after, table) == source, "\(table)")
            compared += source.count
        }
        #expect(compared > 0)
        #expect(try before.scalarInteger("SELECT count(*) FROM ZINTEGRATION WHERE Z_OPT > 1") ?? 0 > 0)
    }

    @Test("the many-to-many edges of a store arrive intact")
    func manyToMany() throws {
        let store = "\(coredata)/richardpiazza__XCServerCoreData/Tests/XCServerCoreData_2.0.1.sqlite"
        let out = try TestPaths.temporaryFolder("migrate") + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(
            sources: [MigrationSource(path: store, kind: .store)],
            modelPath: "\(coredata)/richardpiazza__XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld", outputPath: out)).run()
        #expect(summary.isBalanced)
        for table in ["Z_8REPOSITORIES", "Z_9DEVICESPECIFICATIONS", "Z_9INTEGRATIONS"] {
            let before = try SQLiteDatabase(path: store, mode: .readOnly).scalarInteger("SELECT count(*) FROM \(table)")
            let after = try SQLiteDatabase(path: out, mode: .readOnly).scalarInteger("SELECT count(*) FROM \(table)")
            #expect(before == after && (before ?? 0) > 0, "\(table)")
        }
    }

    @Test("a store no version matches, a missing target version, an existing destination: errors, nothing written")
    func badInput() throws {
        let folder = try TestPaths.temporaryFolder("migrate")
        let wrong = MigrateRequest(
            sources: [MigrationSource(path: "\(coredata)/\(corpusMigrations[0].store)", kind: .store)],
            modelPath: "\(coredata)/alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld", outputPath: folder + "/a.sqlite")
        let error = try #require(throws: MigrateError.self) { try MigrateJob(request: wrong).run() }
        #expect(error.description.contains("no version of the model matches this store"))
        var missingVersion = wrong
        missingVersion.targetVersion = "SampleModel9"
        #expect(throws: MigrateError.self) { try MigrateJob(request: missingVersion).run() }
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/exists.sqlite"))
        var existing = MigrateRequest(sources: [MigrationSource(path: "\(coredata)/\(corpusMigrations[0].store)", kind: .store)],
                                      modelPath: "\(coredata)/\(corpusMigrations[0].bundle)", outputPath: folder + "/exists.sqlite")
        #expect(throws: MigrateError.self) { try MigrateJob(request: existing).run() }
        existing.outputPath = folder + "/no/such/folder/out.sqlite"
        #expect(throws: MigrateError.self) { try MigrateJob(request: existing).run() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["exists.sqlite"])
    }
}

@Suite("migration sources and plans")
struct MigrationPlanTests {
    /// A Workspace 2 store in a new folder, and the request that migrates it to `W3.sqlite` beside it.
    private func workspace2Migration(_ name: String) throws -> (folder: String, store: String, request: MigrateRequest) {
        let folder = try TestPaths.temporaryFolder(name)
        let store = try ExportTestSupport.workspace2Store(folder)
        var request = MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: ExportTestSupport.workspace,
                                     outputPath: folder + "/W3.sqlite")
        request.variables = ["zone": "UTC"]
        return (folder, store, request)
    }

    /// A store written while it was migrated sometimes failed as records lost (exit 5: "the store
    /// holds 19909 rows, 19910 were read"), when the counts were compared before the file stamps.
    @Test("a source store written during the run is reported as changed while it was read, whichever check sees it first")
    func sourceWrittenDuringTheRun() throws {
        let (folder, store, request) = try workspace2Migration("source-changed")
        let written = Mutex(false)
        let error = try #require(throws: MigrateError.self) {
            try MigrateJob(request: request).run { _ in
                guard !written.withLock({ $0 }) else { return }
                written.withLock { $0 = true }
                let database = try? SQLiteDatabase(path: store, mode: .readWrite)
                try? database?.execute("INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME) "
                                       + "VALUES (1000, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'), 1, 'late')")
                try? database?.close()
            }
        }
        #expect(written.withLock { $0 })
        #expect(error.description.contains("changed while it was read"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/W3.sqlite"))
    }

    @Test("the chain starts at the oldest source's version: a store already at the target is no Workspace 2 → 3 migration")
    func chainStartsAtTheSources() throws {
        var (folder, _, request) = try workspace2Migration("chain-start")
        #expect(try MigrateJob(request: request).run().chains == [["Workspace 2", "Workspace 3"]])
        request.sources = [MigrationSource(path: folder + "/W3.sqlite", kind: .store)]
        request.outputPath = folder + "/again.sqlite"
        let current = try MigrateJob(request: request).run()
        #expect(current.chains == [["Workspace 3"]])
        #expect(current.ledgers.allSatisfy { $0.version == "Workspace 3" && $0.rejected == 0 })
    }

    @Test("source arguments: a store path, ENTITY:FILE and ENTITY@VERSION:FILE")
    func sourceArguments() {
        #expect(MigrationSource(argument: "data/Upload.sqlite") == MigrationSource(path: "data/Upload.sqlite", kind: .store))
        #expect(MigrationSource(argument: "UploadEntity:uploads.csv") == MigrationSource(path: "uploads.csv", kind: .file(entity: "UploadEntity", version: nil)))
        #expect(MigrationSource(argument: "Task@Workspace 2:tasks.json")
                == MigrationSource(path: "tasks.json", kind: .file(entity: "Task", version: "Workspace 2")))
        #expect(MigrationSource(argument: "./dir:x/store.sqlite") == MigrationSource(path: "./dir:x/store.sqlite", kind: .store))
    }

    @Test("the Workspace plan: renames by renaming identifier, widening, new and dropped attributes")
    func workspacePlan() throws {
        let plan = try MigrationPlan(modelPath: TestPaths.migrations + "/Workspace.xcdatamodeld")
        #expect(plan.chains == [["Workspace 1", "Workspace 2", "Workspace 3"]])
        let first = try #require(plan.steps.first)
        let task = try #require(first.entities.first { $0.source == "KYTask" })
        #expect(task.destination == "Task")
        #expect(task.attributes.first { $0.destination == "title" }?.rule == "copy taskTitle")
        #expect(task.attributes.first { $0.destination == "priority" }?.rule == "convert taskLevel Integer 16 → Integer 32 (lossless)")
        #expect(first.added == ["Tag"])
        let upload = try #require(first.entities.first { $0.source == "UploadEntity" })
        #expect(upload.attributes.first { $0.destination == "remotePath" }?.rule == "copy urlPath")
        let second = try #require(plan.steps.last)
        let uploads3 = try #require(second.entities.first { $0.source == "Upload" })
        // The written mapping reads fileSize, fileType and time for the new attributes.
        #expect(uploads3.droppedAttributes.isEmpty)
        #expect(uploads3.attributes.first { $0.destination == "byteCount" }.map { [$0.rule, $0.origin] }
                == ["= round(decimal(fileSize) * 1048576)", "written"])
        #expect(uploads3.duplicates == "on uploadID: keep-first")
        let tasks3 = try #require(second.entities.first { $0.source == "Task" })
        #expect(tasks3.droppedAttributes.isEmpty)
        #expect(tasks3.duplicates == "keep-newest")
    }

    @Test("inference on the billmoss models: a rename by elementID, a chain of five versions")
    func billmoss() throws {
        let path = TestPaths.corpus + "/coredata/billmoss__CoreDataMigrations-LightweightMigration/CoreDataMigration/Model.xcdatamodeld"
        guard TestPaths.corpusAvailable else { return }
        let bundle = try XcodeModelLoader.loadBundle(at: path)
        #expect(bundle.versions.count == 5)
        for (from, to) in zip(bundle.versions, bundle.versions.dropFirst()) {
            let mapping = MappingInference.infer(from: from, to: to)
            #expect(mapping.droppedEntities.isEmpty, "\(from.name) → \(to.name)")
            for entity in mapping.entities {
                let model = to
                let renamed = model.allAttributes(of: entity.destination).filter { $0.renamingIdentifier != nil }
                for attribute in renamed {
                    guard case let .copy(source) = entity.rule(for: attribute.name)?.rule else {
                        Issue.record("\(to.name).\(entity.destination).\(attribute.name) not carried by its renaming identifier")
                        continue
                    }
                    // Carried from the attribute that had this identifier: by name (the first
                    // version of a rename) or by the same identifier (later versions).
                    let origin = try #require(from.allAttributes(of: entity.source).first { $0.name == source })
                    #expect(origin.name == attribute.renamingIdentifier || origin.renamingIdentifier == attribute.renamingIdentifier)
                }
            }
        }
    }

    @Test("two entities matching one source (a split by renaming identifier): the first takes its records, the other is new, and a hint says so")
    func splitByRenamingIdentifier() throws {
        let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        let folder = try TestPaths.temporaryFolder("split")
        let bundle = try XcodeModelLoader.loadBundle(at: try TestPaths.xcodeModelBundle("Split", versions: [
            ("V1", header + #"<entity name="Item"><attribute name="name" attributeType="String"/></entity></model>"#),
            ("V2", header + #"<entity name="Left" elementID="Item"><attribute name="name" attributeType="String"/></entity>"#
                + #"<entity name="Right" elementID="Item"><attribute name="name" attributeType="String"/></entity></model>"#),
        ], in: folder))
        let mapping = MappingInference.infer(from: try #require(bundle.version(named: "V1")), to: try #require(bundle.version(named: "V2")))
        // The plan listed Item → Right too, a mapping no record ever took.
        #expect(mapping.entities.map { "\($0.source) → \($0.destination)" } == ["Item → Left"])
        #expect(mapping.addedEntities == ["Right"])
        #expect(mapping.suggestions.contains { $0.hasPrefix("entities Left and Right both match Item: its records become Left objects") })
        // A declared rename takes the records before an entity that only shares the old name,
        // whichever comes first (the review's case: a new Contact and Person renamed from Contact).
        let renamed = try XcodeModelLoader.loadBundle(at: try TestPaths.xcodeModelBundle("Rename", versions: [
            ("V1", header + #"<entity name="Contact"><attribute name="name" attributeType="String"/></entity></model>"#),
            ("V2", header + #"<entity name="Contact"><attribute name="name" attributeType="String"/></entity>"#
                + #"<entity name="Person" elementID="Contact"><attribute name="name" attributeType="String"/></entity></model>"#),
        ], in: folder))
        let rename = MappingInference.infer(from: try #require(renamed.version(named: "V1")), to: try #require(renamed.version(named: "V2")))
        #expect(rename.entities.map { "\($0.source) → \($0.destination)" } == ["Contact → Person"] && rename.addedEntities == ["Contact"])
    }

    @Test("a property carried to a rename by its identifier is not also copied into a new property that took its old name")
    func renamedPropertyFeedsOneDestination() throws {
        let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        let person = #"<entity name="Person"><attribute name="pname" attributeType="String"/></entity>"#
        let folder = try TestPaths.temporaryFolder("renamed-property")
        // V2 holds y, renamed from x; V3 renames it to z (the same identifier) and adds a new y,
        // and does the same to the relationship boss, now chief, beside a new boss.
        let bundle = try XcodeModelLoader.loadBundle(at: try TestPaths.xcodeModelBundle("Renamed", versions: [
            ("V2", header + #"<entity name="Item"><attribute name="y" elementID="x" attributeType="String"/>"#
                + #"<relationship name="boss" elementID="owner" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/></entity>"#
                + person + "</model>"),
            ("V3", header + #"<entity name="Item"><attribute name="y" attributeType="String"/><attribute name="z" elementID="x" attributeType="String"/>"#
                + #"<relationship name="boss" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>"#
                + #"<relationship name="chief" elementID="owner" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/></entity>"#
                + person + "</model>"),
        ], in: folder))
        let mapping = MappingInference.infer(from: try #require(bundle.version(named: "V2")), to: try #require(bundle.version(named: "V3")))
        let item = try #require(mapping.entities.first { $0.destination == "Item" })
        // Both y and z copied y's values, and both boss and chief the old owner links (exit 0).
        guard case .copy("y") = item.rule(for: "z")?.rule, case .defaultValue = item.rule(for: "y")?.rule else {
            Issue.record("z should copy y and y take its default: \(item.attributes)")
            return
        }
        #expect(item.relationships.map { "\($0.source) → \($0.destination)" } == ["boss → chief"])
        #expect(mapping.suggestions.contains { $0.hasPrefix("Item.y is new: Item.y is carried to z by its renaming identifier") })
    }

    /// V2 renamed `name` to `title` (identifier `name`) and added a new `name`: the two share an
    /// identifier, and a V2 store migrated to V3, which changes neither, came out with every
    /// record's name and title swapped (and every Item a Thing, for entities), verified, exit 0.
    @Test("elements sharing a renaming identifier with a namesake on both sides each map to their namesake, attributes and entities")
    func sharedIdentifierKeepsNamesakes() throws {
        let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        let folder = try TestPaths.temporaryFolder("shared-identifier")
        let item = #"<entity name="Item"><attribute name="name" optional="YES" attributeType="String"/>"#
            + #"<attribute name="title" optional="YES" elementID="name" attributeType="String"/></entity>"#
        let things = #"<entity name="Thing" elementID="Item"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
            + #"<entity name="Item"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
        let bundle = try XcodeModelLoader.loadBundle(at: try TestPaths.xcodeModelBundle("Shared", versions: [
            ("V2", header + item + "</model>"),
            ("V3", header + #"<entity name="Other"><attribute name="flag" optional="YES" attributeType="Boolean"/></entity>"# + item + "</model>"),
            ("W2", header + things + "</model>"),
            ("W3", header + things.replacingOccurrences(of: #"<entity name="Item">"#, with: #"<entity name="Item"><attribute name="added" optional="YES" attributeType="String"/>"#) + "</model>"),
        ], in: folder))
        let attributes = MappingInference.infer(from: try #require(bundle.version(named: "V2")), to: try #require(bundle.version(named: "V3")))
        let items = try #require(attributes.entities.first { $0.destination == "Item" })
        guard case .copy("name") = items.rule(for: "name")?.rule, case .copy("title") = items.rule(for: "title")?.rule else {
            Issue.record("name and title should each copy themselves: \(items.attributes)")
            return
        }
        let entities = MappingInference.infer(from: try #require(bundle.version(named: "W2")), to: try #require(bundle.version(named: "W3")))
        #expect(entities.entities.map { "\($0.source) → \($0.destination)" }.sorted() == ["Item → Item", "Thing → Thing"])
    }

    @Test("an object that cannot keep its Z_PK (its entity joined another's table, whose object has it) is named in a warning, not renumbered silently")
    func renumberedObjectsAreReported() throws {
        let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        let folder = try TestPaths.temporaryFolder("renumbered")
        let bundle = try TestPaths.xcodeModelBundle("Rides", versions: [
            ("V1", header + #"<entity name="Vehicle"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
                + #"<entity name="Bike"><attribute name="label" optional="YES" attributeType="String"/></entity></model>"#),
            ("V2", header + #"<entity name="Vehicle"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
                + #"<entity name="Bike" parentEntity="Vehicle"/></model>"#),
        ], in: folder)
        try #"[{"label": "truck"}]"#.write(toFile: folder + "/vehicles.json", atomically: true, encoding: .utf8)
        try #"[{"label": "bmx"}]"#.write(toFile: folder + "/bikes.json", atomically: true, encoding: .utf8)
        var first = MigrateRequest(sources: [MigrationSource(argument: "Vehicle@V1:\(folder)/vehicles.json"),
                                             MigrationSource(argument: "Bike@V1:\(folder)/bikes.json")],
                                   modelPath: bundle, outputPath: folder + "/v1.sqlite")
        first.targetVersion = "V1"
        _ = try MigrateJob(request: first).run()
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: folder + "/v1.sqlite", kind: .store)],
                                                             modelPath: bundle, outputPath: folder + "/v2.sqlite")).run()
        #expect(summary.warnings.contains { $0.contains("1 object of the store whose UUID is kept got a new Z_PK") }, "\(summary.warnings)")
        #expect(try storeRows(folder + "/v2.sqlite", "SELECT count(DISTINCT Z_PK) FROM ZVEHICLE") == ["2"])
    }

    @Test("each root keeps the Z_MAX of the source roots whose objects it receives (two roots merged by a new parent take the larger), never another root's")
    func primaryKeyMaximaStayPerRoot() throws {
        let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        let person = #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let folder = try TestPaths.temporaryFolder("zmax-per-root")
        let bundle = try TestPaths.xcodeModelBundle("Riders", versions: [
            ("V1", header + #"<entity name="Vehicle"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
                + #"<entity name="Bike"><attribute name="label" optional="YES" attributeType="String"/></entity>"# + person + "</model>"),
            ("V2", header + #"<entity name="Vehicle"><attribute name="label" optional="YES" attributeType="String"/></entity>"#
                + #"<entity name="Bike" parentEntity="Vehicle"/>"# + person + "</model>"),
        ], in: folder)
        try #"[{"label": "truck"}]"#.write(toFile: folder + "/vehicles.json", atomically: true, encoding: .utf8)
        try #"[{"label": "bmx"}, {"label": "racer"}]"#.write(toFile: folder + "/bikes.json", atomically: true, encoding: .utf8)
        try #"[{"name": "ann"}]"#.write(toFile: folder + "/people.json", atomically: true, encoding: .utf8)
        var first = MigrateRequest(sources: ["Vehicle@V1:\(folder)/vehicles.json", "Bike@V1:\(folder)/bikes.json",
                                             "Person@V1:\(folder)/people.json"].map { MigrationSource(argument: $0) },
                                   modelPath: bundle, outputPath: folder + "/v1.sqlite")
        first.targetVersion = "V1"
        _ = try MigrateJob(request: first).run()
        // Objects deleted in the app: each root's Z_MAX stays above its rows, Bike's far above.
        let database = try SQLiteDatabase(path: folder + "/v1.sqlite", mode: .readWrite)
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 40 WHERE Z_NAME = 'Bike'; UPDATE Z_PRIMARYKEY SET Z_MAX = 7 WHERE Z_NAME = 'Person'")
        try database.close()
        let maxima = "SELECT Z_NAME || '=' || Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_NAME"

        // The same version, with one more person from a file: it takes Person's next key.
        var same = MigrateRequest(sources: [MigrationSource(path: folder + "/v1.sqlite", kind: .store),
                                            MigrationSource(argument: "Person@V1:\(folder)/people.json")],
                                  modelPath: bundle, outputPath: folder + "/same.sqlite")
        same.targetVersion = "V1"
        let kept = try MigrateJob(request: same).run()
        #expect(kept.verification?.passed == true, "\(kept.verification.map(VerificationReportText.render) ?? "")")
        #expect(try storeRows(folder + "/same.sqlite", maxima) == ["Bike=40", "Person=8", "Vehicle=1"])
        #expect(try storeRows(folder + "/same.sqlite", "SELECT Z_PK FROM ZPERSON ORDER BY Z_PK") == ["1", "8"])

        // Bike joins Vehicle's table: the hierarchy keeps Bike's 40, and the bike whose key the
        // truck kept gets the next one; Person keeps its own 7.
        let merged = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: folder + "/v1.sqlite", kind: .store)],
                                                            modelPath: bundle, outputPath: folder + "/v2.sqlite")).run()
        #expect(merged.verification?.passed == true, "\(merged.verification.map(VerificationReportText.render) ?? "")")
        #expect(try storeRows(folder + "/v2.sqlite", maxima) == ["Bike=0", "Person=7", "Vehicle=41"])
        #expect(try storeRows(folder + "/v2.sqlite", "SELECT Z_PK FROM ZVEHICLE ORDER BY Z_PK") == ["1", "2", "41"])
    }

    /// Person's Z_MAX of 1 below its keys 1–3: a file's new person, listed first, took key 2, and
    /// the kept objects 2 and 3 moved to 4 and 5 (new URIs under the kept UUID), verified, exit 0.
    @Test("a kept store whose Z_MAX is below its own keys keeps every object's key: new records take keys above its rows")
    func keptKeysAboveALowZMax() throws {
        let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        let folder = try TestPaths.temporaryFolder("zmax-below-keys")
        let person = #"<entity name="Person"><attribute name="name" optional="YES" attributeType="String"/></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Low", versions: [("V1", header + person), ("V2", header + person.replacingOccurrences(
            of: "</entity>", with: #"<attribute name="note" optional="YES" attributeType="String"/></entity>"#))], in: folder)
        try #"[{"name": "a1"}, {"name": "a2"}, {"name": "a3"}]"#.write(toFile: folder + "/people.json", atomically: true, encoding: .utf8)
        try #"[{"name": "new"}]"#.write(toFile: folder + "/new.json", atomically: true, encoding: .utf8)
        var first = MigrateRequest(sources: [MigrationSource(argument: "Person@V1:\(folder)/people.json")], modelPath: bundle, outputPath: folder + "/v1.sqlite")
        first.targetVersion = "V1"
        _ = try MigrateJob(request: first).run()
        let database = try SQLiteDatabase(path: folder + "/v1.sqlite", mode: .readWrite)
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Person'")
        try database.close()
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(argument: "Person@V2:\(folder)/new.json"),
                                                                       MigrationSource(path: folder + "/v1.sqlite", kind: .store)],
                                                             modelPath: bundle, outputPath: folder + "/v2.sqlite")).run()
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(folder + "/v2.sqlite", "SELECT Z_PK || ':' || ZNAME FROM ZPERSON ORDER BY Z_PK") == ["1:a1", "2:a2", "3:a3", "4:new"])
    }

    @Test("an inferred mapping written as a file reads back as the same rules")
    func inferredMappingFileRoundTrip() throws {
        let bundle = try XcodeModelLoader.loadBundle(at: TestPaths.migrations + "/Workspace.xcdatamodeld")
        let (from, to) = (try #require(bundle.version(named: "Workspace 1")), try #require(bundle.version(named: "Workspace 2")))
        let inferred = MappingInference.infer(from: from, to: to)
        let text = MappingFileWriter.text(for: inferred)
        let written = try WrittenMapping.apply(try MappingFile(text: text, path: "inferred.mapping"), to: inferred, source: from, destination: to)
        for entity in inferred.entities {
            let reread = try #require(written.mapping(forSource: entity.source))
            #expect(reread.destination == entity.destination)
            for attribute in entity.attributes {
                #expect(reread.rule(for: attribute.destination)?.rule.sourceAttributes == attribute.rule.sourceAttributes, "\(attribute.destination)")
            }
        }
        // A typo in the file is reported with its line and column.
        let broken = text.replacingOccurrences(of: "title = taskTitle", with: "title = taskTitel")
        let error = try #require(throws: MappingError.self) {
            try WrittenMapping.apply(try MappingFile(text: broken, path: "broken.mapping"), to: inferred, source: from, destination: to)
        }
        #expect(error.description.hasPrefix("broken.mapping:"), "\(error)")
        #expect(error.description.contains("taskTitel"))
    }

    /// A block maps its entity's own records: `where` on Vehicle still wrote the Car it names,
    /// with no word that the filter did not reach it (mapping-model semantics, undocumented).
    @Test("a written block whose rules do not reach its entity's sub-entities names those without a block of their own")
    func blockRulesDoNotReachSubentities() throws {
        func entity(_ name: String, parent: String? = nil) -> Entity {
            Entity(name: name, parentName: parent, attributes: parent == nil ? [Attribute(name: "plate", type: .string)] : [])
        }
        let model = ManagedObjectModel(name: "V1", entities: [entity("Vehicle"), entity("Car", parent: "Vehicle"),
                                                              entity("SportsCar", parent: "Car"), entity("Truck", parent: "Vehicle")])
        var next = model
        next.name = "V2"
        let inferred = MappingInference.infer(from: model, to: next)
        func hints(_ text: String) throws -> [String] {
            try WrittenMapping.apply(try MappingFile(text: text, path: "m.mapping"), to: inferred, source: model, destination: next)
                .suggestions.filter { $0.contains("own records only") }
        }
        #expect(try hints("entity Vehicle\n  where plate != \"C1\"\n") == [
            "the 'entity Vehicle' block (m.mapping:1) maps Vehicle's own records only: those of Car, Truck, SportsCar follow none of its rules "
                + "(an 'entity Car' block of their own does)",
        ])
        #expect(try hints("entity Vehicle\n  where plate != \"C1\"\nentity Car\ndrop Truck\n").first?.contains("those of SportsCar follow") == true)
        #expect(try hints("entity Vehicle\n").isEmpty)
    }

    @Test("a migration of one store keeps the application's own metadata keys beside its receipt, as Core Data's migration does")
    func migrationKeepsApplicationMetadata() throws {
        let folder = try TestPaths.temporaryFolder("migrate-metadata")
        let store = try ExportTestSupport.workspace2Store(folder)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        let read = try database.prepare("SELECT Z_PLIST FROM Z_METADATA")
        #expect(try read.step())
        guard case .dictionary(var entries) = try PropertyList.decode(read.bytes(at: 0) ?? []) else { Issue.record("no metadata"); return }
        read.finalize()
        entries["AppSchemaRevision"] = .integer(7)
        let update = try database.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
        try update.bindBlob(try BinaryPropertyListWriter().encode(.dictionary(entries)), at: 1)
        try update.run()
        update.finalize()
        try database.close()
        let migrated = folder + "/W3.sqlite"
        let run = try FerryProcess.run(["migrate", store, "--model", ExportTestSupport.workspace, "--var", "zone=UTC", "--out", migrated])
        #expect(run.status <= 1, "\(run.err)")  // the fixtures hold rejects
        let metadata = try CoreDataStoreReader(path: migrated).metadata.applicationEntries
        #expect(metadata["AppSchemaRevision"] == .integer(7))
        #expect(metadata.keys.contains { $0 != "AppSchemaRevision" }, "the receipt is there too: \(metadata.keys)")
    }
}
