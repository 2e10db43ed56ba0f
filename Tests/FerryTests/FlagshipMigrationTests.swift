import Ferry
import FerryMigration
import FerryModel
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// The flagship of DOMAIN.md: every legacy form of the upload and task records into one
/// Workspace 3 store, with the outcome Fixtures/README.md lists.
@Suite("the flagship migration")
struct FlagshipMigrationTests {
    private let legacy = TestPaths.fixtures + "/legacy"
    private let model = TestPaths.migrations + "/Workspace.xcdatamodeld"

    private func request(_ sources: [MigrationSource], out: String, lenient: Bool = false) -> MigrateRequest {
        var request = MigrateRequest(sources: sources, modelPath: model, outputPath: out,
                                     files: FileRecordSource(linkAttributes: ["attachments": "remotePath", "tags": "name"]),
                                     variables: ["zone": "Asia/Shanghai"])
        request.lenient = lenient
        return request
    }

    private var allFiles: [MigrationSource] {
        [MigrationSource(argument: "UploadEntity:\(legacy)/uploads.csv"), MigrationSource(argument: "UploadEntity:\(legacy)/uploads.plist"),
         MigrationSource(argument: "Task:\(legacy)/tasks.json"), MigrationSource(argument: "Task:\(legacy)/tasks.ndjson")]
    }

    private func rows(_ path: String, _ sql: String) throws -> [String] {
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let statement = try database.prepare(sql)
        var result: [String] = []
        while try statement.step() {
            result.append((0..<statement.columnCount).map { statement.string(at: $0) ?? "NULL" }.joined(separator: "|"))
        }
        return result
    }

    @Test("all four legacy files: every record written, merged or rejected as the fixtures say; the store verifies")
    func everyLegacyForm() throws {
        let out = try TestPaths.temporaryFolder("flagship") + "/Workspace.sqlite"
        let summary = try MigrateJob(request: request(allFiles, out: out)).run()
        let ledgers = summary.ledgers.map { "\(URL(fileURLWithPath: $0.source).lastPathComponent) \($0.read) \($0.written) \($0.merged) \($0.rejected)" }
        #expect(ledgers == ["uploads.csv 34 24 3 7", "uploads.plist 21 1 16 4", "tasks.json 30 23 3 4", "tasks.ndjson 23 19 1 3"])
        #expect(summary.written == ["Upload": 25, "Task": 42])
        #expect(summary.isBalanced)
        let verification = try #require(summary.verification)
        #expect(verification.passed, "\(verification.failures)")

        let tags = try #require(summary.links.first { $0.relationship == "Task.tags" })
        #expect(tags.created == 9 && tags.unresolved == 0)
        let attachments = try #require(summary.links.first { $0.relationship == "Task.attachments" })
        #expect(attachments.unresolvedSamples.contains { $0.hasPrefix("\(legacy)/tasks.json:") && $0.hasSuffix("/remote/uploads/2014/09/ghost.jpg'") })

        // Values the written mapping made.
        #expect(try rows(out, "SELECT ZBYTECOUNT, ZKIND FROM ZUPLOAD WHERE ZFILENAME = 'Quarterly report.pdf'") == ["13107200|3"])
        #expect(try rows(out, "SELECT ZKIND FROM ZUPLOAD WHERE ZFILENAME IN ('weird type.bin', 'negative type.bin', 'no type.txt')") == ["5", "5", "5"])
        #expect(try rows(out, "SELECT count(DISTINCT ZUPLOADID), count(*) FROM ZUPLOAD") == ["25|25"])
        // createdAt: Unix seconds 1388538000 on the 2001 epoch.
        #expect(try rows(out, "SELECT ZCREATEDAT FROM ZUPLOAD WHERE ZFILENAME = 'IMG_0001.jpg'") == ["410230800"])
        #expect(try rows(out, "SELECT count(*) FROM ZTASK WHERE ZDUEDATE IS NOT NULL") != ["0"])
        #expect(try rows(out, "SELECT count(*), count(DISTINCT ZTASKID) FROM ZTASK") == ["42|42"])
        #expect(try rows(out, "SELECT count(*), count(DISTINCT ZNAME) FROM ZTAG") == ["9|9"])
    }

    @Test("the same sources give the same store: ids and keys are deterministic")
    func deterministic() throws {
        let folder = try TestPaths.temporaryFolder("flagship")
        _ = try MigrateJob(request: request(allFiles, out: folder + "/a.sqlite")).run()
        _ = try MigrateJob(request: request(allFiles, out: folder + "/b.sqlite")).run()
        let query = "SELECT Z_PK, quote(ZUPLOADID), ZTASK, ZBYTECOUNT FROM ZUPLOAD ORDER BY Z_PK"
        #expect(try rows(folder + "/a.sqlite", query) == rows(folder + "/b.sqlite", query))
    }

    @Test("lenient: unparseable sizes keep their upload with byteCount nil")
    func lenient() throws {
        let out = try TestPaths.temporaryFolder("flagship") + "/Workspace.sqlite"
        let summary = try MigrateJob(request: request(Array(allFiles.prefix(2)), out: out, lenient: true)).run()
        #expect(summary.ledgers.map(\.rejected) == [3, 3])
        #expect(summary.written == ["Upload": 29])
        #expect(try rows(out, "SELECT count(*) FROM ZUPLOAD WHERE ZBYTECOUNT IS NULL") == ["5"])
        // Each value set to nil is counted, and the summary shows the count (it said nothing).
        #expect(summary.ledgers.map(\.converted).reduce(0, +) == 5)
        let printed = try FerryProcess.run(["migrate", "UploadEntity:\(legacy)/uploads.csv", "UploadEntity:\(legacy)/uploads.plist",
                                            "--model", model, "--lenient", "--out", out, "--force"])
        #expect(printed.out.contains("values set to nil"), "\(printed.out)")
    }

    /// DOMAIN.md: out-of-range file types "become 5, 'other', and are reported"; they became 5
    /// without a word. The mapping's `note` counts them, with where they were read.
    @Test("file types outside 0…5 (or none) are kept as other and reported by the mapping's note, with where they were read")
    func fileTypesReported() throws {
        let out = try TestPaths.temporaryFolder("flagship-note") + "/Workspace.sqlite"
        let summary = try MigrateJob(request: request(Array(allFiles.prefix(2)), out: out)).run()
        #expect(summary.notes.count == 1, "\(summary.notes)")
        #expect(summary.notes.first?.hasPrefix("Upload: fileType outside 0…5 or none, kept as 5 (other): 5 records "
            + "(\(legacy)/uploads.csv:20, \(legacy)/uploads.csv:21, \(legacy)/uploads.csv:34, …)") == true, "\(summary.notes)")
        #expect(try rows(out, "SELECT count(*) FROM ZUPLOAD WHERE ZKIND = 5 AND ZFILENAME IN ('weird type.bin', 'negative type.bin', 'no type.txt')")
                == ["3"])
        let printed = try FerryProcess.run(["migrate", "UploadEntity:\(legacy)/uploads.csv", "--model", model, "--out", out, "--force"])
        #expect(printed.err.contains("note: Upload: fileType outside 0…5 or none, kept as 5 (other): 3 records ("), "\(printed.err)")
    }

    @Test("a Workspace 1 store and files together; a missing $zone is an error before anything is written")
    func storeAndFiles() throws {
        let folder = try TestPaths.temporaryFolder("flagship")
        _ = try ImportJob(request: ImportRequest(sources: [legacy + "/uploads.csv"], modelPath: model, modelVersion: "Workspace 1",
                                                 entity: "UploadEntity", outputPath: folder + "/W1.sqlite")).run()
        let sources = [MigrationSource(path: folder + "/W1.sqlite", kind: .store), MigrationSource(argument: "Task:\(legacy)/tasks.json")]
        let summary = try MigrateJob(request: request(sources, out: folder + "/W3.sqlite")).run()
        #expect(summary.ledgers.first?.version == "Workspace 1")
        #expect(summary.ledgers.first.map { [$0.read, $0.written, $0.merged, $0.rejected] } == [31, 24, 3, 4])
        #expect(summary.verification?.passed == true)
        var noZone = request(sources, out: folder + "/none.sqlite")
        noZone.variables = [:]
        let error = try #require(throws: MigrateError.self) { try MigrateJob(request: noZone).run() }
        #expect(error.description.contains("$zone"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/none.sqlite"))
    }

    @Test("a $zone that names no time zone fails the mapping before anything is read (each record was rejected and an empty store kept); an unread --var is named")
    func badZoneVariable() throws {
        let folder = try TestPaths.temporaryFolder("flagship-zone")
        let sources = [MigrationSource(argument: "Task:\(legacy)/tasks.json")]
        var mars = request(sources, out: folder + "/W3.sqlite")
        mars.variables = ["zone": "Mars/Olympus"]
        let error = try #require(throws: MigrateError.self) { try MigrateJob(request: mars).run() }
        #expect(error.description.contains("$zone: unknown time zone 'Mars/Olympus'"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/W3.sqlite"))
        var typo = request(sources, out: folder + "/W3.sqlite")
        typo.variables["zon"] = "UTC"
        let summary = try MigrateJob(request: typo).run()
        #expect(summary.warnings.contains("--var zon=…: no mapping reads $zon (did you mean $zone?)"), "\(summary.warnings)")
    }

    @Test("a Workspace 2 store with attachment links and tags: every task–tag pair and upload–task link arrives")
    func workspace2Links() throws {
        let folder = try TestPaths.temporaryFolder("flagship")
        let store = folder + "/W2.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [legacy + "/uploads.csv"], modelPath: model, modelVersion: "Workspace 2",
                                                 entity: "Upload", outputPath: store)).run()
        _ = try ImportJob(request: ImportRequest(sources: [legacy + "/tasks.json"], modelPath: model, modelVersion: "Workspace 2", entity: "Task",
                                                 outputPath: store, existingStore: .append,
                                                 files: FileRecordSource(linkAttributes: ["attachments": "remotePath", "tags": "name"]),
                                                 createMissing: ["tags"])).run()
        let summary = try MigrateJob(request: request([MigrationSource(path: store, kind: .store)], out: folder + "/W3.sqlite")).run()
        #expect(summary.isBalanced)
        #expect(summary.verification?.passed == true)
        let tags = try #require(summary.links.first { $0.relationship == "Tag.tasks" })
        #expect(tags.unresolved == 0 && tags.resolved > 0)

        // The tags of every migrated task are those its source records had (merged tasks: all of
        // them: a many-to-many pair follows the merge, as the tag's side is not the copy's to drop).
        let tagPairs = """
            SELECT DISTINCT t.ZTASKID, g.ZNAME FROM Z_1TASKS j JOIN ZTASK t ON t.Z_PK = j.Z_2TASKS JOIN ZTAG g ON g.Z_PK = j.Z_1TAGS ORDER BY 1, 2
            """
        let migratedTagPairs = try rows(folder + "/W3.sqlite", tagPairs)
        let migratedTasks = Set(try rows(folder + "/W3.sqlite", "SELECT ZTASKID FROM ZTASK"))
        #expect(migratedTagPairs.count > 10)
        #expect(migratedTagPairs == (try rows(store, tagPairs)).filter { migratedTasks.contains(String($0.prefix { $0 != "|" })) })
        #expect(try rows(store, "SELECT count(*) FROM (SELECT ZTASKID FROM ZTASK GROUP BY ZTASKID HAVING count(*) > 1)") != ["0"])
        let attachments = "SELECT DISTINCT u.ZREMOTEPATH, t.ZTASKID FROM ZUPLOAD u JOIN ZTASK t ON t.Z_PK = u.ZTASK ORDER BY 1, 2"
        let migratedAttachments = try rows(folder + "/W3.sqlite", attachments)
        #expect(migratedAttachments.count > 5)
        #expect(Set(migratedAttachments).isSubset(of: try rows(store, attachments)))

        // The indexes that link resolution drops and makes again are there, as Core Data writes them.
        let indexes = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        let bundle = try XcodeModelLoader.loadBundle(at: model)
        let current = try #require(bundle.version(named: "Workspace 3"))
        let layout = try StoreLayout(model: current)
        #expect(try rows(folder + "/W3.sqlite", indexes) == layout.indexes.sorted { $0.name < $1.name }.map { "\($0.name)|\($0.createStatement)" })
        #expect(layout.indexes.contains { $0.name == "ZUPLOAD_ZTASK_INDEX" } && layout.indexes.contains { $0.table == "Z_1TASKS" })
    }

    @Test("verify --against the sources passes, and catches a changed value and a dropped link, by receipt and by re-run",
          arguments: [false, true])
    func verifyAgainstSources(rerun: Bool) throws {
        let out = try TestPaths.temporaryFolder("flagship") + "/Workspace.sqlite"
        let request = request(allFiles, out: out)
        _ = try MigrateJob(request: request).run()
        let intact = try SourceVerification.verify(store: out, against: request, rerun: rerun)
        #expect(intact.passed)
        #expect(intact.notes.contains { $0.contains(rerun ? "migrated again" : "by the store's receipt") }, "\(intact.notes)")
        let database = try SQLiteDatabase(path: out, mode: .readWrite)
        try database.execute("UPDATE ZTASK SET ZTITLE = 'changed' WHERE Z_PK = 3; UPDATE ZUPLOAD SET ZTASK = NULL WHERE Z_PK = (SELECT min(Z_PK) FROM ZUPLOAD WHERE ZTASK IS NOT NULL)")
        try database.close()
        let report = try SourceVerification.verify(store: out, against: request, rerun: rerun)
        #expect(!report.passed)
        #expect(Set(report.failures.map(\.subject)).isSuperset(of: ["Task", "Upload.task"]), "\(report.failures.map(\.subject))")
    }

    @Test("verify --against a store that cannot be read fails on the store before migrating the sources again")
    func verifyAgainstMissingStore() throws {
        let folder = try TestPaths.temporaryFolder("flagship")
        let missing = folder + "/missing.sqlite"
        // The source does not exist either: the error must be about the store, so nothing was migrated.
        let request = request([MigrationSource(path: folder + "/no-such-source.sqlite", kind: .store)], out: folder + "/unused.sqlite")
        do {
            _ = try SourceVerification.verify(store: missing, against: request)
            Issue.record("a missing store verified")
        } catch {
            guard case .store(let source, _) = error else { Issue.record("unexpected error: \(error)"); return }
            #expect(source == missing)
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
