import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// No verb writes over what it reads, or over what is not a file: an output that is an input,
/// or lies inside one (a model bundle, a backup), is refused before anything is written, and a
/// device, FIFO or socket is never replaced, `--force` or not.
@Suite("outputs never replace inputs, devices or FIFOs")
struct OutputSafetyCommandLineTests {
    private let model = ExportTestSupport.workspace
    private let uploads = TestPaths.fixtures + "/legacy/uploads.csv"

    private func sha(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// A copy of the Workspace bundle and its written mappings in `folder`, and the path of its
    /// version 1 `contents`.
    private func modelCopy(in folder: String) throws -> (bundle: String, contents: String) {
        let bundle = folder + "/Workspace.xcdatamodeld"
        try FileManager.default.copyItem(atPath: model, toPath: bundle)
        for name in try FileManager.default.contentsOfDirectory(atPath: TestPaths.migrations) where name.hasSuffix(".mapping") {
            try FileManager.default.copyItem(atPath: TestPaths.migrations + "/" + name, toPath: folder + "/" + name)
        }
        return (bundle, bundle + "/Workspace 1.xcdatamodel/contents")
    }

    @Test("--out a FIFO (or a device) with --force is refused before any work, and the FIFO stays")
    func specialFilesAreNeverReplaced() throws {
        let folder = try TestPaths.temporaryFolder("out-fifo")
        let fifo = folder + "/f.sqlite"
        try #require(mkfifo(fifo, 0o644) == 0)
        let run = try FerryProcess.run(["import", uploads, "--model", model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                        "--out", fifo, "--force"])
        #expect(run.status == 4, "\(run.err)")
        #expect(run.err.contains("is a device, FIFO or socket"), "\(run.err)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        let restore = try FerryProcess.run(["migrate", "UploadEntity:" + uploads, "--model", model, "--var", "zone=UTC", "--out", fifo, "--force"])
        #expect(restore.status == 4, "\(restore.err)")
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        // A link to a device (as /dev/stdout is) is not replaced either: the system needs the link.
        let link = folder + "/null.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        let linked = try FerryProcess.run(["import", uploads, "--model", model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                           "--out", link, "--force"])
        #expect(linked.status == 4 && linked.err.contains("is a device, FIFO or socket"), "\(linked.err)")
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    }

    @Test("a reject log or a store written into the model bundle is refused (exit 2), and the bundle is as it was")
    func modelBundleIsAnInput() throws {
        let folder = try TestPaths.temporaryFolder("out-model")
        let (bundle, contents) = try modelCopy(in: folder)
        let before = try sha(contents)
        let base = ["import", uploads, "--model", bundle, "--model-version", "Workspace 1", "--entity", "UploadEntity"]
        let rejects = try FerryProcess.run(base + ["--out", folder + "/x.sqlite", "--rejects", contents])
        #expect(rejects.status == 2, "\(rejects.err)")
        #expect(rejects.err.contains("lies inside, the input \(bundle)"), "\(rejects.err)")
        let store = try FerryProcess.run(base + ["--out", contents, "--force"])
        #expect(store.status == 2, "\(store.err)")
        let mapping = folder + "/Workspace 2 to Workspace 3.mapping"
        let mappingBefore = try sha(mapping)
        let migrate = try FerryProcess.run(["migrate", "UploadEntity:" + uploads, "--model", bundle, "--var", "zone=UTC",
                                            "--out", folder + "/y.sqlite", "--rejects", mapping])
        #expect(migrate.status == 2, "\(migrate.err)")
        #expect(try sha(contents) == before && sha(mapping) == mappingBefore)
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.sqlite") && !FileManager.default.fileExists(atPath: folder + "/y.sqlite"))
        // Standard output is no file inside the working folder, even when that folder is the model.
        let stdout = try FerryProcess.run(["import", uploads, "--model", ".", "--entity", "UploadEntity",
                                           "--out", folder + "/z.sqlite", "--rejects", "-"], in: bundle + "/Workspace 1.xcdatamodel")
        #expect(stdout.status == 1, "\(stdout.err)")
        #expect(stdout.out.contains("is not an integer"), "\(stdout.out)")
    }

    @Test("an export into the store's own folder never writes over the store under a file's name (exit 2); the store is intact")
    func exportNeverReplacesItsStore() throws {
        let folder = try TestPaths.temporaryFolder("out-export-store")
        let made = try ExportTestSupport.workspace2Store(folder)
        try FileManager.default.createDirectory(atPath: folder + "/c", withIntermediateDirectories: false)
        for name in ["Upload.ndjson", "manifest.json"] {
            let store = folder + "/c/" + name
            try FileManager.default.copyItem(atPath: made, toPath: store)
            let before = try sha(store)
            let run = try FerryProcess.run(["export", store, "--out", folder + "/c"])
            #expect(run.status == 2, "\(name): \(run.err)")
            #expect(try sha(store) == before, "\(name)")
            try FileManager.default.removeItem(atPath: store)
        }
        // Beside other files, an export into the store's folder is fine.
        let store = folder + "/c/app.sqlite"
        try FileManager.default.copyItem(atPath: made, toPath: store)
        let run = try FerryProcess.run(["export", store, "--out", folder + "/c"])
        #expect(run.status == 0, "\(run.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/c/manifest.json"))
    }

    @Test("a restore into the backup it reads is refused (exit 2), and the backup still restores")
    func restoreNeverWritesIntoItsBackup() throws {
        let folder = try TestPaths.temporaryFolder("out-restore")
        let store = try ExportTestSupport.workspace2Store(folder)
        let backup = try FerryProcess.run(["backup", store, "--to", folder + "/b"])
        #expect(backup.status == 0, "\(backup.err)")
        let made = try #require(try FileManager.default.contentsOfDirectory(atPath: folder + "/b").first { !$0.hasPrefix(".") })
        let inside = folder + "/b/" + made
        let file = inside + "/Tag.ndjson.gz"
        let before = try sha(file)
        let run = try FerryProcess.run(["restore", inside, "--model", model, "--out", file, "--force"])
        #expect(run.status == 2, "\(run.err)")
        #expect(try sha(file) == before)
        let again = try FerryProcess.run(["restore", inside, "--model", model, "--out", folder + "/R.sqlite"])
        #expect(again.status == 0, "\(again.err)")
        // A new store beside the files it reads, in the folder, is refused too: the folder would be
        // a backup no longer (the next restore named the store as a file the manifest does not list).
        let beside = try FerryProcess.run(["restore", ".", "--model", model, "--out", "restored.sqlite"], in: inside)
        #expect(beside.status == 2 && beside.err.contains("lies inside, the input"), "\(beside.err)")
        #expect(!FileManager.default.fileExists(atPath: inside + "/restored.sqlite"))
    }

    @Test("--out and --rejects naming one file (by another spelling) is refused (exit 2), and nothing is created")
    func storeAndRejectLogApart() throws {
        let folder = try TestPaths.temporaryFolder("out-rejects")
        for verb in [["import", uploads, "--model-version", "Workspace 1", "--entity", "UploadEntity"], ["migrate", "UploadEntity:" + uploads, "--var", "zone=UTC"]] {
            let run = try FerryProcess.run(verb + ["--model", model, "--out", folder + "/a.sqlite", "--rejects", folder + "/./a.sqlite"])
            #expect(run.status == 2 && run.err.contains("named as both the store and the reject log"), "\(run.err)")
            #expect(try FilePath.entries(of: folder).isEmpty, "\(verb[0])")
        }
        // The store's own journal (SQLite deleted the reject log with it), and a link, made before
        // the store is, to where the store goes (the log was left at the store's path).
        try FileManager.default.createSymbolicLink(atPath: folder + "/log.ndjson", withDestinationPath: "a.sqlite")
        for rejects in [folder + "/a.sqlite-journal", folder + "/a.sqlite-wal", folder + "/log.ndjson"] {
            let run = try FerryProcess.run(["import", uploads, "--model-version", "Workspace 1", "--entity", "UploadEntity", "--model", model,
                                            "--out", folder + "/a.sqlite", "--rejects", rejects])
            #expect(run.status == 2 && run.err.contains("named as both the store and the reject log"), "\(rejects): \(run.err)")
            #expect(try FilePath.entries(of: folder) == ["log.ndjson"], "\(rejects)")
        }
    }

    @Test("a store written where a source store's -wal, -shm or -journal goes is refused (exit 2), there or not yet")
    func companionFilesAreInputs() throws {
        let folder = try TestPaths.temporaryFolder("out-companion")
        let store = try ExportTestSupport.workspace2Store(folder)
        for suffix in ["-wal", "-shm", "-journal"] {
            let run = try FerryProcess.run(["migrate", store, "--model", model, "--var", "zone=UTC", "--out", store + suffix])
            #expect(run.status == 2, "\(suffix): \(run.err)")
            #expect(!FileManager.default.fileExists(atPath: store + suffix), "\(suffix)")
        }
    }

    @Test("a store named by a path relative to the root, from the root, is read (its URI once took the first folder for a host)")
    func relativePathFromTheRoot() throws {
        let folder = try TestPaths.temporaryFolder("from-root")
        let store = try ExportTestSupport.workspace2Store(folder)
        let run = try FerryProcess.run(["export", String(store.dropFirst()), "--out", String(folder.dropFirst()) + "/e"], in: "/")
        #expect(run.status == 0, "\(run.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/e/manifest.json"))
    }

    @Test("a symbolic link to nothing at --out is there already: refused before any work without --force")
    func danglingLinkIsThere() throws {
        let folder = try TestPaths.temporaryFolder("out-dangling")
        try FileManager.default.createSymbolicLink(atPath: folder + "/d.sqlite", withDestinationPath: "nowhere/x.sqlite")
        let run = try FerryProcess.run(["import", uploads, "--model", model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                        "--out", folder + "/d.sqlite"])
        #expect(run.status == 4, "\(run.err)")
        #expect(run.err.contains("exists; use --force"), "\(run.err)")
        #expect(!run.err.contains("appeared"), "\(run.err)")
    }
}
