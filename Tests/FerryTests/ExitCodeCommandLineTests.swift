import FerryTestSupport
import Foundation
import Testing

/// One table of exit codes for every verb (README "Exit codes", `ferry --help`), each verb's
/// `--help` listing the codes it declares, and the cases that used to exit with the wrong code.
@Suite("exit codes")
struct ExitCodeCommandLineTests {
    static let model = "Migrations/Workspace.xcdatamodeld"

    func ferry(_ arguments: String...) throws -> FerryProcess.Result { try FerryProcess.run(arguments) }

    /// The verbs `ferry --help` lists.
    static func verbs() throws -> [String] {
        let lines = try FerryProcess.run(["--help"]).out.split(separator: "\n")
        let start = try #require(lines.firstIndex(of: "verbs:"))
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// The rows `code  meaning` of the `exit codes:` section of a help text.
    static func exitCodeRows(_ help: String) -> [(code: Int, meaning: String)] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "exit codes:") else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { line in
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let code = Int(parts[0]) else { return nil }
            return (code, parts[1].trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("ferry --help and the README show the same table, codes 0 to 7")
    func table() throws {
        let overview = Self.exitCodeRows(try ferry("--help").out)
        #expect(overview.map(\.code) == Array(0...7))
        let readme = String(decoding: try TestPaths.read(TestPaths.packageRoot + "/README.md"), as: UTF8.self)
        let section = try #require(readme.components(separatedBy: "## Exit codes").dropFirst().first)
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.first(where: \.isNumber) != nil }
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
            .compactMap { cells in Int(cells[0]).map { ($0, cells[1]) } }
        #expect(rows.map(\.0) == overview.map(\.code))
        for (row, line) in zip(rows, overview) { #expect(row.1 == line.meaning, "README row \(row.0)") }
    }

    @Test("every verb's --help lists its exit codes, 2 among them, each a code of the table")
    func helpListsExitCodes() throws {
        for verb in try Self.verbs() {
            let rows = Self.exitCodeRows(try ferry(verb, "--help").out)
            #expect(rows.contains { $0.code == 2 }, "\(verb)")
            #expect(rows.contains { $0.code == 0 }, "\(verb)")
            #expect(rows.allSatisfy { (0...7).contains($0.code) && !$0.meaning.isEmpty }, "\(verb)")
            #expect(rows.map(\.code) == rows.map(\.code).sorted(), "\(verb)")
        }
        let backup = Self.exitCodeRows(try ferry("backup", "--help").out)
        #expect(backup.contains { $0.code == 7 })
        let importCodes = Self.exitCodeRows(try ferry("import", "--help").out).map(\.code)
        #expect(importCodes == [0, 1, 2, 3, 4, 5, 6])
    }

    @Test("import and migrate with a model that has no store layout are bad input (3), not 'cannot write' (4)")
    func modelWithoutLayout() throws {
        let folder = try TestPaths.temporaryFolder("exit-codes")
        // An ordered to-many without an inverse: no store shows where Core Data keeps its order.
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Playlist" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="songs" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Song"/>
                </entity>
                <entity name="Song" syncable="YES">
                    <attribute name="title" attributeType="String"/>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Playlists", versions: [("Playlists", contents)], in: folder)
        try "name\nmorning\n".write(toFile: folder + "/playlists.csv", atomically: true, encoding: .utf8)
        let imported = try ferry("import", folder + "/playlists.csv", "--model", bundle, "--entity", "Playlist", "--out", folder + "/i.sqlite")
        #expect(imported.status == 3 && imported.err.contains("songs"), "\(imported.err)")
        let migrated = try ferry("migrate", "Playlist:" + folder + "/playlists.csv", "--model", bundle, "--out", folder + "/m.sqlite")
        #expect(migrated.status == 3 && migrated.err.contains("songs"), "\(migrated.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/i.sqlite") && !FileManager.default.fileExists(atPath: folder + "/m.sqlite"))
    }

    @Test("restore of a folder that is missing, or holds no manifest or one that is not a manifest, is bad input (3)")
    func restoreMissingFolder() throws {
        let folder = try TestPaths.temporaryFolder("exit-codes")
        let missing = try ferry("restore", folder + "/no-such-backup", "--model", Self.model, "--out", folder + "/r.sqlite")
        #expect(missing.status == 3, "\(missing.err)")
        #expect(missing.err.contains("no-such-backup: no such folder"), "\(missing.err)")
        let empty = try ferry("restore", folder, "--model", Self.model, "--out", folder + "/r.sqlite")
        #expect(empty.status == 3 && empty.err.contains("manifest.json: the manifest is missing or unreadable"), "\(empty.err)")
        // A manifest cut short, or of another shape, is an input that cannot be read, as the
        // exit codes say (it was 5, as if the backup had been read and failed its check).
        for (text, reason) in [("{\"formatVersion\": ", "it is not valid JSON"), ("{\"formatVersion\": \"one\"}", "the value of formatVersion is not a whole number"),
                               ("{\"formatVersion\": 1}", "the key tool is missing"), ("[]", "it is not a JSON object of a manifest's keys"),
                               ("{\"formatVersion\": null}", "the value of formatVersion is null, where a whole number belongs")] {
            try text.write(toFile: folder + "/manifest.json", atomically: true, encoding: .utf8)
            let broken = try ferry("restore", folder, "--model", Self.model, "--out", folder + "/r.sqlite")
            #expect(broken.status == 3 && broken.err.contains("manifest.json: the manifest is not valid: " + reason), "\(broken.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/r.sqlite"))
    }

    @Test("update --set of an attribute the entity lacks is bad input (3), changes nothing, and names the closest")
    func updateUnknownAttribute() throws {
        let folder = try TestPaths.temporaryFolder("exit-codes")
        let store = try ExportTestSupport.workspace2Store(folder)
        let before = try TestPaths.read(store)
        let run = try ferry("update", store, "--entity", "Task", "--where", "TRUEPREDICATE", "--set", "nope=1")
        #expect(run.status == 3, "\(run.err)")
        #expect(run.err.contains("nope"))
        #expect(try TestPaths.read(store) == before)
        let typo = try ferry("update", store, "--entity", "Task", "--where", "TRUEPREDICATE", "--set", "priorty=1")
        #expect(typo.status == 3 && typo.err.contains("attribute 'priorty': did you mean 'priority'?"), "\(typo.err)")
        let query = try ferry("query", store, "--entity", "Tsak")
        #expect(query.status == 3 && query.err.contains("entity 'Tsak': did you mean 'Task'?"), "\(query.err)")
        let export = try ferry("export", store, "--out", folder + "/e", "--entity", "Uplaod")
        #expect(export.status == 3 && export.err.contains("entity 'Uplaod': did you mean 'Upload'?"), "\(export.err)")
        let fine = try ferry("update", store, "--entity", "Task", "--where", "TRUEPREDICATE", "--set", "priority=2")
        #expect(fine.status == 0, "\(fine.err)")
    }

    @Test("backup --keep 0 is a usage error (2)")
    func backupKeepZero() throws {
        let folder = try TestPaths.temporaryFolder("exit-codes")
        let run = try ferry("backup", "Missing.sqlite", "--to", folder + "/b", "--keep", "0")
        #expect(run.status == 2 && run.err.contains("--keep"), "\(run.err)")
    }

    @Test("a UTF-16 plist that does not decode is bad input (3), said once in Ferry's words: nothing of libxml2's on standard error")
    func brokenUTF16Plist() throws {
        let folder = try TestPaths.temporaryFolder("exit-codes")
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist version=\"1.0\"><array><dict><key>fileName</key>"
            + "<string>a\u{FFFF}b</string></dict></array></plist>\n"
        // Little-endian UTF-16 with a byte order mark, the U+FFFF placeholder replaced by a lone high surrogate.
        let units = Array(text.utf16).map { $0 == 0xFFFF ? 0xD800 : $0 }
        let bytes: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let plist = folder + "/broken.plist"
        try Data(bytes).write(to: URL(fileURLWithPath: plist))
        let run = try ferry("import", plist, "--model", Self.model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                            "--out", folder + "/i.sqlite")
        #expect(run.status == 3, "\(run.err)")
        let lines = run.err.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("ferry import: \(plist): XML property list: "), "\(run.err)")
        #expect(!run.err.contains("encoding error") && !run.err.contains("I/O error"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/i.sqlite"))
    }

    @Test("a run stopped by --max-errors exits 6, writes nothing and says so on standard output; finished with rejects it exits 1; plan's dry run exits as migrate does")
    func rejectLimit() throws {
        let folder = try TestPaths.temporaryFolder("exit-codes")
        let importArguments = ["import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--model-version", "Workspace 1",
                               "--entity", "UploadEntity"]
        let stopped = try FerryProcess.run(importArguments + ["--out", folder + "/i.sqlite", "--max-errors", "1"])
        #expect(stopped.status == 6, "\(stopped.err)")
        #expect(stopped.err.contains("--max-errors"))
        #expect(stopped.out.contains("not kept, because the run stopped at the reject limit (--max-errors): nothing was written to"), "\(stopped.out)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/i.sqlite"))
        let finished = try FerryProcess.run(importArguments + ["--out", folder + "/i.sqlite", "--max-errors", "100"])
        #expect(finished.status == 1, "\(finished.err)")
        let migrateArguments = ["migrate", "UploadEntity:Fixtures/legacy/uploads.csv", "--model", Self.model, "--var", "zone=UTC", "--max-errors", "1"]
        let migrate = try FerryProcess.run(migrateArguments + ["--out", folder + "/m.sqlite"])
        #expect(migrate.status == 6, "\(migrate.err)")
        // The summary never says the store went where it did not.
        #expect(!migrate.out.contains("→ \(folder)/m.sqlite"), "\(migrate.out)")
        #expect(migrate.out.contains("not kept, because the run stopped at the reject limit (--max-errors): nothing was written to"), "\(migrate.out)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/m.sqlite"))
        let plan = try FerryProcess.run(["plan"] + migrateArguments.dropFirst())
        #expect(plan.status == 6, "\(plan.err)")
    }

    @Test("first-hour mistakes say what to do: a written mapping or data file given to inspect, a folder of backups given to restore, --where without --entity (2)")
    func firstHourMistakes() throws {
        let folder = try TestPaths.temporaryFolder("first-hour")
        let mapping = try ferry("inspect", "Migrations/Workspace 2 to Workspace 3.mapping")
        #expect(mapping.status == 3 && mapping.err.contains("a written mapping is shown by ferry plan"), "\(mapping.err)")
        let data = try ferry("inspect", "Fixtures/legacy/uploads.csv")
        #expect(data.status == 3 && data.err.contains("ferry model infer describes a data file"), "\(data.err)")
        // A store that is none (the empty file a failed sqlite3 query leaves) was "not a Core Data
        // model", or, with --model, "--model goes with a STORE" (2).
        #expect(FileManager.default.createFile(atPath: folder + "/empty.sqlite", contents: Data()))
        for extra in [[], ["--model", Self.model]] {
            let empty = try FerryProcess.run(["inspect", folder + "/empty.sqlite"] + extra)
            #expect(empty.status == 3 && empty.err.contains("empty.sqlite: not an SQLite database: the file is empty"), "\(empty.err)")
        }
        let store = try ExportTestSupport.workspace2Store(folder)
        #expect(try ferry("backup", store, "--to", folder + "/backups").status == 0)
        let backups = try ferry("restore", folder + "/backups", "--model", Self.model, "--out", folder + "/R.sqlite")
        #expect(backups.status == 3 && backups.err.contains("it is a folder of backups, not one backup; give one of them, as \(folder)/backups/"),
                "\(backups.err)")
        let selection = try ferry("export", store, "--out", folder + "/e", "--where", "priority > 1")
        #expect(selection.status == 2 && selection.err.contains("give exactly one --entity"), "\(selection.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/e") && !FileManager.default.fileExists(atPath: folder + "/R.sqlite"))
    }

    @Test("an unknown model version or entity is bad input (3), with the closest name suggested")
    func unknownModelNames() throws {
        let folder = try TestPaths.temporaryFolder("exit-codes")
        let importVersion = try ferry("import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--model-version", "Workspce 1",
                                      "--entity", "UploadEntity", "--out", folder + "/i.sqlite")
        #expect(importVersion.status == 3, "\(importVersion.err)")
        #expect(importVersion.err.contains("did you mean 'Workspace 1'?"), "\(importVersion.err)")
        let importEntity = try ferry("import", "Fixtures/legacy/uploads.csv", "--model", Self.model, "--model-version", "Workspace 1",
                                     "--entity", "UplodEntity", "--out", folder + "/i.sqlite")
        #expect(importEntity.status == 3 && importEntity.err.contains("did you mean 'UploadEntity'?"), "\(importEntity.err)")
        let migrateVersion = try ferry("migrate", "UploadEntity:Fixtures/legacy/uploads.csv", "--model", Self.model,
                                       "--model-version", "Workspace 9", "--out", folder + "/m.sqlite")
        #expect(migrateVersion.status == 3, "\(migrateVersion.err)")
        let migrateEntity = try ferry("migrate", "Tsk:Fixtures/legacy/tasks.json", "--model", Self.model, "--out", folder + "/m.sqlite")
        #expect(migrateEntity.status == 3 && migrateEntity.err.contains("did you mean 'Task'?"), "\(migrateEntity.err)")
        let mapping = try ferry("mapping", "infer", "Workspace 2", "Workspace 33", "--model", Self.model)
        // A version differing only in its number is no misspelling of another: the versions are listed.
        #expect(mapping.status == 3 && mapping.err.contains("its versions are Workspace 1, Workspace 2, Workspace 3")
                && !mapping.err.contains("did you mean"), "\(mapping.err)")
        let misspelt = try ferry("mapping", "infer", "Workspace 2", "Workspce 3", "--model", Self.model)
        #expect(misspelt.status == 3 && misspelt.err.contains("did you mean 'Workspace 3'?"), "\(misspelt.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/i.sqlite") && !FileManager.default.fileExists(atPath: folder + "/m.sqlite"))
    }

    /// Found by a hostile run: under `ulimit -f`, export blamed the store for SQLite's sort file
    /// in /var/tmp ("big.sqlite: SQLite error 778 (disk I/O error)", exit 3).
    @Test("no room for SQLite's temporary files while a store is read is exit 4, naming their folder, no fault of the store")
    func temporaryFilesWithoutRoom() throws {
        let folder = try TestPaths.temporaryFolder("temporary-files")
        let bundle = try TestPaths.xcodeModelBundle("Notes", versions: [("Notes", """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Note"><attribute name="text" attributeType="String"/></entity>
            </model>
            """)], in: folder)
        // About 6 MB of text to sort by a column no index holds: more than SQLite sorts in memory.
        let lines = (0..<20_000).map { #"{"text":""# + String(repeating: "x", count: 300) + #"\#(($0 * 7_919) % 20_000)"}"# }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/notes.ndjson"))
        let store = folder + "/Notes.sqlite"
        let imported = try ferry("import", folder + "/notes.ndjson", "--model", bundle, "--entity", "Note", "--out", store)
        #expect(imported.status == 0, "\(imported.err)")
        let temporary = folder + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        // ulimit -f counts 512-byte blocks (POSIX sh): 256 blocks is 128 KiB, far less than the sort.
        let run = try ExportTestSupport.shell("ulimit -f 256; SQLITE_TMPDIR='\(temporary)' '\(ExportTestSupport.binary)' query '\(store)' "
            + "--entity Note --sort text > /dev/null")
        #expect(run.status == 4, "\(run.err)")
        #expect(run.err.contains("file size limit reached writing a temporary file in \(temporary) (SQLite's sort and scratch files"), "\(run.err)")
        #expect(!run.err.contains("SQLite error"), "\(run.err)")
    }

    /// The writer opened the store it builds before it was told the destination: out of
    /// descriptors there, an import said "so Out.sqlite.ferry-….tmp could not be opened", a file
    /// the user never named and that is gone when the run ends.
    @Test("a store that could not be opened or checked for want of descriptors is named as the destination, not the file it is built in")
    func writerOpenNamesTheDestination() throws {
        let folder = try TestPaths.temporaryFolder("descriptors-destination")
        let uploads = folder + "/uploads.csv"
        #expect(try ferry("generate", "uploads", "--count", "100", "--clean", "--out", uploads).status == 0)
        var said: [String] = []
        for limit in 4...12 {
            let out = folder + "/out-\(limit).sqlite"
            let run = try ExportTestSupport.shell("ulimit -n \(limit); '\(ExportTestSupport.binary)' import '\(uploads)' --model '\(Self.model)' "
                + "--model-version 'Workspace 2' --entity Upload --out '\(out)'")
            // Neither the writer nor the checks of the store built (`could not be verified`) name
            // the file it is built in.
            #expect(!run.err.contains(".ferry-"), "ulimit -n \(limit): \(run.err)")
            guard run.status == 4, run.err.contains("too many open files"), !run.err.contains("could not be verified") else { continue }
            said.append(run.err)
            #expect(run.err.contains("so \(out) could not be opened"), "ulimit -n \(limit): \(run.err)")
        }
        #expect(!said.isEmpty, "no limit ran out of descriptors before the checks")
    }

    /// A check whose query could not open its connection was a failure of the store: `verify`
    /// said VERIFICATION FAILED (5) of a sound store, and an `--append` run out of descriptors
    /// exited 5 where the store simply could not be checked (4, nothing placed).
    @Test("checks that cannot run for want of descriptors are never a verification failure: verify exits 3, import 4, at every limit")
    func checksWithoutDescriptors() throws {
        let folder = try TestPaths.temporaryFolder("descriptors")
        let store = try ExportTestSupport.workspace2Store(folder)
        // The limit is raised until verify passes: the limits below leave it some connections
        // (which of its threads finds none first varies from run to run).
        var (refused, passed) = (0, false)
        for limit in 5...64 where !passed {
            let run = try ExportTestSupport.shell("ulimit -n \(limit); '\(ExportTestSupport.binary)' verify '\(store)'")
            #expect([0, 3].contains(run.status), "ulimit -n \(limit): \(run.err)")
            if run.status == 3 { refused += 1 }
            passed = run.status == 0
        }
        #expect(passed && refused > 0, "no limit left verify without a connection")
        let (legacy, model) = (TestPaths.fixtures + "/legacy", ExportTestSupport.workspace)
        let uploads = folder + "/uploads.sqlite"
        let imported = try ferry("import", legacy + "/uploads.csv", "--model", model, "--model-version", "Workspace 2", "--entity", "Upload",
                                 "--out", uploads)
        #expect(imported.status <= 1, "\(imported.err)")
        for limit in 8...24 {
            let target = folder + "/appended-\(limit).sqlite"
            try FileManager.default.copyItem(atPath: uploads, toPath: target)
            let run = try ExportTestSupport.shell("ulimit -n \(limit); '\(ExportTestSupport.binary)' import '\(legacy)/tasks.json' "
                + "--model '\(model)' --model-version 'Workspace 2' --entity Task --out '\(target)' --append "
                + "--link attachments=remotePath --link tags=name --create-missing tags")
            // The fixture's tasks name one upload that does not exist: 1 when the run completes.
            #expect([1, 4].contains(run.status), "ulimit -n \(limit): \(run.err)")
            #expect(!run.err.contains("VERIFICATION FAILED"), "ulimit -n \(limit): \(run.err)")
            // A migration's store it could not check is the destination's failure too (it was 3),
            // and replaces nothing (it was put in place over the store --force named).
            let replaced = folder + "/migrated-\(limit).sqlite"
            try FileManager.default.copyItem(atPath: uploads, toPath: replaced)
            let migrated = try ExportTestSupport.shell("ulimit -n \(limit); '\(ExportTestSupport.binary)' migrate '\(store)' "
                + "--model '\(model)' --var zone=UTC --out '\(replaced)' --force")
            #expect(migrated.status != 5 && !(migrated.status == 3 && migrated.err.contains("written store")), "ulimit -n \(limit): \(migrated.err)")
            if migrated.status > 1 {
                #expect(try Data(contentsOf: URL(fileURLWithPath: replaced)) == Data(contentsOf: URL(fileURLWithPath: uploads)),
                        "ulimit -n \(limit): \(migrated.err)")
            }
        }
    }

    /// Found by hostile runs: what the environment ran out of was blamed on another file or on
    /// the input. The destination's own write past `ulimit -f` was "a temporary file in TMPDIR"
    /// (the rollback had shrunk the file again); a store read through a copy in a full TMPDIR was
    /// bad input (exit 3, "wal.sqlite: cannot open: could not copy the store"); update and delete
    /// called a -shm that could not grow "SQLite error 4874", exit 3.
    @Test("no room for the destination, for TMPDIR's copies or for a store's -shm is exit 4, naming the file or folder that had none")
    func roomBlamedOnTheRightFile() throws {
        let folder = try TestPaths.temporaryFolder("environment-room")
        let binary = ExportTestSupport.binary
        let uploads = folder + "/uploads.csv"
        #expect(try ferry("generate", "uploads", "--count", "20000", "--clean", "--out", uploads).status == 0)
        let store = folder + "/up.sqlite"
        let imported = try ferry("import", uploads, "--model", Self.model, "--model-version", "Workspace 2", "--entity", "Upload", "--out", store)
        #expect(imported.status == 0, "\(imported.err)")
        let temporary = folder + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        // ulimit -f counts 512-byte blocks (POSIX sh): 13,000 blocks is 6.5 MB, less than the store's 7.5 MB.
        let out = folder + "/out.sqlite"
        let limited = try ExportTestSupport.shell("ulimit -f 13000; TMPDIR='\(temporary)' '\(binary)' import '\(uploads)' --model '\(Self.model)' "
            + "--model-version 'Workspace 2' --entity Upload --out '\(out)'")
        #expect(limited.status == 4 && limited.err.contains("file size limit reached writing \(out)") && !limited.err.contains("temporary"),
                "\(limited.err)")
        // Committed pages in its -wal: the store is read through a copy in TMPDIR, which has no room for it.
        let logged = folder + "/logged.sqlite"
        try FileManager.default.copyItem(atPath: store, toPath: logged)
        #expect(try ferry("update", logged, "--entity", "Upload", "--where", "TRUEPREDICATE", "--set", "fileType=1").status == 0)
        let copied = try ExportTestSupport.shell("ulimit -f 2000; TMPDIR='\(temporary)' '\(binary)' export '\(logged)' --out '\(folder)/export'")
        #expect(copied.status == 4 && copied.err.contains("file size limit reached writing a temporary file in \(temporary)"), "\(copied.err)")
        // 16 blocks is 8 KiB: the store's 32 KiB -shm cannot grow.
        let small = try ExportTestSupport.workspace2Store(folder)
        for verb in ["update", "delete"] {
            let changed = folder + "/\(verb).sqlite"
            try FileManager.default.copyItem(atPath: small, toPath: changed)
            let change = verb == "update" ? "--set priority=1" : ""
            let run = try ExportTestSupport.shell("ulimit -f 16; '\(binary)' \(verb) '\(changed)' --entity Task --where TRUEPREDICATE \(change)")
            #expect(run.status == 4 && run.err.contains("file size limit reached writing \(changed)") && !run.err.contains("SQLite error"),
                    "\(verb): \(run.err)")
        }
    }

    /// Found by a hostile run: update and delete of a store in a folder the user may not write
    /// said "SQLite error 1544 (attempt to write a readonly database)", exit 3.
    @Test("update and delete of a store in a read-only folder are exit 4, naming the folder")
    func readOnlyFolder() throws {
        let setpriv = "/usr/bin/setpriv"
        guard getuid() != 0 || FileManager.default.isExecutableFile(atPath: setpriv) else { return }
        let folder = try TestPaths.temporaryFolder("environment-read-only")
        let locked = folder + "/locked"
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        let store = try ExportTestSupport.workspace2Store(locked)
        // Root writes any folder: the run is of another user then, who owns the store and not the folder.
        let user = getuid() == 0 ? "\(setpriv) --reuid=65534 --regid=65534 --clear-groups " : ""
        if getuid() == 0 { #expect(chown(store, 65534, 65534) == 0) }
        #expect(chmod(folder, 0o755) == 0 && chmod(locked, 0o555) == 0)
        defer { _ = chmod(locked, 0o755) }
        for verb in ["update", "delete"] {
            let change = verb == "update" ? "--set priority=1" : ""
            let run = try ExportTestSupport.shell("\(user)'\(ExportTestSupport.binary)' \(verb) '\(store)' --entity Task --where TRUEPREDICATE \(change)")
            #expect(run.status == 4 && run.err.contains("cannot write in \(locked): the folder is read-only"), "\(verb): \(run.err)")
        }
    }

    /// Found by hostile runs: out of descriptors, `import --append` said another process had the
    /// store open (the list of locks could not be opened), and `import` called its JSON source
    /// unreadable ("tasks.json: cannot open: Too many open files", exit 3).
    @Test("import out of descriptors is exit 4 saying so at every limit, never bad input nor another process's store")
    func importWithoutDescriptors() throws {
        let folder = try TestPaths.temporaryFolder("environment-descriptors")
        let (legacy, model) = (TestPaths.fixtures + "/legacy", ExportTestSupport.workspace)
        let uploads = folder + "/uploads.sqlite"
        #expect(try ferry("import", legacy + "/uploads.csv", "--model", model, "--model-version", "Workspace 2", "--entity", "Upload",
                          "--out", uploads).status <= 1)
        for limit in 4...24 {
            let target = folder + "/appended-\(limit).sqlite"
            try FileManager.default.copyItem(atPath: uploads, toPath: target)
            let options = "--model '\(model)' --model-version 'Workspace 2' --entity Task --link attachments=remotePath --link tags=name "
                + "--create-missing tags"
            for run in [try ExportTestSupport.shell("ulimit -n \(limit); '\(ExportTestSupport.binary)' import '\(legacy)/tasks.json' "
                                                    + "'\(legacy)/tasks.ndjson' \(options) --out '\(folder)/new-\(limit).sqlite'"),
                        try ExportTestSupport.shell("ulimit -n \(limit); '\(ExportTestSupport.binary)' import '\(legacy)/tasks.json' "
                                                    + "\(options) --out '\(target)' --append")] {
                // The fixture's tasks name one upload that does not exist: 1 when the run completes.
                #expect([1, 4].contains(run.status), "ulimit -n \(limit): \(run.err)")
                #expect(run.status == 1 || run.err.contains("too many open files"), "ulimit -n \(limit): \(run.err)")
                #expect(!run.err.contains("another process"), "ulimit -n \(limit): \(run.err)")
            }
        }
    }

    /// Found by a review: a write(2) that took no byte and gave no error (a file system with no
    /// room may answer so) was retried forever, by an export's files and by the message that
    /// would have said so.
    @Test("writes that take no byte are no room: export stops, exit 4, nothing placed", .enabled(if: SignalInjection.available, "needs strace"))
    func writesTakingNothing() throws {
        let folder = try TestPaths.temporaryFolder("environment-no-progress")
        let store = try ExportTestSupport.workspace2Store(folder)
        let out = folder + "/out"
        let run = try ExportTestSupport.shell("timeout 60 /usr/bin/strace -f -o /dev/null -e trace=write -e inject=write:retval=0 "
            + "'\(ExportTestSupport.binary)' export '\(store)' --out '\(out)' --format csv")
        #expect(run.status == 4)
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
