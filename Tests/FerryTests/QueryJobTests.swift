import Ferry
import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

@Suite("ferry query, delete and update over stores")
struct QueryJobTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"
    private let legacy = TestPaths.fixtures + "/legacy"

    /// A Workspace 2 store from the legacy fixtures (uploads, then tasks with attachments and tags).
    private func workspaceStore() throws -> String {
        let path = try TestPaths.temporaryFolder("query") + "/W2.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [legacy + "/uploads.csv"], modelPath: workspace, modelVersion: "Workspace 2",
                                                 entity: "Upload", outputPath: path)).run()
        _ = try ImportJob(request: ImportRequest(
            sources: [legacy + "/tasks.json"], modelPath: workspace, modelVersion: "Workspace 2", entity: "Task", outputPath: path,
            existingStore: .append, files: FileRecordSource(linkAttributes: ["attachments": "remotePath", "tags": "name"]), createMissing: ["tags"])).run()
        return path
    }

    private func keys(_ path: String, _ sql: String) throws -> [Int] {
        let statement = try SQLiteDatabase(path: path, mode: .readOnly).prepare(sql)
        var result: [Int] = []
        while try statement.step() { result.append(Int(statement.int64(at: 0))) }
        return result
    }

    private func output(_ request: QueryRequest) throws -> String {
        let path = try TestPaths.temporaryFolder("query-out") + "/out"
        let sink = try FileByteSink(path: path)
        try QueryJob(request: request).run(to: sink)
        try sink.close()
        return String(decoding: try TestPaths.read(path), as: UTF8.self)
    }

    @Test("JSON rows equal hand-written SQL: predicate over a to-many count, descending sort, ties by Z_PK, offset and limit")
    func jsonMatchesSQL() throws {
        let store = try workspaceStore()
        let expected = try keys(store, """
            SELECT t.Z_PK FROM ZTASK t WHERE t.ZPRIORITY >= 2 AND (SELECT count(*) FROM Z_1TASKS j WHERE j.Z_2TASKS = t.Z_PK) > 0
            ORDER BY t.ZISCOMPLETE DESC, t.Z_PK LIMIT 5 OFFSET 1
            """)
        #expect(!expected.isEmpty)
        let text = try output(QueryRequest(storePath: store, modelPath: workspace, entity: "Task", predicate: "priority >= $P AND tags.@count > 0",
                                           sort: "-isComplete", limit: 5, offset: 1, variables: ["P": .integer(2)], format: .json))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["Z_PK"] as? Int } == expected.map(Optional.some))
        #expect(rows.allSatisfy { $0["entity"] as? String == "Task" })
        #expect(rows.allSatisfy { $0["title"] is String && $0.keys.contains("notes") })
    }

    @Test("NDJSON has one object per line and CSV parses with Python's csv module to the same rows")
    func ndjsonAndCSV() throws {
        let store = try workspaceStore()
        let expected = try keys(store, "SELECT Z_PK FROM ZUPLOAD WHERE ZREMOTEPATH LIKE '%.jpg' ORDER BY ZFILETYPE, Z_PK")
        let base = QueryRequest(storePath: store, modelPath: workspace, entity: "Upload", predicate: "remotePath ENDSWITH '.jpg'", sort: "fileType")
        var ndjson = base
        ndjson.format = .ndjson
        let lines = try output(ndjson).split(separator: "\n")
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["Z_PK"] as? Int } == expected.map(Optional.some))
        var csv = base
        csv.format = .csv
        let folder = try TestPaths.temporaryFolder("query-csv")
        try output(csv).write(toFile: folder + "/out.csv", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import csv,sys,json; r=list(csv.reader(open(sys.argv[1], newline=''))); print(json.dumps(r))",
                             folder + "/out.csv"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let table = try #require(try JSONSerialization.jsonObject(with: data) as? [[String]])
        #expect(table.first?.prefix(2) == ["Z_PK", "entity"])
        #expect(table.dropFirst().map { Int($0[0]) } == expected.map(Optional.some))
        #expect(Set(table.map(\.count)).count == 1)
    }

    @Test("CSV tells the empty string (\"\") from NULL (nothing), as export does")
    func csvEmptyAndNull() throws {
        let store = try workspaceStore()
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("UPDATE ZTASK SET ZNOTES = '' WHERE Z_PK = 1; UPDATE ZTASK SET ZNOTES = NULL WHERE Z_PK = 2")
        try database.close()
        var request = QueryRequest(storePath: store, modelPath: workspace, entity: "Task", predicate: "taskID != nil", sort: "taskID")
        request.format = .csv
        let rows = try output(request).split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(rows.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
        let notes = try #require(header.firstIndex(of: "notes"))
        func field(_ key: Int) -> String? {
            rows.dropFirst().first { $0.hasPrefix("\(key),") }.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)[notes] }
        }
        #expect(field(1) == "\"\"")
        #expect(field(2) == "")
    }

    @Test("the table form is aligned and shows binary values by size")
    func tableForm() throws {
        let store = try workspaceStore()
        let text = try output(QueryRequest(storePath: store, modelPath: workspace, entity: "Upload", predicate: "thumbnail != nil", limit: 3))
        let lines = text.split(separator: "\n")
        #expect(lines.count == 6 && lines[5] == "(3 objects)")
        let entityColumn = try #require(lines[0].range(of: "entity")).lowerBound.utf16Offset(in: lines[0])
        #expect(lines[2...4].allSatisfy { $0.range(of: "  Upload")?.upperBound.utf16Offset(in: $0) == entityColumn + 6 })
        #expect(lines[1].hasPrefix("----"))
        #expect(lines[2].contains(" bytes>"))
    }

    @Test("the table pads by display width: columns after Chinese notes and titles start in the same terminal column")
    func tableDisplayWidth() throws {
        let store = try workspaceStore()
        let text = try output(QueryRequest(storePath: store, modelPath: workspace, entity: "Task", predicate: "taskID IN {1, 3, 4, 7}"))
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("提交报告") } && lines.contains { $0.contains("记得带身份证") })
        // The rule under the header says where each column starts, in terminal columns.
        var starts: [Int] = []
        for (offset, character) in lines[1].enumerated() where character == "-" && (offset == 0 || Array(lines[1])[offset - 1] == " ") {
            starts.append(offset)
        }
        for line in lines[2..<(lines.count - 1)] {
            var width = 0
            var cuts: [Int: String] = [:]
            var prefix = ""
            for character in line {
                cuts[width] = prefix
                prefix.append(character)
                width += DisplayWidth.of(String(character))
            }
            for start in starts.dropFirst() where start < width {
                let before = try #require(cuts[start], "no character starts at column \(start) in: \(line)")
                #expect(before.hasSuffix("  "), "column \(start) of: \(line)")
            }
        }
    }

    @Test("to-many relationships come back as a fetch returns them: the destinations' Z_PKs, as the store links them")
    func toManyKeys() throws {
        let store = try workspaceStore()
        let text = try output(QueryRequest(storePath: store, modelPath: workspace, entity: "Task", format: .json))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(rows.count == 28)
        var linked = 0
        for row in rows {
            let key = try #require(row["Z_PK"] as? Int)
            let tags = try keys(store, "SELECT Z_1TAGS FROM Z_1TASKS WHERE Z_2TASKS = \(key) ORDER BY Z_1TAGS")
            let attachments = try keys(store, "SELECT Z_PK FROM ZUPLOAD WHERE ZTASK = \(key) ORDER BY Z_PK")
            #expect(row["tags"] as? [Int] == tags && row["attachments"] as? [Int] == attachments, "Task \(key)")
            linked += tags.count + attachments.count
        }
        #expect(linked > 20)
        var csv = QueryRequest(storePath: store, modelPath: workspace, entity: "Task", predicate: "taskID == 1", format: .csv)
        let lines = try output(csv).split(separator: "\r\n")
        #expect(lines[0].hasSuffix(",attachments,tags"))
        let tags = try keys(store, "SELECT Z_1TAGS FROM Z_1TASKS j JOIN ZTASK t ON t.Z_PK = j.Z_2TASKS WHERE t.ZTASKID = 1 ORDER BY Z_1TAGS")
        #expect(lines[1].hasSuffix("," + tags.map(String.init).joined(separator: " ")))
        csv.format = .table
        #expect(try output(csv).split(separator: "\n")[0].hasSuffix("attachments  tags"))
    }

    @Test("Z_PK can be used in --where, in --sort and through relationships")
    func primaryKeyInPredicates() throws {
        let store = try workspaceStore()
        func primaryKeys(_ predicate: String, sort: String? = nil) throws -> [Int] {
            let text = try output(QueryRequest(storePath: store, modelPath: workspace, entity: "Task", predicate: predicate, sort: sort, format: .json))
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]).compactMap { $0["Z_PK"] as? Int }
        }
        #expect(try primaryKeys("Z_PK IN {3, 1, 5}") == [1, 3, 5])
        #expect(try primaryKeys("Z_PK <= 3", sort: "-Z_PK") == [3, 2, 1])
        #expect(try primaryKeys("ANY tags.Z_PK == 1") == keys(store, "SELECT Z_2TASKS FROM Z_1TASKS WHERE Z_1TAGS = 1 ORDER BY Z_2TASKS"))
        #expect(try primaryKeys("ANY attachments.Z_PK == 2") == keys(store, "SELECT ZTASK FROM ZUPLOAD WHERE Z_PK = 2"))
        // A sort key that is a to-many says so as a sort key, not as a predicate (found by a helper).
        let bySet = QueryRequest(storePath: store, modelPath: workspace, entity: "Task", predicate: nil, sort: "tags", format: .json)
        #expect(throws: (any Error).self) { try output(bySet) }
        do { _ = try output(bySet) } catch {
            #expect("\(error)".contains("cannot sort by tags: "), "\(error)")
        }
    }

    @Test("--limit 0 is no limit, as a fetch request's fetchLimit 0 (it printed nothing)")
    func limitZeroIsNoLimit() throws {
        let store = try workspaceStore()
        func objects(limit: String) throws -> Int {
            let run = try FerryProcess.run(["query", store, "--model", workspace, "--entity", "Task", "--limit", limit, "--format", "json"])
            #expect(run.status == 0, "\(run.err)")
            return try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [Any]).count
        }
        let count = try keys(store, "SELECT count(*) FROM ZTASK").first
        #expect(try objects(limit: "0") == count && (count ?? 0) > 2)
        #expect(try objects(limit: "2") == 2)
    }

    @Test("update --dry-run lists the objects that would change, after the same checks, and writes nothing")
    func updateDryRun() throws {
        let store = try workspaceStore()
        let before = try keys(store, "SELECT sum(Z_OPT) + sum(ZPRIORITY) FROM ZTASK")
        let job = UpdateJob(storePath: store, modelPath: workspace, entity: "Task", predicate: "priority == 1", assignments: [("priority", "4")])
        let planned = try job.plan()
        #expect(planned.map(\.primaryKey) == (try keys(store, "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY = 1 ORDER BY Z_PK")).map(Int64.init))
        #expect(!planned.isEmpty && planned.allSatisfy { $0.entity == "Task" })
        #expect(try keys(store, "SELECT sum(Z_OPT) + sum(ZPRIORITY) FROM ZTASK") == before)
        let report = UpdatePlanReport.text(planned, assignments: [("priority", "4")])
        #expect(report.hasPrefix("\(planned.count) objects would be updated") && report.contains("  Task: Z_PK ") && report.hasSuffix("set\n  priority = 4\n"))
        #expect {
            try UpdateJob(storePath: store, modelPath: workspace, entity: "Task", predicate: "TRUEPREDICATE", assignments: [("priority", "abc")]).plan()
        } throws: { error in
            guard case .value(let key, _) = error as? QueryError else { return false }
            return key == "priority"
        }
        #expect(try job.run() == planned.count)
    }

    @Test("a --model bundle without the store's version is refused, naming the entities that differ")
    func modelMismatch() throws {
        let store = try workspaceStore()
        let other = try TestPaths.temporaryFolder("query-model") + "/Other.xcdatamodeld"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: workspace + "/Workspace 1.xcdatamodel", toPath: other + "/Workspace 1.xcdatamodel")
        #expect {
            try QueryJob(request: QueryRequest(storePath: store, modelPath: other, entity: "Upload")).run(to: FileByteSink(path: "/dev/null"))
        } throws: { error in
            guard case let .modelMismatch(_, version, differing) = error as? QueryError else { return false }
            return version == "Workspace 1" && differing.contains("Upload")
        }
    }

    @Test("update takes import's type rules: a date that is not one is refused and nothing changes")
    func updateTypes() throws {
        let store = try workspaceStore()
        let before = try keys(store, "SELECT sum(Z_OPT), count(ZTIME) FROM ZUPLOAD")
        #expect {
            try UpdateJob(storePath: store, modelPath: workspace, entity: "Upload", predicate: "TRUEPREDICATE",
                          assignments: [("time", "abc")]).run()
        } throws: { error in
            guard case .value(let key, _) = error as? QueryError else { return false }
            return key == "time"
        }
        #expect(try keys(store, "SELECT sum(Z_OPT), count(ZTIME) FROM ZUPLOAD") == before)
        let changed = try UpdateJob(storePath: store, modelPath: workspace, entity: "Task", predicate: "priority == 1",
                                    assignments: [("isComplete", "yes"), ("priority", "4")]).run()
        #expect(changed > 0)
        #expect(try keys(store, "SELECT count(*) FROM ZTASK WHERE ZISCOMPLETE = 1 AND ZPRIORITY = 4 AND Z_OPT = 2") == [changed])
    }

    /// `--where 'time < 1600000000'` reads the number as seconds since 2001 (Core Data's SQL),
    /// `--set time=1600000000` read it as Unix seconds: the same number set a date 31 years off.
    @Test("update: a bare number for a Date is refused (its epoch differs between --where and import), \"\" is the empty string, empty is NULL")
    func updateDatesAndEmptyValues() throws {
        let folder = try TestPaths.temporaryFolder("query-dates")
        try "taskID,title,dueDate,notes\n1,a,2020-01-01T00:00:00Z,x\n".write(toFile: folder + "/tasks.csv", atomically: true, encoding: .utf8)
        let store = folder + "/W3.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [folder + "/tasks.csv"], modelPath: workspace, entity: "Task", outputPath: store)).run()
        func update(_ key: String, _ value: String) throws -> Int {
            try UpdateJob(storePath: store, modelPath: workspace, entity: "Task", predicate: "taskID == 1", assignments: [(key, value)]).run()
        }
        #expect {
            try update("dueDate", "1600000000")
        } throws: { error in
            guard case .value("dueDate", let reason) = error as? QueryError else { return false }
            return reason.contains("seconds since 2001") && reason.contains("ISO 8601")
        }
        #expect(try update("dueDate", "2020-09-13T12:26:40Z") == 1)
        #expect(try keys(store, "SELECT CAST(ZDUEDATE AS INTEGER) FROM ZTASK") == [1_600_000_000 - 978_307_200])
        #expect(try update("notes", "\"\"") == 1)
        #expect(try keys(store, "SELECT count(*) FROM ZTASK WHERE ZNOTES = ''") == [1])
        #expect(try update("notes", "") == 1)
        #expect(try keys(store, "SELECT count(*) FROM ZTASK WHERE ZNOTES IS NULL") == [1])
        #expect(throws: QueryError.self) { try update("priority", "\"\"") }
    }

    @Test("a dry-run delete lists per entity and relationship and changes nothing")
    func deleteDryRun() throws {
        let store = try workspaceStore()
        let joinRows = try keys(store, "SELECT count(*) FROM Z_1TASKS")
        let plan = try DeleteJob(storePath: store, modelPath: workspace, entity: "Task", predicate: "tags.@count > 0", dryRun: true).run()
        let report = DeletePlanReport.text(plan, dryRun: true)
        #expect(report.contains("would be deleted") && report.contains("  Task: ") && report.contains("Z_1TASKS"))
        #expect(plan.modified.allSatisfy { $0.entity == "Tag" || $0.entity == "Upload" })
        #expect(try keys(store, "SELECT count(*) FROM Z_1TASKS") == joinRows)
        let done = try DeleteJob(storePath: store, modelPath: workspace, entity: "Task", predicate: "tags.@count > 0").run()
        #expect(done == plan)
        #expect(try keys(store, "SELECT count(*) FROM Z_1TASKS") == [0])
        #expect(try SQLiteDatabase(path: store, mode: .readWrite).scalarText("PRAGMA journal_mode") == "wal")
    }

    /// `--var N=Null` was nil and `YES` a Boolean whatever the attribute: `petname == $N` deleted
    /// the pets without a name and kept the one named "Null", exit 0.
    @Test("a --var is the text of a String it is compared with, and read as a number, Boolean or date otherwise (exit 3 when it does not read), in query, update and delete")
    func variablesTakeTheAttributeType() throws {
        let folder = try TestPaths.temporaryFolder("query-variables")
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Pet" syncable="YES"><attribute name="petname" optional="YES" attributeType="String"/>"#
            + #"<attribute name="age" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>"#
            + #"<attribute name="vaccinated" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>"#
            + #"<attribute name="born" optional="YES" attributeType="Date"/></entity></model>"#
        let model = try TestPaths.xcodeModelBundle("Pets", versions: [("Pets", xml)], in: folder)
        try #"""
            [{"petname": "Null", "age": 1, "vaccinated": true, "born": "2020-01-01T00:00:00Z"}, {"age": 2},
             {"petname": "YES", "age": 3, "vaccinated": false}, {"petname": "42", "age": 42}]
            """#.write(toFile: folder + "/pets.json", atomically: true, encoding: .utf8)
        let store = folder + "/Pets.sqlite"
        #expect(try FerryProcess.run(["import", folder + "/pets.json", "--model", model, "--entity", "Pet", "--out", store]).status == 0)
        func matched(_ predicate: String, _ variable: String) throws -> [String] {
            let run = try FerryProcess.run(["query", store, "--entity", "Pet", "--where", predicate, "--var", variable, "--format", "ndjson"])
            #expect(run.status == 0, "\(run.err)")
            return run.out.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["Z_PK"].map { "\($0)" }
            }
        }
        #expect(try matched("petname == $N", "N=Null") == ["1"])
        #expect(try matched("petname == $N", "N=42") == ["4"])
        #expect(try matched("age == $N", "N=42") == ["4"])
        #expect(try matched("vaccinated == $N", "N=yes") == ["1"])
        #expect(try matched("vaccinated == $N", "N=FALSE") == ["3"])
        #expect(try matched("born < $N", "N=2021-01-01") == ["1"])
        #expect(try matched("petname BEGINSWITH $N", "N=N") == ["1"])
        let refused = try FerryProcess.run(["query", store, "--entity", "Pet", "--where", "vaccinated == $N", "--var", "N=maybe"])
        #expect(refused.status == 3 && refused.err.contains("vaccinated"), "\(refused.err)")
        let updated = try FerryProcess.run(["update", store, "--entity", "Pet", "--where", "petname == $N", "--var", "N=YES", "--set", "age=7"])
        #expect(updated.status == 0, "\(updated.err)")
        let deleted = try FerryProcess.run(["delete", store, "--entity", "Pet", "--where", "petname == $N", "--var", "N=Null"])
        #expect(deleted.status == 0, "\(deleted.err)")
        #expect(try storeRows(store, "SELECT Z_PK, quote(ZPETNAME), ZAGE FROM ZPET ORDER BY Z_PK") == ["2|NULL|2", "3|'YES'|7", "4|'42'|42"])
    }

    /// Corpus stores are read only here; the model comes from each store's Z_MODELCACHE.
    @Test("over corpus stores, every object of every root entity comes back in Z_PK order", .enabled(if: TestPaths.corpusAvailable))
    func corpusStores() throws {
        let relative = "richardpiazza__XCServerCoreData/Tests/XCServerCoreData_2.0.1.sqlite"
        let store = TestPaths.corpus + "/coredata/" + relative
        let text = try output(QueryRequest(storePath: store, entity: "Integration", format: .ndjson))
        let pks = try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["Z_PK"] as? Int }
        let expected = try keys(store, "SELECT Z_PK FROM ZINTEGRATION ORDER BY Z_PK")
        #expect(!expected.isEmpty && pks == expected.map(Optional.some))
    }
}
