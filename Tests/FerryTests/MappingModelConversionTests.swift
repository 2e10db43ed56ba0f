import Ferry
import FerryMigration
import FerryModel
import FerryStore
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// `ferry mapping convert` on the corpus: every mapping model converts to a written mapping that
/// loads; a declarative one's written mapping migrates exactly as the mapping model does; one with
/// a custom policy gets a `todo` that refuses its records, and once completed with what the
/// policy's code does, migrates the corpus store with that outcome.
@Suite("Core Data mapping models converted to written mappings", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct MappingModelConversionTests {
    private let coredata = TestPaths.corpus + "/coredata"
    private var wibosco: String { coredata + "/wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData" }
    private var wiboscoStores: String { coredata + "/wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite" }
    private var xcserver: String { coredata + "/richardpiazza__XCServerCoreData/Resources" }
    private var plus: String { coredata + "/alemar11__CoreDataPlus/Tests/Resources/SampleModel" }

    /// The converted text of a mapping model and the two versions it maps.
    private func convert(_ mappingPath: String, models: [String]) throws -> (text: String, source: ManagedObjectModel, destination: ManagedObjectModel) {
        let model = try MappingModelLoader.load(at: mappingPath)
        let bundles = try models.map { try XcodeModelLoader.loadBundle(at: $0) }
        let (source, destination) = try #require(MappingModelConversion.versions(mapped: model, in: bundles), "\(mappingPath)")
        return (MappingModelConversion.text(of: model, from: source, to: destination), source, destination)
    }

    /// A copy of a model bundle in a new folder, without the mapping models beside it, with a
    /// written mapping file `"FROM to TO.mapping"`.
    private func bundleCopy(_ model: String, mapping: String, from: String, to: String) throws -> String {
        let folder = try TestPaths.temporaryFolder("converted")
        let name = String(model.split(separator: "/").last ?? "")
        try FileManager.default.copyItem(atPath: model, toPath: folder + "/" + name)
        try mapping.write(toFile: folder + "/\(from) to \(to).mapping", atomically: true, encoding: .utf8)
        return folder + "/" + name
    }

    private func migrate(_ store: String, model: String, to target: String?, mappings: [String] = []) throws -> MigrationSummary {
        let out = try TestPaths.temporaryFolder("conversion-run") + "/out.sqlite"
        var request = MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: model, targetVersion: target, outputPath: out)
        request.mappingModels = mappings
        let summary = try MigrateJob(request: request).run()
        #expect(summary.isBalanced && summary.rejected == 0)
        for link in summary.links { #expect(link.resolved == link.links && link.unresolved == 0, "\(link)") }
        #expect(summary.verification?.passed == true, "\(summary.verification?.failures.prefix(3) ?? [])")
        return summary
    }

    private func rows(_ path: String, _ sql: String) throws -> [String] {
        let statement = try SQLiteDatabase(path: path, mode: .readOnly).prepare(sql)
        var result: [String] = []
        while try statement.step() { result.append((0..<statement.columnCount).map { statement.string(at: $0) ?? "nil" }.joined(separator: "|")) }
        return result
    }

    @Test("every xcmapping.xml of the corpus loads, and each converts to a written mapping that loads against its two versions")
    func everyMappingModelConverts() throws {
        let found = FileManager.default.enumerator(atPath: coredata)?.compactMap { $0 as? String }.filter { $0.hasSuffix("/xcmapping.xml") } ?? []
        #expect(found.count >= 8)
        var converted = 0
        for file in found.sorted() {
            let mappingPath = coredata + "/" + String(file.dropLast("/xcmapping.xml".count))
            let model = try MappingModelLoader.load(at: mappingPath)
            #expect(!model.entityMappings.isEmpty, "\(file)")
            // The models: every versioned model of the mapping model's project.
            let project = coredata + "/" + (file.split(separator: "/").first.map(String.init) ?? "")
            let candidates = (FileManager.default.enumerator(atPath: project)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".xcdatamodeld") }.map { project + "/" + $0 }
            let bundles = candidates.compactMap { try? XcodeModelLoader.loadBundle(at: $0) }
            guard let (source, destination) = MappingModelConversion.versions(mapped: model, in: bundles) else { continue }
            let text = MappingModelConversion.text(of: model, from: source, to: destination)
            let file = try MappingFile(text: text, path: "\(source.name) to \(destination.name).mapping")
            let step = try WrittenMapping.apply(file, to: MappingInference.infer(from: source, to: destination), source: source, destination: destination)
            // Exactly the entity mappings with a policy class are left to write.
            let policies = Set(model.entityMappings.filter { $0.migrationPolicyClassName != nil }.compactMap(\.sourceEntityName))
            #expect(Set(step.refused.map(\.source)) == policies, "\(file)")
            #expect(text.components(separatedBy: "\n  todo ").count - 1 == policies.count, "\(file)")
            converted += 1
        }
        // XcodeServer's two mapping models map versions kept in separate folders; the others all convert.
        #expect(converted >= 8)
    }

    /// Converts a declarative mapping model and migrates `store` twice, with the mapping model and
    /// with the converted file instead: the two stores have the same records, links and fingerprints.
    private func sameAsMappingModel(_ mappingPath: String, model: String, store: String, target: String?, given: Bool) throws {
        let (text, source, destination) = try convert(mappingPath, models: [model])
        #expect(!text.contains("\n  todo "))
        let byModel = try migrate(store, model: model, to: target, mappings: given ? [mappingPath] : [])
        let copy = try bundleCopy(model, mapping: text, from: source.name, to: destination.name)
        let plan = try MigrationPlan(modelPath: copy, target: target)
        #expect(plan.steps.allSatisfy { $0.mappingModel == nil && $0.refused.isEmpty })
        let byFile = try migrate(store, model: copy, to: target)
        #expect(byFile.written == byModel.written)
        #expect(byFile.links.map { "\($0.relationship) \($0.links)" }.sorted() == byModel.links.map { "\($0.relationship) \($0.links)" }.sorted())
        let (a, b) = (try #require(byModel.verification), try #require(byFile.verification))
        #expect(a.fingerprints == b.fingerprints && a.edgeFingerprints == b.edgeFingerprints)
        #expect(!a.fingerprints.isEmpty)
    }

    @Test("wibosco Migration1to2, converted, migrates its v1 store as the mapping model does")
    func wiboscoDeclarative() throws {
        try sameAsMappingModel(wibosco + "/Migration/Mappings/Migration1to2.xcmappingmodel", model: wibosco + "/Model/CoreDataMigration_Example.xcdatamodeld",
                               store: wiboscoStores + "/CoreDataMigration_Example_1.sqlite", target: "CoreDataMigration_Example 2", given: true)
    }

    @Test("XCServerCoreData 1.0.0 → 1.1.0 and 2.0.2 → 2.0.3, converted, migrate generated stores as the mapping models do",
          arguments: [("XCServerCoreData", "XCServerCoreData1.1.0", "MappingModel1.0.0to1.1.0"),
                      ("XCServerCoreData2.0.2", "XCServerCoreData2.0.3", "MappingModel2.0.2to2.0.3")])
    func xcserverDeclarative(from: String, to: String, mapping: String) throws {
        let model = xcserver + "/XCServerCoreData.xcdatamodeld"
        let version = try #require(XcodeModelLoader.loadBundle(at: model).version(named: from))
        let store = try TestPaths.temporaryFolder("generated") + "/\(from).sqlite"
        _ = try ModelStoreGenerator.write(version, count: 3, to: store)
        try sameAsMappingModel(xcserver + "/\(mapping).xcmappingmodel", model: model, store: store, target: to, given: false)
    }

    /// The converted text with its `todo` lines replaced by `rules`: the test's part of the
    /// conversion, what the policy's code does.
    private func completed(_ text: String, rules: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix("  todo ") ? rules : String($0) }.joined(separator: "\n")
    }

    @Test("XCServerCoreData 1.2.0 → 2.0.0: refused until completed; completed, three String dates are parsed from the corpus store")
    func xcserverDates() throws {
        let model = xcserver + "/XCServerCoreData.xcdatamodeld"
        let (text, source, destination) = try convert(xcserver + "/MappingModel1.2.0to2.0.0.xcmappingmodel", models: [model])
        #expect(text.contains("ran the migration policy class XCServerCoreData.IntegrationStringToDateMigrationPolicy"))
        let store = coredata + "/richardpiazza__XCServerCoreData/Tests/XCServerCoreData_1.2.0.sqlite"
        let unfinished = try bundleCopy(model, mapping: text, from: source.name, to: destination.name)
        let out = try TestPaths.temporaryFolder("unfinished") + "/out.sqlite"
        #expect(throws: (any Error).self) {
            try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: unfinished, outputPath: out)).run()
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        let pattern = "\"yyyy-MM-dd'T'HH:mm:ss.SSS'Z'\""
        let dates = ["queuedDate", "startedTime", "endedTime"]
        let done = completed(text, rules: "  # IntegrationStringToDateMigrationPolicy: three String dates become Dates\n"
                             + dates.map { "  \($0) = date(\($0), \(pattern))" }.joined(separator: "\n"))
        let summary = try migrate(store, model: try bundleCopy(model, mapping: done, from: source.name, to: destination.name), to: nil)
        #expect(summary.written["Integration"] == 24)
        let expected = try rows(store, "SELECT count(*) FROM ZINTEGRATION WHERE ZQUEUEDDATE IS NOT NULL AND ZSTARTEDTIME IS NOT NULL AND ZENDEDTIME IS NOT NULL")
        #expect(try rows(summary.outputPath, """
            SELECT count(*) FROM ZINTEGRATION WHERE typeof(ZQUEUEDDATE) = 'real' AND typeof(ZSTARTEDTIME) = 'real' AND typeof(ZENDEDTIME) = 'real'
              AND ZQUEUEDDATE <= ZSTARTEDTIME AND ZSTARTEDTIME <= ZENDEDTIME
            """) == expected)
        // 2017-06-07T18:04:24.757Z, in seconds since 2001.
        #expect(try rows(summary.outputPath, "SELECT count(*) FROM ZINTEGRATION WHERE ZQUEUEDDATE BETWEEN 518551464.756 AND 518551464.758") == ["1"])
    }

    @Test("CoreDataPlus V2 → V3: every car's maker string finds or creates one Maker, linked as createdBy, for cars, sport cars and luxury cars")
    func coreDataPlusMakers() throws {
        let model = plus + "/SampleModel.xcdatamodeld"
        let (text, source, destination) = try convert(plus + "/MappingModels/V2toV3.xcmappingmodel", models: [model])
        #expect(text.components(separatedBy: "ran the migration policy class REPLACE_AT_RUNTIME.V2to3MakerPolicy").count == 4)
        let done = completed(text, rules: "  createdBy = Maker(name: maker)   # V2to3MakerPolicy: find or create the Maker named by the car")
        let store = plus + "/Fixtures/SampleModel_V2.sqlite"
        let summary = try migrate(store, model: try bundleCopy(model, mapping: done, from: source.name, to: destination.name), to: "SampleModel3")
        let makers = try rows(store, "SELECT DISTINCT ZMAKER FROM ZCAR WHERE ZMAKER IS NOT NULL ORDER BY 1")
        #expect(makers.count >= 2)
        #expect(try rows(summary.outputPath, "SELECT ZNAME FROM ZMAKER ORDER BY 1") == makers)
        #expect(try rows(summary.outputPath, """
            SELECT c.ZNUMBERPLATE || '|' || m.ZNAME FROM ZCAR c JOIN ZMAKER m ON c.ZCREATEDBY = m.Z_PK ORDER BY 1
            """) == rows(store, "SELECT ZNUMBERPLATE || '|' || ZMAKER FROM ZCAR WHERE ZMAKER IS NOT NULL ORDER BY 1"))
        #expect(try rows(summary.outputPath, "SELECT count(*) FROM ZCAR") == rows(store, "SELECT count(*) FROM ZCAR"))
    }

    @Test("wibosco Migration2to3: one Color per Post, its hex the post's hexColor, none shared, on the corpus v2 store")
    func wiboscoColors() throws {
        let model = wibosco + "/Model/CoreDataMigration_Example.xcdatamodeld"
        let (text, source, destination) = try convert(wibosco + "/Migration/Mappings/Migration2to3.xcmappingmodel", models: [model])
        #expect(text.contains("# entity mapping Color (add) makes no Color by itself"))
        let done = completed(text, rules: "  color = new Color(colorID: text(uuid(postID, date)), hex: hexColor)   # Post2ToPost3MigrationPolicy")
        let store = wiboscoStores + "/CoreDataMigration_Example_2.sqlite"
        let summary = try migrate(store, model: try bundleCopy(model, mapping: done, from: source.name, to: destination.name),
                                  to: "CoreDataMigration_Example 3")
        let posts = try rows(store, "SELECT count(*) FROM ZPOST")
        #expect(summary.written["Color"].map(String.init) == posts.first)
        #expect(try rows(summary.outputPath, "SELECT count(DISTINCT ZCOLOR) FROM ZPOST WHERE ZCOLOR IS NOT NULL") == posts)
        #expect(try rows(summary.outputPath, "SELECT p.ZPOSTID || '|' || c.ZHEX FROM ZPOST p JOIN ZCOLOR c ON p.ZCOLOR = c.Z_PK ORDER BY 1")
            == rows(store, "SELECT ZPOSTID || '|' || ZHEXCOLOR FROM ZPOST ORDER BY 1"))
        #expect(try rows(summary.outputPath, "SELECT count(*) FROM ZCOLOR c JOIN ZPOST p ON c.ZPOST = p.Z_PK") == posts)
    }
}
