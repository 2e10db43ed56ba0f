import Ferry
import FerryMigration
import FerryModel
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

@Suite("ferry model infer: a starter model from legacy files, which then imports them with no rejects")
struct ModelInferJobTests {
    /// Infers a model of `entity` from `files` into a temporary bundle, imports the files with
    /// it, and checks that the import rejected exactly the records the inference found no model
    /// can read, at the same places.
    @discardableResult
    private func inferAndImport(_ files: [String], entity: String, request adjust: (inout ModelInferRequest) -> Void = { _ in })
        throws -> (ModelInferSummary, ImportSummary)
    {
        let folder = try TestPaths.temporaryFolder("infer")
        var request = ModelInferRequest(sources: files, entity: entity, outputPath: folder + "/Inferred.xcdatamodeld")
        adjust(&request)
        let inferred = try ModelInferJob(request).run()
        var importing = ImportRequest(sources: files, modelPath: folder + "/Inferred.xcdatamodeld", entity: entity,
                                      outputPath: folder + "/Inferred.sqlite", files: request.files)
        importing.maxErrors = nil
        let imported = try ImportJob(request: importing).run()
        #expect(imported.rejected == inferred.unreadable.count, "\(files): \(imported.sampleRejects)")
        let rejectPlaces = imported.sampleRejects.map { "\($0.location.file):\($0.location.line ?? 0)" }
        #expect(rejectPlaces.allSatisfy { place in inferred.unreadable.examples.contains { $0.hasPrefix(place) } },
                "\(rejectPlaces) \(inferred.unreadable.examples)")
        #expect(imported.isBalanced && imported.verification?.passed != false)
        return (inferred, imported)
    }

    private func attribute(_ summary: ModelInferSummary, _ entity: String, _ name: String) -> InferredAttribute? {
        summary.report.entities.first { $0.name == entity }?.attributes.first { $0.name == name }
    }

    @Test("a Ferry export's file is refused: its Z_PK and the keys its lists hold would become an attribute and new records")
    func exportFileRefused() throws {
        let folder = try TestPaths.temporaryFolder("infer-export")
        let store = try ExportTestSupport.workspace2Store(folder)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/export", format: .ndjson)).run()
        let error = try #require(throws: ModelInferError.self) {
            try ModelInferJob(ModelInferRequest(sources: [folder + "/export/Task.ndjson"], entity: "Task",
                                                outputPath: folder + "/Inferred.xcdatamodeld")).run()
        }
        guard case .storeRows(let path) = error else { Issue.record("\(error)"); return }
        #expect(path == folder + "/export/Task.ndjson" && error.description.contains("ferry restore FOLDER"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/Inferred.xcdatamodeld"))
    }

    @Test("uploads.csv: Binary from base64, 0/1 as Integer 16, a column with one bad integer stays text and says so")
    func uploadsCSV() throws {
        let (inferred, imported) = try inferAndImport([TestPaths.fixtures + "/legacy/uploads.csv"], entity: "Upload")
        #expect(attribute(inferred, "Upload", "imageData")?.type == .binary)
        #expect(attribute(inferred, "Upload", "finishStatus")?.type == .integer16)
        let time = try #require(attribute(inferred, "Upload", "time"))
        #expect(time.type == .string && time.basis == "text: 1 of 32 values is no integer ('yesterday')" && time.isOptional)
        #expect(inferred.unreadable.count == 1 && imported.written + imported.merged == 33)
        let model = try XcodeModelLoader.loadBundle(at: try #require(inferred.bundlePath))
        #expect(model.currentVersionName == "Inferred" && model.current?.entity(named: "Upload")?.attributes.count == 7)
    }

    @Test("uploads.plist: plist data as Binary, plist booleans as Boolean, the element that is no dictionary listed")
    func uploadsPlist() throws {
        let (inferred, _) = try inferAndImport([TestPaths.fixtures + "/legacy/uploads.plist"], entity: "Upload")
        #expect(attribute(inferred, "Upload", "imageData")?.basis == "property-list data")
        #expect(attribute(inferred, "Upload", "finishStatus")?.type == .boolean)
        #expect(inferred.unreadable.examples.first?.hasSuffix("a record must be a dictionary, not a string") == true)
    }

    @Test("tasks.json and tasks.ndjson: arrays of values become ordered to-many relationships, one destination per element")
    func tasksJSON() throws {
        let files = [TestPaths.fixtures + "/legacy/tasks.json", TestPaths.fixtures + "/legacy/tasks.ndjson"]
        let (inferred, imported) = try inferAndImport(files, entity: "Task")
        let task = try #require(inferred.model.entity(named: "Task"))
        #expect(task.relationship(named: "tags")?.destinationEntity == "Tag" && task.relationship(named: "attachments")?.isToMany == true)
        #expect(task.relationship(named: "tags")?.isOrdered == true && inferred.model.entity(named: "Tag")?.uniquenessConstraints == [])
        #expect(attribute(inferred, "Task", "taskLevel")?.type == .integer16 && attribute(inferred, "Task", "isComplete")?.type == .boolean)
        #expect(attribute(inferred, "Task", "taskDate")?.basis == "text: 2 of 52 values are no Date ('2014-02-30')")
        #expect(imported.links.map(\.resolved) == [50, 54])
    }

    @Test("arrays of values come back from the store as they were: order and repeats kept (they became one set of unique values, exit 0)")
    func arraysOfValuesKeepOrderAndRepeats() throws {
        let folder = try TestPaths.temporaryFolder("infer-arrays")
        let path = folder + "/r.json"
        try Data("""
            [{"id": 1, "coords": [2.5, 1.5], "ratings": [5, 5, 3], "flags": [true, "true"]},
             {"id": 2, "coords": [1.5, 2.5], "ratings": [3], "flags": []}]
            """.utf8).write(to: URL(fileURLWithPath: path))
        let (inferred, imported) = try inferAndImport([path], entity: "R")
        let ratings = try #require(inferred.model.entity(named: "R")?.relationship(named: "ratings"))
        #expect(ratings.isToMany && ratings.isOrdered && ratings.inverseName == "r")
        #expect(imported.carried["Rating"]?.written == 4 && imported.carried["Coord"]?.written == 4)
        let store = imported.outputPath
        func values(_ table: String) throws -> [String] {
            try storeRows(store, "SELECT R.ZID || ':' || V.ZVALUE FROM \(table) V JOIN ZR R ON R.Z_PK = V.ZR ORDER BY R.ZID, V.Z_FOK_R")
        }
        #expect(try values("ZCOORD") == ["1:2.5", "1:1.5", "2:1.5", "2:2.5"])
        #expect(try values("ZRATING") == ["1:5", "1:5", "1:3", "2:3"])
        #expect(try values("ZFLAG") == ["1:1", "1:1"])
    }

    @Test("nested objects become records of their own entity, found again by their unique key")
    func nestedObjects() throws {
        let folder = try TestPaths.temporaryFolder("infer-nested")
        let path = folder + "/orders.json"
        try Data("""
            {"orders": [
              {"id": 1, "placed_at": "2024-01-02T10:00:00Z", "total": "12.50", "customer": {"email": "a@example.com", "since": 1704067200},
               "items": [{"sku": "A-1", "qty": 2}, {"sku": "B-2", "qty": 1}]},
              {"id": 2, "placed_at": "2024-01-03T11:30:00Z", "total": "3.10", "customer": {"email": "b@example.com"},
               "items": [{"sku": "C-3", "qty": 5, "note": "gift"}]}
            ]}
            """.utf8).write(to: URL(fileURLWithPath: path))
        let (inferred, imported) = try inferAndImport([path], entity: "Order") { $0.files.jsonRecordsKeyPath = ["orders"] }
        let model = inferred.model
        #expect(model.entities.map(\.name) == ["Customer", "Item", "Order"])
        #expect(model.entity(named: "Order")?.uniquenessConstraints == [["id"]])
        #expect(attribute(inferred, "Order", "placedAt")?.type == .date && attribute(inferred, "Order", "total")?.type == .decimal)
        #expect(model.entity(named: "Order")?.attribute(named: "placedAt")?.renamingIdentifier == "placed_at")
        #expect(model.entity(named: "Customer")?.attribute(named: "since")?.isOptional == true)
        #expect(model.entity(named: "Item")?.relationship(named: "order")?.inverseName == "items")
        #expect(imported.written == 2 && imported.carried["Item"]?.written == 3 && imported.carried["Customer"]?.written == 2)
    }

    /// The inferred model exited 0 and the import it suggested then refused the same file.
    @Test("a file no model imports as it stands is refused (a repeated CSV column name); a key spelled as a name keeps it")
    func filesNoModelImports() throws {
        let folder = try TestPaths.temporaryFolder("infer-unimportable")
        try "id,dup,dup\n1,a,b\n2,c,d\n".write(toFile: folder + "/dup.csv", atomically: true, encoding: .utf8)
        for (file, reason) in [("dup.csv", "columns 2 and 3 are both named 'dup'")] {
            #expect {
                try ModelInferJob(ModelInferRequest(sources: [folder + "/" + file], entity: "Rec")).run()
            } throws: { error in
                guard case .source(let failure) = error as? ModelInferError else { return false }
                return failure.description.contains(reason)
            }
        }
        try "File Name,fileName\na,b\nc,d\n".write(toFile: folder + "/names.csv", atomically: true, encoding: .utf8)
        let (inferred, _) = try inferAndImport([folder + "/names.csv"], entity: "Rec")
        #expect(inferred.report.entities[0].attributes.map(\.name) == ["fileName2", "fileName"])
    }

    @Test("an existing bundle is refused without --force; a wrong entity name is a usage error")
    func refusals() throws {
        let folder = try TestPaths.temporaryFolder("infer-refuse")
        let csv = TestPaths.fixtures + "/legacy/uploads.csv"
        try FileManager.default.createDirectory(atPath: folder + "/U.xcdatamodeld", withIntermediateDirectories: true)
        do { _ = try ModelInferJob(ModelInferRequest(sources: [csv], entity: "Upload", outputPath: folder + "/U.xcdatamodeld")).run() } catch {
            guard case .output(.destinationExists) = error else { Issue.record("\(error)"); return }
        }
        do { _ = try ModelInferJob(ModelInferRequest(sources: [csv], entity: "upload file")).run() } catch {
            guard case .invalidRequest = error else { Issue.record("\(error)"); return }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["U.xcdatamodeld"])
    }

    @Test("every CSV and JSON file of the corpus's conformance suites imports with its inferred model, rejecting only unreadable records",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func corpusSuites() throws {
        let conformance = TestPaths.corpus + "/conformance"
        let csv = TestPaths.files(under: conformance + "/csv-spectrum/csvs") { $0.hasSuffix(".csv") }
            + TestPaths.files(under: conformance + "/rust-csv-examples-data/examples/data") { $0.hasSuffix(".csv") && !$0.hasPrefix("bench/") }
        let json = TestPaths.files(under: conformance + "/csv-spectrum/json") { $0.hasSuffix(".json") }
        var imported = 0
        for file in csv + json {
            let (inferred, summary) = try inferAndImport([file], entity: "Record") { request in
                if file.hasSuffix("latin1.csv") { request.files.csv.textPolicy = .windows1252 }
                if file.hasSuffix("-colon.csv") { request.files.csv.delimiter = UInt8(ascii: ":") }
                // Its quotes break RFC 4180's rule (text after a closing quote), as it means to.
                if file.hasSuffix("/strange.csv") { request.files.csv.quoteRule = .lenient }
            }
            #expect(!inferred.model.entities.isEmpty)
            imported += summary.written
        }
        #expect(csv.count == 18 && json.count == 11 && imported > 100)
    }

    @Test("JSONTestSuite's valid documents: a model imports each that holds keys; the others are refused, not modelled empty",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func jsonTestSuite() throws {
        let files = TestPaths.files(under: TestPaths.corpus + "/conformance/JSONTestSuite/test_parsing") { $0.hasPrefix("y_") }
        var modelled = 0, refused = 0
        for file in files {
            do {
                try inferAndImport([file], entity: "Record")
                modelled += 1
            } catch let error as ModelInferError {
                guard case .nothingToModel = error else { throw error }
                refused += 1
            }
        }
        // The two objects that hold a key twice are records import rejects (which value is meant
        // cannot be told), so nothing is left to model in their files.
        #expect(files.count == 95 && modelled == 6 && refused == 89, "\(modelled) modelled, \(refused) refused")
    }
}
