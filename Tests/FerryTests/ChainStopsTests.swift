import Ferry
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A migration's chain stops at the source's version, the ends of written mappings and mapping
/// models, and the target; between them the mapping is inferred straight across, as Core Data
/// infers it from a store's version to the current one.
@Suite("version chains stop only where something must happen")
struct ChainStopsTests {
    private func version(_ attributes: [String]) -> String {
        let properties = attributes.map { #"<attribute name="\#($0)" optional="YES" attributeType="String"/>"# }.joined()
        return #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Note" representedClassName="Note" syncable="YES">\#(properties)</entity></model>"#
    }

    /// Imports one note in `from` and migrates it to the bundle's current (last-named) version.
    private func migrate(_ versions: [(String, [String])], from: String, name: String) throws -> (MigrationSummary, String) {
        let folder = try TestPaths.temporaryFolder(name)
        let bundle = try TestPaths.xcodeModelBundle("Notes", versions: versions.map { ($0.0, version($0.1)) }, in: folder)
        let source = folder + "/notes.json"
        try Data(#"[{"body": "hello", "pinned": "yes"}]"#.utf8).write(to: URL(fileURLWithPath: source))
        let store = folder + "/old.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [source], modelPath: bundle, modelVersion: from, entity: "Note", outputPath: store)).run()
        let out = folder + "/new.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: bundle,
                                                             outputPath: out)).run()
        return (summary, out)
    }

    @Test("a version between that lacks an attribute no longer loses its values (pinned was nil for every note, exit 0, verified)")
    func versionBetweenLacksAnAttribute() throws {
        let (summary, out) = try migrate([("Model 1", ["body", "pinned"]), ("Model 2", ["body"]), ("Model 3", ["body", "pinned", "color"])],
                                         from: "Model 1", name: "chain-between")
        #expect(summary.chains == [["Model 1", "Model 3"]])
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZBODY, ZPINNED FROM ZNOTE") == ["hello|yes"])
    }

    @Test("a plan with sources shows the steps and rules its run takes (it showed Model 1 → Model 2 → Model 3, pinned not carried, while the run kept it)")
    func planWithSourcesShowsTheRunsChain() throws {
        let folder = try TestPaths.temporaryFolder("chain-plan")
        let bundle = try TestPaths.xcodeModelBundle("Notes", versions: [("Model 1", version(["body", "pinned"])), ("Model 2", version(["body"])),
                                                                        ("Model 3", version(["body", "pinned", "color"]))], in: folder)
        let source = folder + "/notes.json"
        try Data(#"[{"body": "hello", "pinned": "yes"}]"#.utf8).write(to: URL(fileURLWithPath: source))
        let store = folder + "/old.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [source], modelPath: bundle, modelVersion: "Model 1", entity: "Note", outputPath: store)).run()
        let plan = try MigrationPlan(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: bundle, outputPath: ""))
        #expect(plan.chains == [["Model 1", "Model 3"]] && !plan.everyVersion)
        let note = try #require(plan.steps.first?.entities.first)
        #expect(note.attributes.first { $0.destination == "pinned" }?.rule == "copy pinned")
        #expect(note.droppedAttributes.isEmpty)
        let modelOnly = try MigrationPlan(modelPath: bundle)
        #expect(modelOnly.chains == [["Model 1", "Model 2", "Model 3"]] && modelOnly.everyVersion)
    }

    @Test("a lenient plan shows the rules its lenient run applies: written values that fail become nil")
    func lenientPlanShowsNilOnFailure() throws {
        var request = MigrateRequest(sources: [], modelPath: TestPaths.migrations + "/Workspace.xcdatamodeld", outputPath: "")
        let byteCount = { (plan: MigrationPlan) in
            plan.steps.last?.entities.first { $0.source == "Upload" }?.attributes.first { $0.destination == "byteCount" }?.rule
        }
        #expect(byteCount(try MigrationPlan(request: request)) == "= round(decimal(fileSize) * 1048576)")
        request.lenient = true
        #expect(byteCount(try MigrationPlan(request: request)) == "= round(decimal(fileSize) * 1048576) (nil when it fails)")
    }

    @Test("versions whose names sort out of their order: the store's version goes straight to the current one")
    func namesOutOfOrder() throws {
        let (summary, out) = try migrate([("Draft", ["body", "pinned"]), ("Legacy", ["body"]), ("Release", ["body", "pinned", "color"])],
                                         from: "Draft", name: "chain-names")
        #expect(summary.chains == [["Draft", "Release"]])
        #expect(try storeRows(out, "SELECT ZBODY, ZPINNED FROM ZNOTE") == ["hello|yes"])
    }

    @Test("values of an attribute the target lacks are dropped as Core Data drops them, and named with their count (migrate said nothing)")
    func droppedValuesAreNamed() throws {
        let (summary, out) = try migrate([("Model 1", ["body", "pinned"]), ("Model 2", ["body"])], from: "Model 1", name: "chain-dropped")
        #expect(summary.warnings.contains("1 value of Note.pinned not carried: Model 2 has no attribute they become"), "\(summary.warnings)")
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZBODY FROM ZNOTE") == ["hello"])
    }

    /// A model version holding `entities` (raw `<entity>` XML).
    private func model(_ entities: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + entities + "</model>"
    }

    /// Imports `json` as `entity` of the first version of `versions` and migrates the store to the last.
    private func migrateStore(_ versions: [(String, String)], entity: String, json: String, name: String) throws -> (MigrationSummary, String) {
        let folder = try TestPaths.temporaryFolder(name)
        let bundle = try TestPaths.xcodeModelBundle("M", versions: versions.map { ($0.0, model($0.1)) }, in: folder)
        let source = folder + "/records.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: source))
        let store = folder + "/old.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [source], modelPath: bundle, modelVersion: versions[0].0, entity: entity,
                                                 outputPath: store)).run()
        let out = folder + "/new.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: bundle,
                                                             outputPath: out)).run()
        return (summary, out)
    }

    @Test("an entity renamed A → B → C over versions is carried through B (the chain went M 1 → M 3, every A filtered, exit 0)")
    func entityRenameChain() throws {
        let attributes = #"<attribute name="s" optional="YES" attributeType="String"/>"#
        let (summary, out) = try migrateStore([("M 1", #"<entity name="A" syncable="YES">\#(attributes)</entity>"#),
                                               ("M 2", #"<entity name="B" elementID="A" syncable="YES">\#(attributes)</entity>"#),
                                               ("M 3", #"<entity name="C" elementID="B" syncable="YES">\#(attributes)</entity>"#)],
                                              entity: "A", json: #"[{"s": "hello"}, {"s": "world"}]"#, name: "chain-entity-rename")
        #expect(summary.chains == [["M 1", "M 2", "M 3"]])
        #expect(summary.ledgers.map(\.filtered) == [0] && summary.written["C"] == 2, "\(summary.ledgers)")
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZS FROM ZC ORDER BY Z_PK") == ["hello", "world"])
    }

    @Test("an attribute renamed a → b → c over versions keeps its values (c was nil for every record, exit 0)")
    func attributeRenameChain() throws {
        func item(_ name: String, _ identifier: String?) -> String {
            let id = identifier.map { #" elementID="\#($0)""# } ?? ""
            return #"<entity name="Item" syncable="YES"><attribute name="\#(name)" optional="YES" attributeType="String"\#(id)/>"#
                + #"<attribute name="k" optional="YES" attributeType="Integer 32"/></entity>"#
        }
        let (summary, out) = try migrateStore([("M 1", item("a", nil)), ("M 2", item("b", "a")), ("M 3", item("c", "b")), ("M 4", item("c", "b"))],
                                              entity: "Item", json: #"[{"a": "hello", "k": 1}]"#, name: "chain-attribute-rename")
        // M 3 → M 4 changes nothing: inferred straight across from M 2.
        #expect(summary.chains == [["M 1", "M 2", "M 4"]])
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZC, ZK FROM ZITEM") == ["hello|1"])
    }

    @Test("own records of an entity that becomes abstract are rejected with the reason (they were filtered, exit 0, only a hint)")
    func entityBecomesAbstract() throws {
        let dog = #"<entity name="Dog" parentEntity="Animal" syncable="YES"><attribute name="breed" optional="YES" attributeType="String"/></entity>"#
        let name = #"<attribute name="name" optional="YES" attributeType="String"/>"#
        let (summary, out) = try migrateStore([("M 1", #"<entity name="Animal" syncable="YES">\#(name)</entity>"# + dog),
                                               ("M 2", #"<entity name="Animal" isAbstract="YES" syncable="YES">\#(name)</entity>"# + dog)],
                                              entity: "Animal", json: #"[{"name": "generic"}]"#, name: "chain-abstract")
        let ledger = try #require(summary.ledgers.first { $0.entity == "Animal" })
        #expect(ledger.rejected == 1 && ledger.filtered == 0, "\(ledger)")
        #expect(summary.leftSomethingOut)
        #expect(summary.sampleRejects.first?.reason.contains("Animal is abstract in M 2: a written mapping must say which entity") == true,
                "\(summary.sampleRejects)")
        #expect(try storeRows(out, "SELECT COUNT(*) FROM ZANIMAL") == ["0"])
    }

    /// `Item` in three versions (V2 adds `extra`, V3 turns the text `size` into the number
    /// `bytes`) with `V1 to V3.mapping` beside them, and a store of V1 (three items) and of V2.
    private func spanningMapping(_ name: String) throws -> (folder: String, bundle: String, v1: String, v2: String) {
        let folder = try TestPaths.temporaryFolder(name)
        func item(_ attributes: [String]) -> String {
            #"<entity name="Item" representedClassName="Item" syncable="YES"><attribute name="itemID" attributeType="Integer 64" usesScalarValueType="YES"/>"#
                + attributes.map { #"<attribute name="\#($0)" optional="YES" attributeType="String"/>"# }.joined() + "</entity>"
        }
        let v3 = item(["extra"]).replacingOccurrences(of: "</entity>",
                                                      with: #"<attribute name="bytes" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#)
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("V1", model(item(["size"]))), ("V2", model(item(["size", "extra"]))), ("V3", model(v3))],
                                                    in: folder)
        try Data("mapping \"V1\" -> \"V3\"\nentity Item\n  bytes = round(decimal(size) * 1024)\n  where itemID != 2\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/V1 to V3.mapping"))
        func store(_ version: String, _ json: String) throws -> String {
            let source = folder + "/\(version).json", store = folder + "/\(version).sqlite"
            try Data(json.utf8).write(to: URL(fileURLWithPath: source))
            _ = try ImportJob(request: ImportRequest(sources: [source], modelPath: bundle, modelVersion: version, entity: "Item", outputPath: store)).run()
            return store
        }
        let v1 = try store("V1", #"[{"itemID": 1, "size": "1.5"}, {"itemID": 2, "size": "2"}, {"itemID": 3, "size": "3"}]"#)
        let v2 = try store("V2", #"[{"itemID": 10, "size": "1", "extra": "e"}]"#)
        return (folder, bundle, v1, v2)
    }

    @Test("a written mapping spanning versions is the step of its first version's records, also when another mapping ends between (it was skipped: item 2 written, bytes nil, exit 0)")
    func spanningMappingIsApplied() throws {
        let (folder, bundle, v1, _) = try spanningMapping("chain-span")
        try Data("mapping \"V2\" -> \"V3\"\nentity Item\n  bytes = 7\n".utf8).write(to: URL(fileURLWithPath: folder + "/V2 to V3.mapping"))
        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: v1, kind: .store)], modelPath: bundle, outputPath: out)).run()
        #expect(summary.chains == [["V1", "V3"]])
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZITEMID, ZBYTES FROM ZITEM ORDER BY ZITEMID") == ["1|1536", "3|3072"])
        let unread = folder + "/V2 to V3.mapping maps V2 → V3: no step reads it, as records cross V2 in the step V1 → V3 ('\(folder)/V1 to V3.mapping')"
        #expect(summary.warnings.contains(unread), "\(summary.warnings)")
        // The plan without sources shows the step too (it showed V1 → V2 → V3, neither step reading the file).
        let plan = try MigrationPlan(modelPath: bundle)
        #expect(plan.chains == [["V1", "V3"]])
        #expect(plan.steps.first?.entities.first?.filter == "itemID != 2")
        #expect(plan.warnings.contains(unread), "\(plan.warnings)")
    }

    @Test("a written mapping spanning the version of another source of the run is the step of its first version's records, the other source's taking their own way (the run was refused)")
    func spanningMappingOverASourceApplies() throws {
        let (folder, bundle, v1, v2) = try spanningMapping("chain-span-source")
        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: v1, kind: .store), MigrationSource(path: v2, kind: .store)],
                                                             modelPath: bundle, outputPath: out)).run()
        #expect(summary.chains == [["V1", "V3"], ["V2", "V3"]])
        // The file reads size; the inferred step of V2 drops it, as V3 has no size.
        #expect(summary.verification?.passed == true && summary.warnings == ["1 value of Item.size not carried: V3 has no attribute they become"],
                "\(summary.warnings)")
        // Item 2 filtered and bytes computed by the file; item 10 of V2 by the inferred step (no bytes).
        #expect(try storeRows(out, "SELECT ZITEMID, ZBYTES, ZEXTRA FROM ZITEM ORDER BY ZITEMID") == ["1|1536|NULL", "3|3072|NULL", "10|NULL|e"])
        // A store of V2 alone is no record the file is for: migrated, and the file named.
        let alone = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: v2, kind: .store)], modelPath: bundle,
                                                           outputPath: folder + "/v2out.sqlite")).run()
        #expect(alone.warnings.contains(folder + "/V1 to V3.mapping maps V1 → V3: no step reads it, as no source is of V1 or an earlier version"),
                "\(alone.warnings)")
    }

    /// The model of `E` in three versions, `x` absent from the middle one (V1 {a, x}, V2 {a},
    /// V3 {a, x, y}), a store of V1 whose record has an `x`, and a record of V2 as a file and as a store.
    private func middleVersionLacksAttribute(_ name: String) throws -> (folder: String, bundle: String, v1: String, v2File: String, v2Store: String) {
        let folder = try TestPaths.temporaryFolder(name)
        func entity(_ attributes: [String]) -> String {
            model(#"<entity name="E" representedClassName="E" syncable="YES">"#
                + attributes.map { #"<attribute name="\#($0)" optional="YES" attributeType="String"/>"# }.joined() + "</entity>")
        }
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("V1", entity(["a", "x"])), ("V2", entity(["a"])), ("V3", entity(["a", "x", "y"]))],
                                                    in: folder)
        let (e1, e2) = (folder + "/e1.json", folder + "/e2.json")
        try Data(#"[{"a": "one", "x": "keep me"}]"#.utf8).write(to: URL(fileURLWithPath: e1))
        try Data(#"[{"a": "two"}]"#.utf8).write(to: URL(fileURLWithPath: e2))
        let (v1, v2) = (folder + "/v1.sqlite", folder + "/v2.sqlite")
        _ = try ImportJob(request: ImportRequest(sources: [e1], modelPath: bundle, modelVersion: "V1", entity: "E", outputPath: v1)).run()
        _ = try ImportJob(request: ImportRequest(sources: [e2], modelPath: bundle, modelVersion: "V2", entity: "E", outputPath: v2)).run()
        return (folder, bundle, v1, e2, v2)
    }

    @Test("a store of V1 migrated with a source of V2 keeps the values of an attribute V2 lacks, as when migrated alone (they were dropped, exit 0, only a warning)",
          arguments: [false, true])
    func sourceOfAMiddleVersionTakesItsOwnWay(v2IsStore: Bool) throws {
        let (folder, bundle, v1, v2File, v2Store) = try middleVersionLacksAttribute("chain-own-way-\(v2IsStore)")
        let other = v2IsStore ? MigrationSource(path: v2Store, kind: .store) : MigrationSource(path: v2File, kind: .file(entity: "E", version: "V2"))
        let out = folder + "/mixed.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: v1, kind: .store), other], modelPath: bundle,
                                                             outputPath: out)).run()
        #expect(summary.chains == [["V1", "V3"], ["V2", "V3"]])
        #expect(summary.verification?.passed == true && summary.warnings.isEmpty, "\(summary.warnings)")
        #expect(try storeRows(out, "SELECT ZA, ZX FROM ZE ORDER BY ZA") == ["one|keep me", "two|NULL"])
        // The store's UUID is kept from the V1 store, as it is from the one store of a run.
        #expect(summary.identity?.keptFrom == v1)
        // The values both ways carry unchanged (a) are checked, not left out as carried by different routes.
        let report = try #require(summary.verification)
        #expect(report.section(named: "carried values")?.checks == 1 && report.notes.isEmpty, "\(report.notes)")
    }

    @Test("ferry plan and migrate with sources of two versions show each one's way, and the run keeps what its way carries (exit 0)")
    func planShowsEachWay() throws {
        let (folder, bundle, v1, v2File, _) = try middleVersionLacksAttribute("chain-own-way-plan")
        let plan = try MigrationPlan(request: MigrateRequest(sources: [MigrationSource(path: v1, kind: .store),
                                                                       MigrationSource(path: v2File, kind: .file(entity: "E", version: "V2"))],
                                                             modelPath: bundle, outputPath: ""))
        #expect(plan.chains == [["V1", "V3"], ["V2", "V3"]])
        #expect(plan.steps.map { "\($0.from) → \($0.to)" } == ["V1 → V3", "V2 → V3"])
        #expect(plan.steps.first?.entities.first?.attributes.first { $0.destination == "x" }?.rule == "copy x")
        let planned = try FerryProcess.run(["plan", v1, "E@V2:" + v2File, "--model", bundle])
        #expect(planned.status == 0 && planned.out.hasPrefix("model M: V1 → V3; V2 → V3\n"), "\(planned.out)\(planned.err)")
        let migrated = try FerryProcess.run(["migrate", v1, "E@V2:" + v2File, "--model", bundle, "--out", folder + "/out.sqlite"])
        #expect(migrated.status == 0 && migrated.out.hasPrefix("chains: V1 → V3; V2 → V3\n"), "\(migrated.out)\(migrated.err)")
        #expect(try storeRows(folder + "/out.sqlite", "SELECT ZA, ZX FROM ZE ORDER BY ZA") == ["one|keep me", "two|NULL"])
    }

    @Test("written mappings of two steps into the target that give one entity's duplicates different rules are refused, naming both files")
    func duplicateRulesOfTwoStepsDisagree() throws {
        let (folder, bundle, v1, v2File, _) = try middleVersionLacksAttribute("chain-own-way-unique")
        try Data("entity E\n  unique a keep first\n".utf8).write(to: URL(fileURLWithPath: folder + "/V1 to V3.mapping"))
        try Data("entity E\n  unique a keep newest\n".utf8).write(to: URL(fileURLWithPath: folder + "/V2 to V3.mapping"))
        let sources = [MigrationSource(path: v1, kind: .store), MigrationSource(path: v2File, kind: .file(entity: "E", version: "V2"))]
        let error = try #require(throws: MigrateError.self) {
            try MigrateJob(request: MigrateRequest(sources: sources, modelPath: bundle, outputPath: folder + "/out.sqlite")).run()
        }
        guard case let .duplicateRulesDisagree(entity, files, rules) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(entity == "E" && files == [folder + "/V1 to V3.mapping", folder + "/V2 to V3.mapping"], "\(error)")
        // Each as a written mapping gives it (`keep-first` is no rule a mapping takes).
        #expect(rules == ["unique a keep first", "unique a keep newest"], "\(rules)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
        // The same rule in both: one store, its duplicates merged by it across the ways.
        try Data("entity E\n  unique a keep newest\n".utf8).write(to: URL(fileURLWithPath: folder + "/V1 to V3.mapping"))
        try Data(#"[{"a": "one"}]"#.utf8).write(to: URL(fileURLWithPath: v2File))
        let summary = try MigrateJob(request: MigrateRequest(sources: sources, modelPath: bundle, outputPath: folder + "/out.sqlite")).run()
        #expect(summary.written["E"] == 1 && summary.ledgers.map(\.merged) == [0, 1], "\(summary.ledgers)")
    }

    /// CoreStore's evolution demo: V1 is current, V2 sorts after it, and a mapping model beside the
    /// bundle maps V2 → V1.
    private static let evolution = TestPaths.corpus + "/coredata/JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo"

    @Test("a store of a version named after the target goes there by the mapping model that maps it (it was 'no version matches this store')",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func versionAfterTargetByMappingModel() throws {
        let folder = try TestPaths.temporaryFolder("chain-after")
        let bundle = Self.evolution + "/Advanced.EvolutionDemo.V1.xcdatamodeld"
        let source = folder + "/creatures.json"
        try Data(#"[{"dnaCode": 7, "hasHead": true, "hasTail": false, "hasVertebrae": true, "numberOfFlippers": 4}]"#.utf8)
            .write(to: URL(fileURLWithPath: source))
        let store = folder + "/V2.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [source], modelPath: bundle, modelVersion: "Advanced.EvolutionDemo.V2",
                                                 entity: "Creature", outputPath: store)).run()
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: bundle,
                                                             outputPath: folder + "/V1.sqlite")).run()
        #expect(summary.chains == [["Advanced.EvolutionDemo.V2", "Advanced.EvolutionDemo.V1"]])
        #expect(summary.verification?.passed == true && summary.written["Creature"] == 1)

        // The same bundle without the mapping model: refused, saying why.
        let copy = folder + "/Advanced.EvolutionDemo.V1.xcdatamodeld"
        try FileManager.default.copyItem(atPath: bundle, toPath: copy)
        let error = try #require(throws: MigrateError.self) {
            try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: copy,
                                                   outputPath: folder + "/none.sqlite")).run()
        }
        #expect(error.description.contains("is of version Advanced.EvolutionDemo.V2, which comes after the target Advanced.EvolutionDemo.V1"),
                "\(error)")
    }

    /// Versions V1 {a}, V2 {a, n}, V3 (`last`: raw attributes of `E`), a file of V1 records with
    /// `a` "one", "one", "two", and `V1 to V2.mapping` giving `E` the rule `unique a keep first`.
    private func middleStepUnique(_ name: String, last: String) throws -> (bundle: String, source: String, out: String) {
        let folder = try TestPaths.temporaryFolder(name)
        func entity(_ attributes: String) -> String { model(#"<entity name="E" representedClassName="E" syncable="YES">\#(attributes)</entity>"#) }
        let (a, n) = (#"<attribute name="a" optional="YES" attributeType="String"/>"#, #"<attribute name="n" optional="YES" attributeType="String"/>"#)
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("V1", entity(a)), ("V2", entity(a + n)), ("V3", entity(last))], in: folder)
        try Data("entity E\n  unique a keep first\n".utf8).write(to: URL(fileURLWithPath: folder + "/V1 to V2.mapping"))
        let source = folder + "/e.json"
        try Data(#"[{"a": "one"}, {"a": "one"}, {"a": "two"}]"#.utf8).write(to: URL(fileURLWithPath: source))
        return (bundle, source, folder + "/out.sqlite")
    }

    @Test("a unique rule of a step before the target merges the duplicates in the store, its identity as later steps carry it (it was dropped: every duplicate written, exit 0)")
    func uniqueRuleOfAMiddleStep() throws {
        // V3 renames a to b.
        let (bundle, source, out) = try middleStepUnique("chain-middle-unique",
                                                         last: #"<attribute name="b" optional="YES" attributeType="String" elementID="a"/>"#)
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: source, kind: .file(entity: "E", version: "V1"))],
                                                             modelPath: bundle, outputPath: out)).run()
        #expect(summary.chains == [["V1", "V2", "V3"]])
        #expect(summary.ledgers.map(\.merged) == [1] && summary.verification?.passed == true, "\(summary.ledgers)")
        #expect(try storeRows(out, "SELECT ZB FROM ZE ORDER BY ZB") == ["one", "two"])
    }

    @Test("a unique rule of a step before the target naming an attribute no later step carries as it is is refused, naming the file (it was dropped, exit 0)")
    func uniqueRuleOfAMiddleStepNotCarried() throws {
        let (bundle, source, out) = try middleStepUnique("chain-middle-unique-lost", last: #"<attribute name="n" optional="YES" attributeType="String"/>"#)
        let error = try #require(throws: MigrateError.self) {
            try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: source, kind: .file(entity: "E", version: "V1"))],
                                                   modelPath: bundle, outputPath: out)).run()
        }
        guard case let .duplicateRuleNotCarried(path, entity, attribute, version, target) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(path.hasSuffix("/V1 to V2.mapping") && entity == "E" && attribute == "a" && version == "V3" && target == "V3", "\(error)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("values of one attribute that the ways of two versions drop into one version are one warning, their counts added (two lines said the same but for the count)")
    func droppedValuesOfTwoWaysAreOneLine() throws {
        let folder = try TestPaths.temporaryFolder("chain-two-ways-dropped")
        func entity(_ names: [String]) -> String {
            model(#"<entity name="E" representedClassName="E" syncable="YES">"#
                + names.map { #"<attribute name="\#($0)" optional="YES" attributeType="String"/>"# }.joined() + "</entity>")
        }
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("V1", entity(["a", "x", "z"])), ("V2", entity(["a", "z"])), ("V3", entity(["a", "x"]))],
                                                    in: folder)
        let (e1, e2) = (folder + "/e1.json", folder + "/e2.json")
        try Data(#"[{"a": "one", "z": "1"}]"#.utf8).write(to: URL(fileURLWithPath: e1))
        try Data(#"[{"a": "two", "z": "2"}, {"a": "three", "z": "3"}]"#.utf8).write(to: URL(fileURLWithPath: e2))
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: e1, kind: .file(entity: "E", version: "V1")),
                                                                       MigrationSource(path: e2, kind: .file(entity: "E", version: "V2"))],
                                                             modelPath: bundle, outputPath: folder + "/out.sqlite")).run()
        #expect(summary.chains == [["V1", "V3"], ["V2", "V3"]])
        #expect(summary.warnings == ["3 values of E.z not carried: V3 has no attribute they become"], "\(summary.warnings)")
    }

    @Test("a file naming a version after the target is refused as a store of one is (it was 'the model has no version' of a version it has, listing the chain's stops as its versions)")
    func fileOfAVersionAfterTheTarget() throws {
        let (folder, bundle, v1, v2File, _) = try middleVersionLacksAttribute("chain-file-after-target")
        for sources in [[MigrationSource(path: v2File, kind: .file(entity: "E", version: "V3"))],
                        [MigrationSource(path: v1, kind: .store), MigrationSource(path: v2File, kind: .file(entity: "E", version: "V3"))]] {
            let error = try #require(throws: MigrateError.self) {
                try MigrateJob(request: MigrateRequest(sources: sources, modelPath: bundle, targetVersion: "V2", outputPath: folder + "/out.sqlite")).run()
            }
            guard case let .sourceAfterTarget(source, version, target) = error else {
                Issue.record("\(error)")
                continue
            }
            #expect(source == v2File && version == "V3" && target == "V2", "\(error)")
        }
    }
}
