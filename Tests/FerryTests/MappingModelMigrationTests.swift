import Ferry
import FerryMigration
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// Apple's mapping models of the corpus run as steps of `ferry migrate`: each declarative one
/// migrates a store of its source version (the corpus store where there is one, else a store Ferry
/// writes from generated records) with every record and link accounted for and the result
/// verifying; each one with a custom migration policy is refused, naming the class, the entity
/// mapping and what to do instead, and a written mapping block converts it.
@Suite("ferry migrate with Core Data mapping models", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct MappingModelMigrationTests {
    private let coredata = TestPaths.corpus + "/coredata"
    private var wibosco: String { coredata + "/wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData" }
    private var wiboscoStores: String { coredata + "/wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite" }
    private var xcserver: String { coredata + "/richardpiazza__XCServerCoreData/Resources" }

    /// Migrates one store and checks that every record is written and every link resolved, that
    /// the store verified, and that the step ran the mapping model.
    private func migrate(_ store: String, model: String, to target: String?, mappings: [String] = [],
                         expectedLinks: [String: Int]? = nil) throws -> (summary: MigrationSummary, out: String) {
        let out = try TestPaths.temporaryFolder("mapping-model") + "/out.sqlite"
        var request = MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: model, targetVersion: target, outputPath: out)
        request.mappingModels = mappings
        let summary = try MigrateJob(request: request).run()
        #expect(summary.isBalanced)
        for ledger in summary.ledgers { #expect(ledger.read == ledger.written, "\(ledger.entity): \(ledger)") }
        for link in summary.links { #expect(link.resolved == link.links && link.unresolved == 0 && link.conflicts == 0, "\(link)") }
        if let expectedLinks {
            #expect(Dictionary(summary.links.map { ($0.relationship, $0.links) }, uniquingKeysWith: +).filter { $0.value > 0 } == expectedLinks)
        }
        let report = try #require(summary.verification)
        #expect(report.passed, "\(report.failures.prefix(3))")
        let plan = try MigrationPlan(modelPath: model, target: target, mappingModels: mappings)
        #expect(plan.steps.contains { $0.mappingModel != nil && $0.refused.isEmpty })
        return (summary, out)
    }

    private func rows(_ path: String, _ sql: String) throws -> [String] {
        let statement = try SQLiteDatabase(path: path, mode: .readOnly).prepare(sql)
        var result: [String] = []
        while try statement.step() { result.append((0..<statement.columnCount).map { statement.string(at: $0) ?? "nil" }.joined(separator: "|")) }
        return result
    }

    @Test("wibosco Migration1to2 on its v1 store: hexColor is the v1 color, as its mapping model says (inference would drop it)")
    func wiboscoOneToTwo() throws {
        let store = wiboscoStores + "/CoreDataMigration_Example_1.sqlite"
        let (summary, out) = try migrate(store, model: wibosco + "/Model/CoreDataMigration_Example.xcdatamodeld", to: "CoreDataMigration_Example 2",
                                         mappings: [wibosco + "/Migration/Mappings/Migration1to2.xcmappingmodel"])
        #expect(summary.written == ["Post": 1001])
        #expect(try rows(out, "SELECT Z_PK, ZHEXCOLOR, ZDATE, ZPOSTID FROM ZPOST ORDER BY Z_PK")
            == rows(store, "SELECT Z_PK, ZCOLOR, ZDATE, ZPOSTID FROM ZPOST ORDER BY Z_PK"))
        #expect(try rows(out, "SELECT count(*) FROM ZPOST WHERE ZHEXCOLOR IS NULL") == ["0"])
    }

    /// A store of an XCServerCoreData version written from generated records, and what it holds.
    private func generatedStore(version: String, count: Int = 3) throws -> (path: String, written: ModelStoreGenerator.Written) {
        let bundle = try XcodeModelLoader.loadBundle(at: xcserver + "/XCServerCoreData.xcdatamodeld")
        let model = try #require(bundle.version(named: version))
        let path = try TestPaths.temporaryFolder("generated") + "/\(version).sqlite"
        return (path, try ModelStoreGenerator.write(model, count: count, to: path))
    }

    @Test("XCServerCoreData 1.0.0 → 1.1.0 and 2.0.2 → 2.0.3, found beside the model, on stores written from generated records",
          arguments: [("XCServerCoreData", "XCServerCoreData1.1.0"), ("XCServerCoreData2.0.2", "XCServerCoreData2.0.3")])
    func xcserver(from: String, to: String) throws {
        let (store, written) = try generatedStore(version: from)
        let (summary, _) = try migrate(store, model: xcserver + "/XCServerCoreData.xcdatamodeld", to: to, expectedLinks: written.links)
        #expect(summary.written == written.records)
        #expect(summary.chains.map(\.last) == [to])
    }

    @Test("XcodeServer's 2.0.0 mapping model renames every entity (transform mappings, relationship mappings by source mapping name)")
    func xcodeServerTransform() throws {
        let sources = coredata + "/richardpiazza__XcodeServer/Sources"
        let bundle = try TestPaths.temporaryFolder("xcodeserver") + "/XcodeServer.xcdatamodeld"
        for (version, folder) in [("XcodeServer 1.1.0", "XcodeServerModel_1_1_0"), ("XcodeServer 2.0.0", "XcodeServerModel_2_0_0")] {
            try FileManager.default.createDirectory(atPath: bundle + "/\(version).xcdatamodel", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(sources)/\(folder)/Resources/XcodeServer.xcdatamodeld/XcodeServer.xcdatamodel/contents",
                                             toPath: bundle + "/\(version).xcdatamodel/contents")
        }
        let old = try #require(XcodeModelLoader.loadBundle(at: bundle).version(named: "XcodeServer 1.1.0"))
        let store = try TestPaths.temporaryFolder("generated") + "/1.1.0.sqlite"
        let written = try ModelStoreGenerator.write(old, count: 3, to: store)
        let (summary, _) = try migrate(store, model: bundle, to: nil,
                                       mappings: ["\(sources)/XcodeServerModel_2_0_0/Resources/MappingModel.cdm_precompiled"],
                                       expectedLinks: Dictionary(uniqueKeysWithValues: written.links.map { ("Managed" + $0.key, $0.value) }))
        #expect(summary.written == Dictionary(uniqueKeysWithValues: written.records.map { ("Managed" + $0.key, $0.value) }))
    }

    /// The refusal a migration of `store` ends with.
    private func refusal(_ store: String, model: String, to target: String? = nil, mappings: [String] = []) throws -> String {
        let out = try TestPaths.temporaryFolder("refused") + "/out.sqlite"
        var request = MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: model, targetVersion: target, outputPath: out)
        request.mappingModels = mappings
        do {
            _ = try MigrateJob(request: request).run()
        } catch {
            #expect(!FileManager.default.fileExists(atPath: out), "nothing is written")
            return error.description
        }
        Issue.record("\(store) migrated")
        return ""
    }

    @Test("each mapping model with a custom policy is refused: which class, which entity mapping, what to do instead")
    func policiesAreRefused() throws {
        let plus = coredata + "/alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures"
        let evolution = coredata + "/JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo"
        let creatures = try #require(XcodeModelLoader.loadBundle(at: evolution + "/Advanced.EvolutionDemo.V1.xcdatamodeld").version(named: "Advanced.EvolutionDemo.V1"))
        let creatureStore = try TestPaths.temporaryFolder("generated") + "/creatures.sqlite"
        _ = try ModelStoreGenerator.write(creatures, count: 2, to: creatureStore)
        let cases: [(message: String, className: String, mapping: String, entity: String)] = [
            (try refusal(wiboscoStores + "/CoreDataMigration_Example_2.sqlite", model: wibosco + "/Model/CoreDataMigration_Example.xcdatamodeld",
                         mappings: [wibosco + "/Migration/Mappings/Migration2to3.xcmappingmodel"]),
             "CoreDataMigration_Example.Post2ToPost3MigrationPolicy", "PostToPost", "Post"),
            (try refusal(coredata + "/richardpiazza__XCServerCoreData/Tests/XCServerCoreData_1.2.0.sqlite", model: xcserver + "/XCServerCoreData.xcdatamodeld"),
             "XCServerCoreData.IntegrationStringToDateMigrationPolicy", "IntegrationToIntegration", "Integration"),
            // The compiled model and the compiled mapping model beside it.
            (try refusal(plus + "/SampleModel_V2.sqlite", model: plus + "/SampleModel.momd", to: "SampleModel3"),
             "REPLACE_AT_RUNTIME.V2to3MakerPolicy", "CarToCar", "Car"),
            (try refusal(creatureStore, model: evolution + "/Advanced.EvolutionDemo.V1.xcdatamodeld", to: "Advanced.EvolutionDemo.V2"),
             "Advanced_EvolutionDemo_V2_FromV1MigrationPolicy", "CreatureToCreature", "Creature"),
        ]
        for (message, className, mapping, entity) in cases {
            #expect(message.contains("entity mapping \(mapping): it runs the migration policy class \(className), app code Ferry cannot run"), "\(message)")
            #expect(message.contains("write what it does as a written mapping, an 'entity \(entity)' block in"), "\(message)")
        }
    }

    @Test("a written mapping block converts a refused entity mapping: XCServerCoreData 1.2.0's store crosses its policy step")
    func writtenBlockConvertsPolicy() throws {
        let store = coredata + "/richardpiazza__XCServerCoreData/Tests/XCServerCoreData_1.2.0.sqlite"
        let (summary, out) = try migrate(store, model: ConvertedXCServerModel.bundle, to: nil)
        #expect(summary.written["Integration"] == 24)
        // 2017-06-07T18:04:24.757Z, in seconds since 2001.
        #expect(try rows(out, "SELECT ZQUEUEDDATE FROM ZINTEGRATION WHERE ZQUEUEDDATE BETWEEN 518551464.756 AND 518551464.758").count == 1)
        let plan = try MigrationPlan(modelPath: ConvertedXCServerModel.bundle)
        let step = try #require(plan.steps.first { $0.to == "XCServerCoreData2.0.0" })
        #expect(step.refused.isEmpty && step.mappingModel?.hasSuffix("MappingModel1.2.0to2.0.0.xcmappingmodel") == true)
        #expect(step.entities.first { $0.source == "Integration" }?.attributes.first { $0.destination == "queuedDate" }?.origin == "written")
        #expect(step.entities.first { $0.source == "Integration" }?.attributes.first { $0.destination == "successStreak" }?.rule == "copy success_streak")
    }

    /// V3 a copy of V2 (the same hashes): Migration1to2 was taken as a step V1 → V3 across V2, and
    /// the written V2 → V3 mapping went unread (a warning), its rules not applied, exit 0.
    @Test("a mapping model maps the versions its hashes are nearest: not across a version of the same hashes, whose written step still runs")
    func mappingModelStopsAtNearestVersion() throws {
        let folder = try TestPaths.temporaryFolder("nearest-mapping-model")
        let bundle = folder + "/M.xcdatamodeld"
        let versions = wibosco + "/Model/CoreDataMigration_Example.xcdatamodeld"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        for (from, to) in [("CoreDataMigration_Example", "V1"), ("CoreDataMigration_Example 2", "V2"), ("CoreDataMigration_Example 2", "V3")] {
            try FileManager.default.copyItem(atPath: versions + "/" + from + ".xcdatamodel", toPath: bundle + "/" + to + ".xcdatamodel")
        }
        try #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>V3.xcdatamodel</string></dict></plist>"#
            .write(toFile: bundle + "/.xccurrentversion", atomically: true, encoding: .utf8)
        try "mapping \"V2\" -> \"V3\"\nentity Post\n  postID = \"FIXED-\" + postID\n".write(toFile: folder + "/V2 to V3.mapping", atomically: true, encoding: .utf8)
        let store = folder + "/v1.sqlite"
        try FileManager.default.copyItem(atPath: wiboscoStores + "/CoreDataMigration_Example_1.sqlite", toPath: store)
        let out = folder + "/out.sqlite"
        let run = try FerryProcess.run(["migrate", store, "--model", bundle, "--mapping", wibosco + "/Migration/Mappings/Migration1to2.xcmappingmodel", "--out", out])
        #expect(run.status == 0 && !run.err.contains("no step reads it"), "\(run.out)\(run.err)")
        #expect(try storeRows(out, "SELECT count(*) = sum(ZPOSTID LIKE 'FIXED-%') AND count(*) > 0 FROM ZPOST") == ["1"])
    }

    @Test("a mapping model given that maps no step of the chain is a mistake")
    func unusedMappingModel() throws {
        let given = wibosco + "/Migration/Mappings/Migration1to2.xcmappingmodel"
        #expect(throws: MigrateError.self) {
            try MigrationPlan(modelPath: xcserver + "/XCServerCoreData.xcdatamodeld", mappingModels: [given])
        }
        do { _ = try MigrationPlan(modelPath: xcserver + "/XCServerCoreData.xcdatamodeld", mappingModels: [given]) } catch {
            #expect(error.description.hasPrefix("\(given): maps no step of the chain XCServerCoreData → "))
        }
        // One whose hashes are those of two versions says why no step reads it: it said their hashes
        // were those of no two consecutive versions.
        let folder = try TestPaths.temporaryFolder("unused-mapping-model")
        let store = folder + "/v2.sqlite"
        try FileManager.default.copyItem(atPath: wiboscoStores + "/CoreDataMigration_Example_2.sqlite", toPath: store)
        let run = try FerryProcess.run(["plan", store, "--model", wibosco + "/Model/CoreDataMigration_Example.xcdatamodeld", "--mapping", given])
        #expect(run.status == 3 && run.err.contains("\(given): maps no step of the chain CoreDataMigration_Example 2 → CoreDataMigration_Example 4: "
            + "maps CoreDataMigration_Example → CoreDataMigration_Example 2: no step reads it, as no source is of CoreDataMigration_Example or an earlier version"),
                "\(run.err)")
    }
}
