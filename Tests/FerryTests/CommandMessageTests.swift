import FerryTestSupport
import Foundation
import Testing

/// What the command says when something is wrong or left out, as a user reads it.
extension CommandLineTests {
    private static let model = "Migrations/Workspace.xcdatamodeld"

    @Test("every verb that cannot open its input names the path once, with the reason")
    func missingInputNamedOnce() throws {
        let missing = "old/Upload.sqlite"
        let out = try TestPaths.temporaryFolder("cli-missing")
        let runs: [[String]] = [
            ["migrate", missing, "--model", Self.model, "--out", out + "/m.sqlite"],
            ["migrate", "Task:old/tasks.json", "--model", Self.model, "--out", out + "/m.sqlite"],
            ["import", "old/uploads.csv", "--model", Self.model, "--entity", "Task", "--out", out + "/i.sqlite"],
            ["query", missing, "--entity", "Task"], ["verify", missing], ["export", missing, "--out", out + "/e"],
            ["backup", missing, "--to", out + "/b"], ["model", "extract", missing, "--out", out + "/X.xcdatamodeld"],
            ["delete", missing, "--entity", "Task", "--where", "TRUEPREDICATE"],
            ["update", missing, "--entity", "Task", "--where", "TRUEPREDICATE", "--set", "priority=1"],
        ]
        for arguments in runs {
            let run = try FerryProcess.run(arguments)
            let path = arguments.first { $0.hasPrefix("old/") || $0.hasPrefix("Task:old/") }.map { $0.replacingOccurrences(of: "Task:", with: "") } ?? missing
            #expect(run.status == 3, "\(arguments)")
            #expect(run.err.components(separatedBy: path).count == 2, "\(arguments.prefix(2)): \(run.err)")
            #expect(run.err.contains("\(path): cannot open: No such file or directory"), "\(arguments.prefix(2)): \(run.err)")
        }
    }

    /// Verify of a store with another app's model reported a store that fails (exit 5) where
    /// every other verb says the model does not match (exit 3; first-hour review).
    @Test("verify with a model naming none of the store's entities says the model does not match (exit 3), as the other verbs do")
    func verifyWithAnotherAppsModel() throws {
        let store = try ExportTestSupport.workspace2Store(try TestPaths.temporaryFolder("cli-verify-other-model"))
        let run = try FerryProcess.run(["verify", store, "--model", "Migrations/KYTask.xcdatamodeld"])
        #expect(run.status == 3 && run.err.contains("does not match any version of the model (closest: 'KYTask'"), "\(run.err)")
        let matching = try FerryProcess.run(["verify", store, "--model", Self.model])
        #expect(matching.status == 0, "\(matching.out)")
    }

    /// A written mapping whose name missed a space was read by no step and said nothing: every
    /// record was rejected, and the summary read "written:  → …" (first-hour review).
    @Test("a .mapping file beside the model that names no two of its versions is named with the closest name; a run writing nothing says so")
    func misnamedMappingFile() throws {
        let folder = try TestPaths.temporaryFolder("cli-misnamed-mapping")
        try FileManager.default.copyItem(atPath: Self.model, toPath: folder + "/Workspace.xcdatamodeld")
        try FileManager.default.copyItem(atPath: "Migrations/Workspace 2 to Workspace 3.mapping", toPath: folder + "/Workspace 2 to Workspace3.mapping")
        try FileManager.default.copyItem(atPath: "Migrations/Workspace 2 to Workspace 3.mapping", toPath: folder + "/Workspace 2 to Workspace 4.mapping")
        let warning = "Workspace 2 to Workspace3.mapping names no two versions of Workspace (Workspace 1, Workspace 2, Workspace 3), "
            + "so no step reads it (did you mean 'Workspace 2 to Workspace 3.mapping'?)"
        let plan = try FerryProcess.run(["plan", "--model", folder + "/Workspace.xcdatamodeld"])
        #expect(plan.status == 0 && plan.err.contains("warning: " + folder + "/" + warning), "\(plan.err)")
        #expect(plan.err.contains("Workspace 2 to Workspace 4.mapping names no two versions of Workspace (Workspace 1, Workspace 2, Workspace 3), "
                                  + "so no step reads it\n"), "a version it lacks: \(plan.err)")
        let migrated = try FerryProcess.run(["migrate", "UploadEntity:Fixtures/legacy/uploads.csv", "--model", folder + "/Workspace.xcdatamodeld",
                                             "--var", "zone=UTC", "--out", folder + "/o.sqlite"])
        #expect(migrated.err.contains(warning), "\(migrated.err)")
        #expect(migrated.out.contains("written: no records → "), "\(migrated.out)")
        // The model's own folder holds other models' bundles and mappings: none is named.
        #expect(try !FerryProcess.run(["plan", "--model", Self.model]).err.contains("names no two versions"))
    }

    /// Parser-internal messages reached a newcomer (first-hour review): "malformed XML" for a CSV
    /// given as --model, "not a folder" for a bundle that is not there, "create a file beside …
    /// failed" for an --out whose folder is missing, an XML error for a written mapping given to
    /// mapping convert.
    @Test("a wrong file given as the model, a missing bundle, a missing --out folder and a written mapping to convert are named as such")
    func wrongFilesNamed() throws {
        let folder = try TestPaths.temporaryFolder("cli-wrong-files")
        let asModel = try FerryProcess.run(["inspect", "Fixtures/legacy/uploads.csv", "--model", "Fixtures/legacy/uploads.csv"])
        let imported = try FerryProcess.run(["import", "Fixtures/legacy/uploads.csv", "--model", "Fixtures/legacy/uploads.csv", "--entity", "Upload",
                                             "--out", folder + "/a.sqlite"])
        #expect(imported.status == 3 && imported.err.contains("not a Core Data model: neither a model's XML nor a compiled .mom"), "\(imported.err)")
        #expect(!asModel.err.contains("malformed XML"), "\(asModel.err)")
        let missing = try FerryProcess.run(["plan", "--model", "Migrations/Nope.xcdatamodeld"])
        #expect(missing.status == 3 && missing.err.contains("Migrations/Nope.xcdatamodeld: cannot read: no such file or folder"), "\(missing.err)")
        let noFolder = try FerryProcess.run(["import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--model-version", "Workspace 1",
                                             "--entity", "UploadEntity", "--out", folder + "/nodir/a.sqlite"])
        #expect(noFolder.status == 4 && noFolder.err.contains("the folder \(folder)/nodir is not there (create it first)"), "\(noFolder.err)")
        let convert = try FerryProcess.run(["mapping", "convert", "Migrations/Workspace 2 to Workspace 3.mapping"])
        #expect(convert.status == 3 && convert.err.contains("is a written mapping already"), "\(convert.err)")
        // A bundle whose version's contents is not XML, and a mapping written into the model it reads.
        let bundle = folder + "/Workspace.xcdatamodeld"
        try FileManager.default.copyItem(atPath: Self.model, toPath: bundle)
        let contents = bundle + "/Workspace 3.xcdatamodel/contents"
        let original = try Data(contentsOf: URL(fileURLWithPath: contents))
        let overwrite = try FerryProcess.run(["mapping", "infer", "Workspace 2", "Workspace 3", "--model", bundle, "--out", contents, "--force"])
        #expect(overwrite.status == 2 && overwrite.err.contains("lies inside, the input"), "\(overwrite.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: contents)) == original)
        try "title,done\n".write(toFile: contents, atomically: true, encoding: .utf8)
        let notXML = try FerryProcess.run(["plan", "--model", bundle])
        #expect(notXML.status == 3 && notXML.err.contains("not a Core Data model: neither a model's XML"), "\(notXML.err)")
    }

    /// A file naming a version listed the chain's stops as the model's versions, suggested one
    /// version of several equally close, and said "no model version has" an entity one version
    /// has (first-hour review).
    @Test("a file's version is checked against the bundle's versions, and its entity against that version")
    func fileVersionNamed() throws {
        let out = try TestPaths.temporaryFolder("cli-file-version") + "/o.sqlite"
        let unknown = try FerryProcess.run(["migrate", "UploadEntity@Workspace 9:Fixtures/legacy/uploads.csv", "--model", Self.model, "--out", out])
        #expect(unknown.status == 3 && unknown.err.contains("no version 'Workspace 9'; versions: Workspace 1, Workspace 2, Workspace 3")
                && !unknown.err.contains("did you mean"), "\(unknown.err)")
        let renamed = try FerryProcess.run(["migrate", "UploadEntity@Workspace 2:Fixtures/legacy/uploads.csv", "--model", Self.model, "--out", out])
        #expect(renamed.status == 3 && renamed.err.contains("version 'Workspace 2' has no entity 'UploadEntity'; Workspace 1 has it"), "\(renamed.err)")
        let short = try FerryProcess.run(["import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--model-version", "2", "--entity", "Upload", "--out", out])
        #expect(short.status == 3 && short.err.contains("did you mean 'Workspace 2'?"), "\(short.err)")
    }

    @Test("an import into the current version of a file that lacks a column it requires points at --model-version and migrate")
    func olderVersionHint() throws {
        let out = try TestPaths.temporaryFolder("cli-older-version") + "/a.sqlite"
        let run = try FerryProcess.run(["import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--entity", "Upload", "--out", out])
        #expect(run.status == 3 && run.err.contains("no column for required attribute 'uploadID'")
                && run.err.contains("hint: the file may be of an older version of the model"), "\(run.err)")
        let named = try FerryProcess.run(["import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--model-version", "Workspace 3",
                                          "--entity", "Upload", "--out", out])
        #expect(named.status == 3 && !named.err.contains("hint:"), "a version given is the user's choice: \(named.err)")
    }

    @Test("a folder of models given as --model lists them; a file given to restore is named as a file, not as a missing manifest")
    func foldersAndFilesMistaken() throws {
        let inspect = try ferry("inspect", "Migrations")
        #expect(inspect.status == 3 && inspect.err.contains("it holds 'KYTask.xcdatamodeld', 'Upload.xcdatamodeld', 'Workspace.xcdatamodeld': "
            + "give one of them as --model"), "\(inspect.err)")
        let restore = try ferry("restore", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--out", "/nonexistent/R.sqlite")
        #expect(restore.status == 3 && restore.err.contains("uploads.csv: is a file, not a folder"), "\(restore.err)")
    }

    @Test("a usage error of a verb asked for --json prints the failure line on standard output too (a monitor got nothing)")
    func usageErrorAsJSON() throws {
        let run = try ferry("backup", "Workspace.sqlite", "--to", "/nonexistent/backups", "--json", "--keep", "0")
        #expect(run.status == 2)
        #expect(run.out == #"{"error":{"code":2,"message":"--keep takes a whole number of at least 1, not '0'"},"verb":"backup"}"# + "\n", "\(run.out)")
    }

    @Test("a legacy file given to migrate without ENTITY: is refused with what is missing, not as a broken store")
    func migrateFileWithoutEntity() throws {
        let run = try ferry("migrate", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--out", "/nonexistent/W.sqlite")
        #expect(run.status == 2)
        #expect(run.err.contains("Fixtures/legacy/uploads.csv is a CSV file, not a store: name the entity of its records, as "
            + "ENTITY:Fixtures/legacy/uploads.csv (entities of the model: KYTask, Tag, Task, Upload, UploadEntity)"), "\(run.err)")
        #expect(!run.err.contains("SQLite"))
        let plan = try ferry("plan", "--model", Self.model, "Fixtures/legacy/tasks.json")
        #expect(plan.err.contains("tasks.json is a JSON file, not a store"), "\(plan.err)")
    }

    @Test("ferry help VERB and ferry VERB help are ferry VERB --help; an unknown verb is a usage error")
    func helpVerb() throws {
        for verb in ["query", "import", "model"] {
            let help = try ferry("help", verb), flag = try ferry(verb, "--help"), after = try ferry(verb, "help")
            #expect(help.status == 0 && help.out == flag.out && help.out.hasPrefix("usage: ferry \(verb)"))
            #expect(after.status == 0 && after.out == flag.out, "ferry \(verb) help read 'help' as an input: \(after.err)")
        }
        let unknown = try ferry("help", "frobnicate")
        #expect(unknown.status == 2 && unknown.err.contains("unknown verb 'frobnicate'"))
        #expect(try ferry("help").out.contains("ferry help <verb>"))
    }

    @Test("query refuses a negative --limit or --offset as a usage error")
    func negativeLimit() throws {
        let limit = try ferry("query", "nothing.sqlite", "--entity", "Task", "--limit", "-1")
        #expect(limit.status == 2 && limit.err.contains("--limit takes a whole number of at least 0, not '-1'"))
        #expect(try ferry("query", "nothing.sqlite", "--entity", "Task", "--offset", "-2").status == 2)
    }

    @Test("JSON whose records sit under a key imports and migrates with --records-key")
    func recordsKey() throws {
        let folder = try TestPaths.temporaryFolder("cli-records-key")
        let file = folder + "/export.json"
        try Data(#"{"exported": "2014-05-01", "data": {"tasks": [{"taskID": 1, "taskTitle": "a", "taskDate": "2014-03-01", "remindTime": ""}, {"taskID": 2, "taskTitle": "b", "taskDate": "2014-03-02", "remindTime": ""}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        let imported = try ferry("import", file, "--model", "Migrations/KYTask.xcdatamodeld", "--entity", "KYTask",
                                 "--out", folder + "/K.sqlite", "--records-key", "data.tasks")
        #expect(imported.status == 0 && imported.out.hasPrefix("KYTask (KYTask): read 2, written 2, rejected 0"), "\(imported.err)")
        let migrated = try ferry("migrate", "Task:" + file, "--model", Self.model, "--records-key", "data.tasks", "--var", "zone=UTC",
                                 "--out", folder + "/W.sqlite")
        #expect(migrated.status == 0 && migrated.out.contains("written: Task 2"), "\(migrated.err)")
        let without = try ferry("import", file, "--model", "Migrations/KYTask.xcdatamodeld", "--entity", "KYTask", "--out", folder + "/N.sqlite")
        #expect(without.status == 3)
        #expect(try ferry("import", file, "--model", "Migrations/KYTask.xcdatamodeld", "--entity", "KYTask", "--out", folder + "/N.sqlite",
                          "--records-key", "data..tasks").status == 2)
    }

    @Test("unresolved links name the file, line and place of the record that gave them, and all of them go to --rejects")
    func unresolvedLinks() throws {
        let folder = try TestPaths.temporaryFolder("cli-unresolved")
        let run = try ferry("migrate", "UploadEntity:Fixtures/legacy/uploads.csv", "UploadEntity:Fixtures/legacy/uploads.plist",
                            "Task:Fixtures/legacy/tasks.json", "Task:Fixtures/legacy/tasks.ndjson", "--model", Self.model,
                            "--link", "attachments=remotePath", "--link", "tags=name", "--var", "zone=Asia/Shanghai",
                            "--out", folder + "/W.sqlite", "--rejects", folder + "/rejects.ndjson")
        #expect(run.status == 1)
        #expect(run.err.contains("Fixtures/legacy/tasks.json:223 [16]: Task.attachments: unresolved link: no Upload has remotePath "
            + "'/remote/uploads/2014/09/ghost.jpg'\n"), "\(run.err)")
        #expect(!run.err.contains("Z_PK"))
        #expect(run.err.contains("… 2 more unresolved links of Task.attachments in \(folder)/rejects.ndjson"))
        let lines = String(decoding: try TestPaths.read(folder + "/rejects.ndjson"), as: UTF8.self).split(separator: "\n")
        let entries = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let unresolved = entries.filter { ($0["reason"] as? String)?.hasPrefix("unresolved link: ") == true }
        #expect(entries.count - unresolved.count == 18 && unresolved.count == 7)
        for entry in unresolved {
            let location = try #require(entry["location"] as? [String: Any])
            #expect((location["file"] as? String)?.hasPrefix("Fixtures/legacy/tasks.") == true && location["line"] is Int)
            #expect(entry["attribute"] as? String == "attachments" && entry["value"] is String)
        }
    }
}
