import FerryTestSupport
import Foundation
import Testing

/// `ferry inspect` of mapping models and compiled models, and `ferry plan` / `ferry migrate`
/// running a mapping model given on the command line.
extension CommandLineTests {
    private var wibosco: String { TestPaths.corpus + "/coredata/wibosco__CoreDataMigration-Example" }

    @Test("inspect prints a mapping model as Apple's compiler makes it, as text and JSON", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func inspectMappingModel() throws {
        let mapping = wibosco + "/CoreDataMigration-Example/CoreData/Migration/Mappings/Migration2to3.xcmappingmodel"
        let text = try ferry("inspect", mapping)
        #expect(text.status == 0)
        #expect(text.out.contains("entity mapping PostToPost (custom)") && text.out.contains("policy class     CoreDataMigration_Example.Post2ToPost3MigrationPolicy"))
        #expect(text.out.contains("entity mapping Color (add)") && text.out.contains("hexColor") == false)
        let json = try ferry("inspect", mapping, "--json")
        #expect(json.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        let mappings = report?["entityMappings"] as? [[String: Any]]
        #expect(mappings?.map { $0["name"] as? String } == ["Color", "PostToPost"])
        #expect(mappings?.last?["sourceExpression"] as? String
            == #"FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "Post", "TRUEPREDICATE"), $manager.sourceContext, NO)"#)
        let compiled = try ferry("inspect", TestPaths.corpus + "/coredata/alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/V2toV3.cdm")
        #expect(compiled.status == 0 && compiled.out.contains("entity mapping Maker (add)"))
    }

    @Test("inspect reads a compiled .momd like an .xcdatamodeld", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func inspectCompiledModel() throws {
        let run = try ferry("inspect", TestPaths.corpus + "/coredata/richardpiazza__XCServerCoreData/Tests/XCServerCoreData.momd")
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("model XCServerCoreData: 6 versions, current XCServerCoreData2.0.2"))
    }

    @Test("plan and migrate run a mapping model given with --mapping; a policy step is listed as refused and plan exits 3",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func planAndMigrateWithMapping() throws {
        let model = wibosco + "/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
        let mappings = wibosco + "/CoreDataMigration-Example/CoreData/Migration/Mappings"
        let plan = try ferry("plan", "--model", model, "--mapping", mappings + "/Migration1to2.xcmappingmodel",
                             "--mapping", mappings + "/Migration2to3.xcmappingmodel")
        #expect(plan.status == 3)
        #expect(plan.out.contains("step CoreDataMigration_Example → CoreDataMigration_Example 2 (mapping model \(mappings)/Migration1to2.xcmappingmodel)"))
        #expect(plan.out.contains("hexColor  copy color   mapping model"))
        #expect(plan.out.contains("cannot run: \(mappings)/Migration2to3.xcmappingmodel: entity mapping PostToPost: it runs the migration policy class CoreDataMigration_Example.Post2ToPost3MigrationPolicy"))
        let out = try TestPaths.temporaryFolder("cli-mapping") + "/out.sqlite"
        let migrate = try ferry("migrate", wibosco + "/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite",
                                "--model", model, "--model-version", "CoreDataMigration_Example 2", "--mapping", mappings + "/Migration1to2.xcmappingmodel",
                                "--out", out)
        #expect(migrate.status == 0, "\(migrate.err)")
        #expect(migrate.out.contains("written: Post 1001"))
    }

    @Test("mapping convert writes FROM to TO.mapping into a folder, with a todo per policy that plan reports; mistakes exit 2 or 3",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func convertMappingModel() throws {
        let model = wibosco + "/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
        let mapping = wibosco + "/CoreDataMigration-Example/CoreData/Migration/Mappings/Migration2to3.xcmappingmodel"
        let folder = try TestPaths.temporaryFolder("cli-convert")
        try FileManager.default.copyItem(atPath: model, toPath: folder + "/CoreDataMigration_Example.xcdatamodeld")
        let run = try ferry("mapping", "convert", mapping, "--model", model, "--out", folder)
        #expect(run.status == 0, "\(run.err)")
        let file = folder + "/CoreDataMigration_Example 2 to CoreDataMigration_Example 3.mapping"
        #expect(run.err.contains("wrote \(file) (CoreDataMigration_Example 2 → CoreDataMigration_Example 3)"))
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("mapping \"CoreDataMigration_Example 2\" -> \"CoreDataMigration_Example 3\"\n"))
        #expect(text.contains("\n  postID = postID\n  color <- nil\n"))
        #expect(text.contains("Read by no rule above: hexColor."))
        // A mapping file is meant to be edited: converting again never overwrites it unasked.
        try (text + "# edited\n").write(toFile: file, atomically: true, encoding: .utf8)
        let again = try ferry("mapping", "convert", mapping, "--model", model, "--out", folder)
        #expect(again.status == 4 && again.err.contains("exists (use --force to replace it"), "\(again.err)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("# edited\n"))
        #expect(try ferry("mapping", "convert", mapping, "--model", model, "--out", folder, "--force").status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
        let plan = try ferry("plan", "--model", folder + "/CoreDataMigration_Example.xcdatamodeld")
        #expect(plan.status == 3)
        #expect(plan.out.contains("cannot run: \(file):"), "\(plan.out)")
        #expect(plan.out.contains("the 'entity Post' block is unfinished: CoreDataMigration_Example.Post2ToPost3MigrationPolicy is not written yet"))
        #expect(try ferry("mapping", "convert", mapping).status == 2)
        #expect(try ferry("mapping", "convert", mapping, "--model", TestPaths.packageRoot + "/Migrations/Workspace.xcdatamodeld").status == 3)
        #expect(try ferry("mapping", "convert", folder + "/nothing.xcmappingmodel", "--model", model).status == 3)
    }
}
