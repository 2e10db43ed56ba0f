import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// Runs the built `ferry` command as a user would, and checks output and exit codes.
@Suite("the ferry command")
struct CommandLineTests {
    typealias Run = FerryProcess.Result

    func ferry(_ arguments: String..., stdin: String? = nil) throws -> Run {
        try FerryProcess.run(arguments, stdin: stdin)
    }

    @Test("the binary is built")
    func binaryExists() {
        #expect(FileManager.default.isExecutableFile(atPath: FerryProcess.binary), "ferry not found at \(FerryProcess.binary)")
    }

    @Test("no arguments and unknown verbs are usage errors; --help and --version succeed")
    func usage() throws {
        let bare = try ferry()
        #expect(bare.status == 2 && bare.out.isEmpty && bare.err.contains("usage: ferry <verb>"), "the overview goes to standard error")
        let option = try ferry("-V")
        #expect(option.status == 2 && option.err.contains("'-V' is an option, and options follow a verb"), "\(option.err)")
        #expect(try ferry("--versoin").err.contains("(did you mean '--version'?)"))
        let help = try ferry("--help")
        #expect(help.status == 0 && help.out.contains("inspect") && help.out.contains("import"))
        #expect(try ferry("frobnicate").status == 2)
        #expect(try ferry("import", "--nope").status == 2)
        #expect(try ferry("import", "x.csv", "--model").err.contains("--model needs a value"))
        let importHelp = try ferry("import", "--help")
        #expect(importHelp.status == 0 && importHelp.out.contains("--max-errors"))
        #expect(try ferry("--version").out.hasPrefix("ferry "))
    }

    @Test("misspelled subcommands and kinds get a suggestion, an option's opposite is named, and a NAME=VALUE name given twice is refused")
    func suggestionsAndRepeatedNames() throws {
        #expect(try ferry("generate", "upload", "--count", "1").err.contains("(did you mean 'uploads'?)"))
        #expect(try ferry("model", "extrct").err.contains("(did you mean 'extract'?)"))
        #expect(try ferry("mapping", "infr").err.contains("(did you mean 'infer'?)"))
        #expect(try ferry("export", "x.sqlite", "--out", "y", "--no-gzip").err.contains("(this verb has '--gzip')"))
        #expect(try ferry("backup", "x.sqlite", "--to", "y", "--gzip").err.contains("(this verb has '--no-gzip')"))
        let set = try ferry("update", "x.sqlite", "--entity", "Task", "--where", "TRUEPREDICATE", "--set", "notes=x", "--set", "notes=y")
        #expect(set.status == 2 && set.err.contains("--set gives notes twice ('x' and 'y')"), "\(set.err)")
        let variable = try ferry("migrate", "x.sqlite", "--model", "M", "--out", "o.sqlite", "--var", "zone=A", "--var", "zone=B")
        #expect(variable.status == 2 && variable.err.contains("--var gives zone twice"), "\(variable.err)")
        // The same pair twice (a wrapper's default and its caller's) is one pair.
        let same = try ferry("migrate", "x.sqlite", "--model", "M", "--out", "o.sqlite", "--var", "zone=A", "--var", "zone=A")
        #expect(same.status == 3 && !same.err.contains("twice"), "\(same.err)")
    }

    @Test("inspect prints versions, entities and Core Data's base64 hashes; --json the same facts")
    func inspect() throws {
        let text = try ferry("inspect", "Migrations/Workspace.xcdatamodeld")
        #expect(text.status == 0)
        #expect(text.out.contains("version Workspace 3 (current)"))
        #expect(text.out.contains("entity Upload  renamed from UploadEntity"))
        #expect(text.out.contains("remotePath  String      optional  renamed from urlPath"))
        #expect(text.out.contains("→ Task      to-one    optional, inverse attachments, delete Nullify"))
        let json = try ferry("inspect", "Migrations/Workspace.xcdatamodeld", "--json")
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["currentVersion"] as? String == "Workspace 3")
        let versions = try #require(object["versions"] as? [[String: Any]])
        #expect(versions.map { $0["name"] as? String } == ["Workspace 1", "Workspace 2", "Workspace 3"])
        // Every hash the text shows is in the JSON too.
        for version in versions {
            for entity in try #require(version["entities"] as? [[String: Any]]) {
                let hash = try #require(entity["versionHash"] as? String)
                #expect(Data(base64Encoded: hash)?.count == 32)
                #expect(text.out.contains("hash \(hash)"))
            }
        }
    }

    @Test("inspect of a missing or hostile model exits 3 with the reason")
    func inspectBadInput() throws {
        let missing = try ferry("inspect", "/nonexistent/Model.xcdatamodeld")
        #expect(missing.status == 3 && missing.err.contains("/nonexistent/Model.xcdatamodeld"))
        let folder = try TestPaths.temporaryFolder("cli") + "/Evil.xcdatamodel"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><model>&x;</model>"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/contents"))
        let hostile = try ferry("inspect", folder)
        #expect(hostile.status == 3 && hostile.err.contains("entity declarations are not allowed"))
    }

    @Test("import: the README's main job, exit 1 with rejects, exit 4 on an existing store, --json summary")
    func importFixture() throws {
        let folder = try TestPaths.temporaryFolder("cli")
        let out = folder + "/Workspace.sqlite"
        let run = try ferry("import", "Fixtures/legacy/uploads.csv", "--model", "Migrations/Workspace.xcdatamodeld",
                            "--model-version", "Workspace 1", "--entity", "UploadEntity", "--out", out)
        #expect(run.status == 1)
        #expect(run.out.hasPrefix("UploadEntity (Workspace 1): read 34, written 31, rejected 3 → \(out)\n"
            + "  Fixtures/legacy/uploads.csv: delimiter ',' (sniffed)\nverified: "))
        #expect(run.err.contains("reject: Fixtures/legacy/uploads.csv:15: UploadEntity.fileType: 'abc' is not an integer"))
        let again = try ferry("import", "Fixtures/legacy/uploads.csv", "--model", "Migrations/Workspace.xcdatamodeld",
                              "--model-version", "Workspace 1", "--entity", "UploadEntity", "--out", out)
        #expect(again.status == 4 && again.err.contains("use --force"))
        let json = try ferry("import", "-", "--model", "Migrations/Workspace.xcdatamodeld", "--model-version", "Workspace 1",
                             "--entity", "UploadEntity", "--out", folder + "/stdin.sqlite", "--json",
                             stdin: "fileName,time\na.png,1388538000\nb.png,1388538001\n")
        #expect(json.status == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(summary["written"] as? Int == 2 && summary["rejected"] as? Int == 0)
    }

    @Test("generate is deterministic and feeds import")
    func generate() throws {
        let first = try ferry("generate", "uploads", "--count", "200", "--seed", "9")
        let second = try ferry("generate", "uploads", "--count", "200", "--seed", "9")
        #expect(first.status == 0 && first.out == second.out)
        #expect(first.out != (try ferry("generate", "uploads", "--count", "200", "--seed", "10").out))
        let folder = try TestPaths.temporaryFolder("cli")
        let csv = folder + "/u.csv"
        #expect(try ferry("generate", "uploads", "--count", "500", "--clean", "--out", csv).status == 0)
        let run = try ferry("import", csv, "--model", "Migrations/Workspace.xcdatamodeld", "--model-version", "Workspace 1",
                            "--entity", "UploadEntity", "--out", folder + "/u.sqlite")
        #expect(run.status == 0 && run.out.contains("read 500, written 500, rejected 0"))
        // An existing file is replaced only with --force (a fixture was overwritten without a
        // word; first-hour review), a folder never; the file is written whole.
        let before = try String(contentsOfFile: csv, encoding: .utf8)
        let refused = try ferry("generate", "uploads", "--count", "5", "--out", csv)
        #expect(refused.status == 4 && refused.err.contains("u.csv exists (use --force to replace it)"), "\(refused.err)")
        #expect(try String(contentsOfFile: csv, encoding: .utf8) == before)
        #expect(try ferry("generate", "uploads", "--count", "5", "--out", csv, "--force").status == 0)
        #expect(try String(contentsOfFile: csv, encoding: .utf8) == (try ferry("generate", "uploads", "--count", "5").out))
        let folderRun = try ferry("generate", "uploads", "--count", "5", "--out", folder, "--force")
        #expect(folderRun.status == 4 && folderRun.err.contains("is a folder or a special file, not a file"), "\(folderRun.err)")
        let mapping = try ferry("mapping", "infer", "Workspace 2", "Workspace 3", "--model", "Migrations/Workspace.xcdatamodeld", "--out", folder, "--force")
        #expect(mapping.status == 4 && mapping.err.contains("is a folder or a special file, not a file"), "\(mapping.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.contains(".ferry-") })
        // A file replaced keeps its permissions; a device is written as a stream; a missing
        // folder is named, not the temporary file beside the destination.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: csv)
        #expect(try ferry("generate", "uploads", "--count", "5", "--out", csv, "--force").status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: csv)[.posixPermissions] as? Int == 0o600)
        #expect(try ferry("generate", "uploads", "--count", "5", "--out", "/dev/null").status == 0)
        let noFolder = try ferry("generate", "uploads", "--count", "5", "--out", folder + "/nodir/g.csv")
        #expect(noFolder.status == 4 && noFolder.err.contains("g.csv: the folder \(folder)/nodir is not there (create it first)")
                && !noFolder.err.contains(".ferry-"), "\(noFolder.err)")
    }

    @Test("update --set of a binary attribute that allows external storage: verify passes, query and export show the bytes")
    func externalBinary() throws {
        let store = try ExternalBinaryVerbTests.makeStore("cli-external")
        let update = try ferry("update", store, "--entity", "Photo", "--where", "number == 2", "--set", "image=q83v")
        #expect(update.status == 0, "\(update.err)")
        let verify = try ferry("verify", store)
        #expect(verify.status == 0, "\(verify.out)")
        let query = try ferry("query", store, "--entity", "Photo", "--format", "ndjson")
        #expect(query.status == 0)
        #expect(query.out.contains(#""image":"iVBORw==""#) && query.out.contains(#""image":"q83v""#))
        let folder = try TestPaths.temporaryFolder("cli-external-export")
        #expect(try ferry("export", store, "--out", folder).status == 0)
        let exported = String(decoding: try TestPaths.read(folder + "/Photo.ndjson"), as: UTF8.self)
        #expect(exported.contains(#""image":"iVBORw==""#) && exported.contains(#""image":"q83v""#))
    }
}

@Suite("the ferry command: plan, migrate, verify")
struct MigrateCommandLineTests {
    private func ferry(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let run = try FerryProcess.run(arguments)
        return (run.status, run.out, run.err)
    }

    private let flagship = ["UploadEntity:Fixtures/legacy/uploads.csv", "UploadEntity:Fixtures/legacy/uploads.plist",
                            "Task:Fixtures/legacy/tasks.json", "Task:Fixtures/legacy/tasks.ndjson",
                            "--model", "Migrations/Workspace.xcdatamodeld", "--link", "attachments=remotePath", "--link", "tags=name",
                            "--var", "zone=Asia/Shanghai"]

    @Test("the README's main job: ledger, verification, exit 1 for the rejects; verify passes (alone, by receipt, by re-run), then catches tampering with exit 5")
    func mainJob() throws {
        let out = try TestPaths.temporaryFolder("cli-migrate") + "/Workspace.sqlite"
        let run = try ferry(["migrate"] + flagship + ["--out", out])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.contains("Fixtures/legacy/uploads.csv    UploadEntity  Workspace 1  34    24       3       7         0"))
        #expect(run.out.contains("written: Task 42, Upload 25"))
        #expect(run.out.contains("verified: "))
        #expect(run.err.contains("reject: Fixtures/legacy/tasks.json:287 [20]: Task.dueDate:"))
        #expect(try ferry(["verify", out, "--model", "Migrations/Workspace.xcdatamodeld"]).status == 0)
        let against = flagship.map { $0.contains(":Fixtures/") ? "--against=\($0)" : $0 }
        let byReceipt = try ferry(["verify", out] + against)
        #expect(byReceipt.status == 0 && byReceipt.out.contains("against sources: by the store's receipt"), "\(byReceipt.out)\(byReceipt.err)")
        let rerun = try ferry(["verify", out, "--rerun"] + against)
        #expect(rerun.status == 0 && rerun.out.contains("against sources: migrated again, because asked to (--rerun)"), "\(rerun.out)\(rerun.err)")
        let database = try SQLiteDatabase(path: out, mode: .readWrite)
        try database.execute("INSERT INTO Z_1TASKS VALUES (9999, 9999)")
        try database.close()
        let broken = try ferry(["verify", out, "--model", "Migrations/Workspace.xcdatamodeld"])
        #expect(broken.status == 5)
        #expect(broken.out.contains("dangling"))
    }

    @Test("plan prints the chain, text and dot; a dry run writes nothing")
    func plan() throws {
        let text = try ferry(["plan", "--model", "Migrations/Workspace.xcdatamodeld"])
        #expect(text.status == 0 && text.out.contains("model Workspace: Workspace 1 → Workspace 2 → Workspace 3"))
        #expect(text.out.contains("uploadID    = uuid(time, remotePath, fileName)"))
        #expect(text.out.contains("    note: \"fileType outside 0…5 or none, kept as 5 (other)\" if isnil(fileType) or not fileType between 0 and 5\n"),
                "\(text.out)")
        let dot = try ferry(["plan", "--model", "Migrations/Workspace.xcdatamodeld", "--format", "dot"])
        #expect(dot.out.hasPrefix("digraph mapping {") && dot.out.hasSuffix("}\n"))
        let json = try ferry(["plan", "--model", "Migrations/Workspace.xcdatamodeld", "--json"])
        let formatJSON = try ferry(["plan", "--model", "Migrations/Workspace.xcdatamodeld", "--format", "json"])
        #expect(json.status == 0 && json.out.hasPrefix("{") && json.out == formatJSON.out)
        #expect(json.out.contains("\"notes\" : [") && json.out.contains("no title, written empty"), "\(json.out)")
        #expect(try ferry(["plan", "--model", "Migrations/Workspace.xcdatamodeld", "--json", "--format", "dot"]).status == 2)
        let folder = try TestPaths.temporaryFolder("cli-plan")
        let dry = try ferry(["plan"] + flagship + ["--rejects", folder + "/rejects.ndjson"])
        // The dry run checks the store it built as the migration would (its verdict is the run's).
        #expect(dry.status == 1 && dry.out.contains("dry run: nothing kept") && dry.out.contains("verified: 69 checks hold"), "\(dry.out)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["rejects.ndjson"])
    }

    @Test("a mapping file with a mistake names file, line and column; nothing is written")
    func badMapping() throws {
        let folder = try TestPaths.temporaryFolder("cli-mapping")
        try FileManager.default.copyItem(atPath: TestPaths.migrations + "/Workspace.xcdatamodeld", toPath: folder + "/Workspace.xcdatamodeld")
        let mapping = "mapping \"Workspace 2\" -> \"Workspace 3\"\nentity Upload\n  byteCount = round(decimal(fileSiz) * 1048576)\n"
        try Data(mapping.utf8).write(to: URL(fileURLWithPath: folder + "/Workspace 2 to Workspace 3.mapping"))
        let run = try ferry(["migrate", "UploadEntity:Fixtures/legacy/uploads.csv", "--model", folder + "/Workspace.xcdatamodeld",
                             "--out", folder + "/out.sqlite"])
        #expect(run.status == 3)
        #expect(run.err.contains("Workspace 2 to Workspace 3.mapping:3:"), "\(run.err)")
        #expect(run.err.contains("fileSiz"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }
}
