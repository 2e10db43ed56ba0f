import FerryTestSupport
import Foundation
import Testing

/// `--quiet`, `--log json` and `--json` for schedulers and log collectors: every long verb logs
/// one JSON object per line and event on standard error, and a failed run still prints its JSON
/// summary, with the error, on standard output.
@Suite("logs and automation")
struct RunLogCommandLineTests {
    static let model = "Migrations/Workspace.xcdatamodeld"

    /// Each line of standard error parsed as one JSON object; fails the test on any other line.
    static func events(_ run: FerryProcess.Result, verb: String) throws -> [[String: Any]] {
        let lines = run.err.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "standard error ends with a line break")
        var events: [[String: Any]] = []
        for line in lines.dropLast() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            #expect(object["verb"] as? String == verb, "\(line)")
            let time = try #require(object["time"] as? String, "\(line)")
            #expect(time.count >= 20 && time.hasSuffix("Z") && time.contains("T"), "\(time)")
            events.append(object)
        }
        return events
    }

    static func names(_ events: [[String: Any]]) -> [String] { events.compactMap { $0["event"] as? String } }

    @Test("import --log json: start, phases, every sample reject, the summary; one object per line")
    func importLog() throws {
        let folder = try TestPaths.temporaryFolder("runlog")
        let run = try FerryProcess.run(["import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--model-version", "Workspace 1",
                                        "--entity", "UploadEntity", "--out", folder + "/i.sqlite", "--log", "json"])
        #expect(run.status == 1)
        #expect(run.out.hasPrefix("UploadEntity (Workspace 1): read 34"), "the results stay on standard output")
        let events = try Self.events(run, verb: "import")
        let names = Self.names(events)
        #expect(names.first == "start" && names.last == "summary", "\(names)")
        #expect(names.contains("phase"))
        let rejects = events.filter { $0["event"] as? String == "reject" }
        #expect(rejects.count == 3, "\(names)")
        let reject = try #require(rejects.first?["reject"] as? [String: Any])
        #expect(reject["entity"] as? String == "UploadEntity" && reject["reason"] != nil)
        let summary = try #require(events.last)
        #expect(summary["exitCode"] as? Int == 1 && summary["read"] as? Int == 34 && summary["rejected"] as? Int == 3)
        #expect(summary["seconds"] is Double || summary["seconds"] is Int)
    }

    @Test("every long verb logs JSON lines, and a failure ends in an error event with its code")
    func everyLongVerb() throws {
        let folder = try TestPaths.temporaryFolder("runlog")
        let store = try ExportTestSupport.workspace2Store(folder)
        let runs: [(verb: String, arguments: [String], status: Int32)] = [
            ("migrate", ["UploadEntity:Fixtures/legacy/uploads.csv", "--model", Self.model, "--out", folder + "/m.sqlite"], 1),
            ("export", [store, "--out", folder + "/export"], 0),
            ("backup", [store, "--to", folder + "/backups"], 0),
            ("verify", [store, "--model", Self.model], 0),
            ("restore", [folder + "/export", "--model", Self.model, "--out", folder + "/restored.sqlite"], 0),
            ("restore", [folder + "/missing", "--model", Self.model, "--out", folder + "/r2.sqlite"], 3),
            ("import", ["Fixtures/legacy/uploads.csv", "--model", Self.model, "--entity", "Task", "--out", store], 4),
        ]
        for (verb, arguments, status) in runs {
            let run = try FerryProcess.run([verb] + arguments + ["--log", "json"])
            #expect(run.status == status, "\(verb): \(run.err)")
            let events = try Self.events(run, verb: verb)
            let names = Self.names(events)
            #expect(names.first == "start", "\(verb): \(names)")
            if status == 0 || status == 1 {
                #expect(names.last == "summary" && events.last?["exitCode"] as? Int == Int(status), "\(verb): \(names)")
                #expect(!names.contains("error"))
            } else {
                #expect(names.last == "error" && events.last?["exitCode"] as? Int == Int(status), "\(verb): \(names)")
                #expect((events.last?["message"] as? String)?.isEmpty == false)
            }
        }
    }

    @Test("verify reports its phases: the store's checks, and the sources migrated again with --against")
    func verifyPhases() throws {
        let folder = try TestPaths.temporaryFolder("runlog")
        let store = folder + "/m.sqlite"
        let migrate = try FerryProcess.run(["migrate", "UploadEntity:Fixtures/legacy/uploads.csv", "--model", Self.model, "--out", store, "--quiet"])
        #expect(migrate.status == 1, "\(migrate.err)")
        func phases(_ arguments: [String]) throws -> [String] {
            let run = try FerryProcess.run(["verify", store] + arguments + ["--log", "json"])
            #expect(run.status == 0, "\(run.err)")
            return try Self.events(run, verb: "verify").filter { $0["event"] as? String == "phase" }.compactMap { $0["phase"] as? String }
        }
        #expect(try phases(["--model", Self.model]) == ["scanning every table", "checking the store", "checking relationships",
                                                         "checking values", "fingerprinting records"])
        let against = try phases(["--against", "UploadEntity:Fixtures/legacy/uploads.csv", "--model", Self.model, "--rerun"])
        #expect(against.contains("reading Fixtures/legacy/uploads.csv") && against.last == "comparing fingerprints", "\(against)")
    }

    @Test("--quiet leaves standard error empty on success and keeps errors")
    func quiet() throws {
        let folder = try TestPaths.temporaryFolder("runlog")
        let run = try FerryProcess.run(["import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--model-version", "Workspace 1",
                                        "--entity", "UploadEntity", "--out", folder + "/i.sqlite", "--quiet"])
        #expect(run.status == 1 && run.err.isEmpty, "\(run.err)")
        #expect(run.out.contains("rejected 3"))
        let loud = try FerryProcess.run(["import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--model-version", "Workspace 1",
                                         "--entity", "UploadEntity", "--out", folder + "/j.sqlite"])
        #expect(loud.err.contains("reject: "), "without --quiet the sample rejects are shown")
        let failed = try FerryProcess.run(["import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--model-version", "Workspace 1",
                                           "--entity", "UploadEntity", "--out", folder + "/i.sqlite", "--quiet"])
        #expect(failed.status == 4 && failed.err.contains("ferry import: ") && failed.err.contains("exists"), "\(failed.err)")
    }

    @Test("backup --json carries totals, per-entity records, bytes and seconds; a failure prints its error as JSON on standard output")
    func backupJSON() throws {
        let folder = try TestPaths.temporaryFolder("runlog")
        let store = try ExportTestSupport.workspace2Store(folder)
        let run = try FerryProcess.run(["backup", store, "--to", folder + "/backups", "--json"])
        #expect(run.status == 0, "\(run.err)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let entities = try #require(summary["entities"] as? [String: [String: Any]])
        #expect(Set(entities.keys) == ["Tag", "Task", "Upload"], "\(entities.keys)")
        let records = entities.values.compactMap { $0["records"] as? Int }.reduce(0, +)
        let bytes = entities.values.compactMap { $0["bytes"] as? Int }.reduce(0, +)
        #expect(records == summary["records"] as? Int && records > 0)
        #expect(bytes == summary["bytes"] as? Int && bytes > 0)
        let seconds = try #require(summary["seconds"] as? [String: Any])
        #expect(seconds["total"] is Double || seconds["total"] is Int)
        let phases = try #require(seconds["phases"] as? [String: Any])
        #expect(phases["verifying the backup"] != nil, "\(phases.keys)")
        #expect(entities["Task"]?["seconds"] != nil)

        let failed = try FerryProcess.run(["backup", folder + "/missing.sqlite", "--to", folder + "/backups", "--json"])
        #expect(failed.status == 3)
        let failure = try #require(try JSONSerialization.jsonObject(with: Data(failed.out.utf8)) as? [String: Any])
        let error = try #require(failure["error"] as? [String: Any])
        #expect(error["code"] as? Int == 3 && (error["message"] as? String)?.contains("missing.sqlite") == true)
        #expect(failure["verb"] as? String == "backup")
        #expect(failed.err.contains("missing.sqlite"), "the error is on standard error too")
    }

    @Test("import --json with a failure prints the error on standard output as one JSON object")
    func importFailureJSON() throws {
        let run = try FerryProcess.run(["import", "Fixtures/legacy/uploads.csv", "--model", "Nope.xcdatamodeld", "--entity", "E",
                                        "--out", "x.sqlite", "--json"])
        #expect(run.status == 3)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect((object["error"] as? [String: Any])?["code"] as? Int == 3)
    }
}
