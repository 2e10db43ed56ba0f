import FerryTestSupport
import Foundation
import Testing

/// The built `ferry` interrupted, out of room, or racing another run: temporary files never
/// survive, no-room failures are exit 4 with one message, nothing replaces without --force.
@Suite("interruption, full disks and concurrency on the command line")
struct InterruptionCommandTests {
    private let ferry = ExportTestSupport.binary
    private let model = ExportTestSupport.workspace
    private var migrate: String {
        "'\(ferry)' migrate 'UploadEntity:\(TestPaths.fixtures)/legacy/uploads.csv' 'Task:\(TestPaths.fixtures)/legacy/tasks.json' "
            + "--model '\(model)' --link attachments=remotePath --link tags=name --var zone=Asia/Shanghai"
    }

    private func names(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// Starts `ferry import` of a large generated CSV into `folder/S.sqlite`, and returns once its
    /// temporary store exists (the run is then writing).
    private func startLargeImport(in folder: String) throws -> ChildProcess {
        let csv = folder + "/big.csv"
        let made = try FerryProcess.run(["generate", "uploads", "--count", "200000", "--format", "csv", "--out", csv])
        try #require(made.status == 0, "\(made.err)")
        let child = try ChildProcess([ferry, "import", csv, "--model", model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                               "--out", folder + "/S.sqlite"])
        for _ in 0..<6_000 where child.isRunning {
            if try names(folder).contains(where: { $0.hasPrefix("S.sqlite.ferry-") }) { return child }
            usleep(20_000)
        }
        kill(child.pid, SIGKILL)
        throw CancellationError()
    }

    @Test("SIGTERM and SIGINT remove the store being built and end the run by the signal", arguments: [SIGTERM, SIGINT])
    func signalRemovesTemporaryFiles(signal: Int32) throws {
        let folder = try TestPaths.temporaryFolder("signal")
        let child = try startLargeImport(in: folder)
        kill(child.pid, signal)
        let status = child.wait()
        // Ended by the signal itself (re-raised after the clean-up), not by an exit.
        #expect(status & 0x7F == signal, "wait status \(status)")
        let left = try names(folder)
        #expect(left == ["big.csv"], "left: \(left)")
    }

    /// Found by a hostile test: `--log json 2>&1 | head -c 300` killed the run by SIGPIPE, which had
    /// no handler, and the store being built stayed behind.
    @Test("SIGPIPE (the reader of the log went away) removes the store being built and ends the run by the signal")
    func brokenPipeRemovesTemporaryFiles() throws {
        let folder = try TestPaths.temporaryFolder("sigpipe")
        let run = try ExportTestSupport.shell("cd '\(folder)' && { \(migrate) --out o.sqlite --log json 2>&1 >/dev/null; echo $? > status; } "
            + "| head -c 300 >/dev/null")
        #expect(run.status == 0)
        let status = try String(contentsOfFile: folder + "/status", encoding: .utf8)
        #expect(status == "141\n" || status == "1\n", "exit \(status)")
        let left = try names(folder).filter { $0 != "status" }
        #expect(left == (status == "1\n" ? ["o.sqlite"] : []), "left: \(left)")
    }

    @Test("a kill -9 leaves the store being built; the next run to the same store removes it and succeeds")
    func killedRunIsSweptByTheNext() throws {
        let folder = try TestPaths.temporaryFolder("kill9")
        let child = try startLargeImport(in: folder)
        kill(child.pid, SIGKILL)
        _ = child.wait()
        #expect(try names(folder).contains { $0.hasPrefix("S.sqlite.ferry-") && $0.hasSuffix(".tmp") })
        let next = try FerryProcess.run(["import", TestPaths.fixtures + "/legacy/uploads.csv", "--model", model, "--model-version", "Workspace 1",
                                         "--entity", "UploadEntity", "--out", folder + "/S.sqlite"])
        #expect(next.status <= 1, "\(next.err)")
        #expect(try names(folder) == ["S.sqlite", "big.csv"])
    }

    @Test("a file size limit is exit 4, 'file size limit reached writing' the destination, for every verb; nothing is left")
    func fileSizeLimitEverywhere() throws {
        let folder = try TestPaths.temporaryFolder("efbig")
        let store = try ExportTestSupport.workspace2Store(folder)
        let export = try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/export'")
        try #require(export.status == 0)
        let before = try names(folder)
        // ulimit -f counts 512-byte blocks in sh: 8 blocks is 4 KiB, less than any of these outputs.
        let runs = [
            ("\(migrate) --out '\(folder)/M.sqlite'", "\(folder)/M.sqlite"),
            ("'\(ferry)' import '\(TestPaths.fixtures)/legacy/uploads.csv' --model '\(model)' --model-version 'Workspace 1' "
                + "--entity UploadEntity --out '\(folder)/I.sqlite'", "\(folder)/I.sqlite"),
            ("'\(ferry)' restore '\(folder)/export' --model '\(model)' --out '\(folder)/R.sqlite'", "\(folder)/R.sqlite"),
            ("'\(ferry)' backup '\(store)' --to '\(folder)/backups'", "\(folder)/backups"),
            ("'\(ferry)' export '\(store)' --out '\(folder)/E'", "\(folder)/E/"),
            ("'\(ferry)' generate uploads --count 1000 --format csv --out '\(folder)/G.csv'", "\(folder)/G.csv"),
        ]
        for (command, destination) in runs {
            let run = try ExportTestSupport.shell("ulimit -f 8; " + command)
            #expect(run.status == 4, "\(command): \(run.err)")
            #expect(run.err.contains("file size limit reached writing \(destination)"), "\(command): \(run.err)")
            #expect(!run.err.contains(".ferry-") && !run.err.contains("SQLite"), "\(run.err)")
        }
        #expect(try names(folder) == (before + ["backups"]).sorted())
        #expect(try names(folder + "/backups") == [".ferry-backup.lock"])
    }

    @Test("a full disk writing the reject log (/dev/full) is exit 4 'disk full writing', and no store is written")
    func fullDiskIsExit4() throws {
        let folder = try TestPaths.temporaryFolder("enospc")
        let run = try ExportTestSupport.shell("\(migrate) --out '\(folder)/M.sqlite' --rejects /dev/full")
        #expect(run.status == 4, "\(run.err)")
        #expect(run.err.contains("disk full writing /dev/full"), "\(run.err)")
        #expect(try names(folder).isEmpty)
        #expect(FileManager.default.fileExists(atPath: "/dev/full"))
    }

    @Test("error paths leave nothing: --out an existing folder with --force, --out ''")
    func errorPathsLeaveNothing() throws {
        let folder = try TestPaths.temporaryFolder("errorpaths")
        try FileManager.default.createDirectory(atPath: folder + "/taken", withIntermediateDirectories: false)
        let onFolder = try ExportTestSupport.shell("\(migrate) --out '\(folder)/taken' --force")
        #expect(onFolder.status == 4, "\(onFolder.err)")
        #expect(try names(folder) == ["taken"] && names(folder + "/taken").isEmpty)
        // An empty path is a usage error of every path option, before anything is opened.
        let empty = try ExportTestSupport.shell("cd '\(folder)/taken' && \(migrate) --out ''")
        #expect(empty.status == 2 && empty.err.contains("--out needs a path, not an empty one"), "\(empty.err)")
        let export = try ExportTestSupport.shell("cd '\(folder)/taken' && '\(ferry)' export x.sqlite --out ''")
        #expect(export.status == 2 && export.err.contains("--out needs a path"), "\(export.err)")
        #expect(try names(folder + "/taken").isEmpty)
    }

    @Test("a second migration to the same --out without --force is exit 4 and the first store stays intact")
    func secondMigrationNeverReplaces() throws {
        let folder = try TestPaths.temporaryFolder("noreplace")
        let first = try ExportTestSupport.shell("\(migrate) --out '\(folder)/W.sqlite'")
        #expect(first.status == 1)
        let written = try Data(contentsOf: URL(fileURLWithPath: folder + "/W.sqlite"))
        let second = try ExportTestSupport.shell("\(migrate) --out '\(folder)/W.sqlite'")
        #expect(second.status == 4 && second.err.contains("exists"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/W.sqlite")) == written)
        #expect(try names(folder) == ["W.sqlite"])
        #expect(try FerryProcess.run(["verify", folder + "/W.sqlite", "--model", model]).status == 0)
    }

    @Test("export never writes through a symbolic link planted in --out DIR")
    func exportReplacesPlantedLinks() throws {
        let folder = try TestPaths.temporaryFolder("symlink")
        let store = try ExportTestSupport.workspace2Store(folder)
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/victim"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/out/Tag.ndjson", withDestinationPath: folder + "/victim")
        let run = try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out'")
        #expect(run.status == 0, "\(run.err)")
        #expect(try String(contentsOfFile: folder + "/victim", encoding: .utf8) == "keep")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/out/Tag.ndjson")
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        // The lock file of an export into an existing folder stays, as a backup's does.
        #expect(try names(folder + "/out") == [".ferry-export.lock", "Tag.ndjson", "Task.ndjson", "Upload.ndjson", "manifest.json"])
    }

    @Test("an export into a folder that holds an earlier export of another format replaces it: no stale files stay, others do")
    func exportReplacesAnEarlierExport() throws {
        let folder = try TestPaths.temporaryFolder("export-over-export")
        let store = try ExportTestSupport.workspace2Store(folder)
        let csv = try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out' --format csv")
        #expect(csv.status == 0, "\(csv.err)")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/out/notes.txt"))
        let json = try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out' --format json")
        #expect(json.status == 0, "\(json.err)")
        #expect(try names(folder + "/out") == [".ferry-export.lock", "Tag.json", "Task.json", "Upload.json", "manifest.json", "notes.txt"])
        #expect(try String(contentsOfFile: folder + "/out/notes.txt", encoding: .utf8) == "mine")
        // A file of the earlier export edited since is the user's: it stays.
        try Data("edited\n".utf8).write(to: URL(fileURLWithPath: folder + "/out/Tag.json"))
        let csv2 = try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out' --format csv")
        #expect(csv2.status == 0, "\(csv2.err)")
        #expect(try names(folder + "/out") == [".ferry-export.lock", "Tag.csv", "Tag.json", "Task.csv", "Upload.csv", "manifest.json", "notes.txt"])
    }

    /// Found by a hostile test: a SIGTERM while the files were renamed in one by one left the
    /// folder with no manifest, some new files and some of the earlier export.
    @Test("a SIGTERM while an export replaces an earlier one in its folder waits for the end: the folder holds the whole new export",
          .enabled(if: SignalInjection.available, "needs strace"))
    func signalWaitsForExportReplacement() throws {
        let folder = try TestPaths.temporaryFolder("export-signal")
        let store = try ExportTestSupport.workspace2Store(folder)
        #expect(try FerryProcess.run(["export", store, "--out", folder + "/out", "--format", "csv"]).status == 0)
        let status = try SignalInjection.run(["export", store, "--out", folder + "/out"], signal: "SIGTERM", after: "rename", when: 2)
        #expect(status & 0x7F == SIGTERM, "wait status \(status)")
        #expect(try names(folder + "/out") == [".ferry-export.lock", "Tag.ndjson", "Task.ndjson", "Upload.ndjson", "manifest.json"])
        let restored = try FerryProcess.run(["restore", folder + "/out", "--model", model, "--out", folder + "/r.sqlite"])
        #expect(restored.status == 0, "\(restored.err)")
    }

    @Test("backup: a held lock is exit 7 with a JSON error object on standard output")
    func lockedBackupIsExit7() throws {
        let folder = try TestPaths.temporaryFolder("backup-locked")
        let store = try ExportTestSupport.workspace2Store(folder)
        try FileManager.default.createDirectory(atPath: folder + "/b", withIntermediateDirectories: false)
        let lock = folder + "/b/.ferry-backup.lock"
        _ = FileManager.default.createFile(atPath: lock, contents: nil)
        let held = open(lock, O_RDONLY)
        defer { close(held) }
        try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        let run = try FerryProcess.run(["backup", store, "--to", folder + "/b", "--json"])
        #expect(run.status == 7, "\(run.err)")
        let object = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        #expect(error?["code"] as? Int == 7)
        #expect((error?["message"] as? String)?.contains("another run is writing into its folder") == true)
        #expect(try names(folder + "/b") == [".ferry-backup.lock"])
    }
}
