import Ferry
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A store is replaced by renaming a new file over it (`import --force`, `--append`'s copy): what
/// lay beside the old file, or wrote to it meanwhile, must not end up in, or be lost by, the new.
/// Found by a hostile test: a crashed writer's rollback journal was played back into the new
/// store (rows 1–12 held the old records, integrity and verify passed); copied for an append it
/// made an uncommitted change committed; two appends at once lost one run's rows with exit 0; an
/// append through a symbolic link replaced the link with a copy.
@Suite("replacing a store: journals, turns and links")
struct StoreReplacementSafetyTests {
    private let model = TestPaths.migrations + "/Workspace.xcdatamodeld"

    /// A Workspace 1 store of `count` uploads in rollback-journal mode, in a new folder.
    private func store(_ label: String, count: Int) throws -> (folder: String, store: String) {
        let folder = try TestPaths.temporaryFolder(label)
        try csv(count, prefix: "old", to: folder + "/a.csv")
        let store = folder + "/s.sqlite"
        let run = try importUploads(folder + "/a.csv", into: store)
        #expect(run.status == 0, "\(run.err)")
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        _ = try database.scalarText("PRAGMA journal_mode=DELETE")
        try database.close()
        return (folder, store)
    }

    /// `ferry import FILE` of Workspace 1 uploads into `store`, with `flags` (`--force`, `--append`).
    private func importUploads(_ file: String, into store: String, _ flags: String...) throws -> FerryProcess.Result {
        try FerryProcess.run(["import", file, "--model", model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                              "--out", store] + flags)
    }

    private func csv(_ count: Int, prefix: String, to path: String) throws {
        let rows = (1...count).map { "\(prefix)-\($0).png,1.5,1,1,,1262304111,/r/\(prefix)/\($0)" }
        try (["fileName,fileSize,fileType,finishStatus,imageData,time,urlPath"] + rows).joined(separator: "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The state a writer that crashed mid-transaction leaves: `store`'s bytes with the
    /// transaction's pages (spilled from a tiny cache) and its journal, copied to `crashed`.
    private func crashedCopy(of store: String, to crashed: String) throws {
        let writer = try SQLiteDatabase(path: store, mode: .readWrite)
        try writer.execute("PRAGMA cache_size=2; BEGIN IMMEDIATE; UPDATE ZUPLOADENTITY SET ZFILENAME = 'uncommitted'")
        _ = try writer.scalarInteger("SELECT sum(length(ZURLPATH)) FROM ZUPLOADENTITY")
        #expect(FileManager.default.fileExists(atPath: store + "-journal"))
        try FileManager.default.copyItem(atPath: store, toPath: crashed)
        try FileManager.default.copyItem(atPath: store + "-journal", toPath: crashed + "-journal")
        try writer.execute("ROLLBACK")
        try writer.close()
    }

    @Test("import --force over a store a crashed writer left a journal beside: the journal goes, the new store reads as written")
    func forceRemovesCrashedJournal() throws {
        let (folder, original) = try store("replace-journal", count: 3000)
        let store = folder + "/crashed.sqlite"
        try crashedCopy(of: original, to: store)
        try csv(200, prefix: "new", to: folder + "/new.csv")
        let run = try importUploads(folder + "/new.csv", into: store, "--force")
        #expect(run.status == 0, "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: store + "-journal"))
        #expect(try storeRows(store, "SELECT count(*), sum(ZFILENAME LIKE 'new-%') FROM ZUPLOADENTITY") == ["200|200"])
    }

    @Test("--append to a store a crashed writer left mid-transaction: the transaction is rolled back first, not copied as committed")
    func appendRollsBackCrashedWriter() throws {
        let (folder, original) = try store("append-journal", count: 3000)
        let store = folder + "/crashed.sqlite"
        try crashedCopy(of: original, to: store)
        try csv(10, prefix: "added", to: folder + "/b.csv")
        let run = try importUploads(folder + "/b.csv", into: store, "--append")
        #expect(run.status == 0, "\(run.err)")
        #expect(try storeRows(store, "SELECT count(*), sum(ZFILENAME = 'uncommitted'), sum(ZFILENAME LIKE 'added-%') FROM ZUPLOADENTITY")
                == ["3010|0|10"])
        #expect(try storeRows(store, "PRAGMA integrity_check") == ["ok"])
    }

    @Test("runs appending to one store take turns: one appending while another holds its turn is refused and writes nothing")
    func appendsTakeTurns() throws {
        let (folder, store) = try store("append-turns", count: 20)
        let bundle = try XcodeModelLoader.loadBundle(at: model)
        let first = try CoreDataStoreWriter.append(to: store, model: try #require(bundle.version(named: "Workspace 1")))
        try csv(5, prefix: "second", to: folder + "/b.csv")
        let second = try importUploads(folder + "/b.csv", into: store, "--append")
        #expect(second.status == 4 && second.err.contains("another run is appending to it"), "\(second.err)")
        first.discard()
        let third = try importUploads(folder + "/b.csv", into: store, "--append")
        #expect(third.status == 0, "\(third.err)")
        #expect(try storeRows(store, "SELECT count(*) FROM ZUPLOADENTITY") == ["25"])
    }

    @Test("--append through a symbolic link appends to the store it names and leaves the link a link")
    func appendFollowsLink() throws {
        let (folder, store) = try store("append-link", count: 20)
        let link = folder + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "s.sqlite")
        try csv(5, prefix: "linked", to: folder + "/b.csv")
        let run = try importUploads(folder + "/b.csv", into: link, "--append")
        #expect(run.status == 0, "\(run.err)")
        #expect(FileInfo.kind(atPath: link) == .symbolicLink)
        #expect(try storeRows(store, "SELECT count(*) FROM ZUPLOADENTITY") == ["25"])
    }

    /// A WAL store of 20 uploads whose last change (every `fileName` set to `committed`) is still only
    /// in its `-wal`, as `ferry update` (and Core Data) leave it, in a new folder with `b.csv` of 5
    /// other uploads to import.
    private func storeWithCommitsInLog(_ label: String) throws -> (folder: String, store: String) {
        let folder = try TestPaths.temporaryFolder(label)
        try csv(20, prefix: "old", to: folder + "/a.csv")
        let store = folder + "/s.sqlite"
        #expect(try importUploads(folder + "/a.csv", into: store).status == 0)
        let update = try FerryProcess.run(["update", store, "--entity", "UploadEntity", "--where", "Z_PK <= 20", "--set", "fileName=committed"])
        #expect(update.status == 0, "\(update.err)")
        #expect((FileInfo.size(atPath: store + "-wal") ?? 0) > 0 && FileManager.default.fileExists(atPath: store + "-shm"))
        try csv(5, prefix: "new", to: folder + "/b.csv")
        return (folder, store)
    }

    private let committedRows = "SELECT count(*) FROM ZUPLOADENTITY WHERE ZFILENAME = 'committed'"

    /// Found by a hostile test: the old store's `-wal` was removed, then its `-shm` could not be,
    /// and the run said that nothing was left behind (exit 4) of a store that had lost every
    /// change in its `-wal` while it still passed `integrity_check` and `verify`.
    @Test("--force and --append over a WAL store whose last commits are only in its -wal: a -shm that cannot be removed is exit 4, and the store keeps them",
          .enabled(if: BackupJobTests.immutableFilesWork, "needs chattr +i (a file root cannot remove)"))
    func unremovableSidecarKeepsCommits() throws {
        for flag in ["--force", "--append"] {
            let (folder, store) = try storeWithCommitsInLog("fold-unremovable")
            #expect(try ExportTestSupport.shell("chattr +i '\(store)-shm'").status == 0)
            let run = try importUploads(folder + "/b.csv", into: store, flag)
            #expect(try ExportTestSupport.shell("chattr -i '\(store)-shm'").status == 0)
            #expect(run.status == 4 && run.err.contains("its -wal holds commits that could not be folded into the store's file"), "\(flag): \(run.err)")
            #expect(try storeRows(store, committedRows) == ["20"], "\(flag)")
        }
    }

    /// Found by a hostile test: a SIGTERM (or a crash) right after the old store's `-wal` was
    /// removed, before the new store was renamed in, left the old store without its last commits.
    @Test("a SIGTERM as the -wal of the store replaced (--force) or appended to goes: the store keeps every commit",
          .enabled(if: SignalInjection.available, "needs strace"))
    func signalAtLogRemovalKeepsCommits() throws {
        for flag in ["--force", "--append"] {
            let (folder, store) = try storeWithCommitsInLog("fold-signal")
            let status = try SignalInjection.run(["import", folder + "/b.csv", "--model", model, "--model-version", "Workspace 1",
                                                  "--entity", "UploadEntity", "--out", store, flag],
                                                 signal: "SIGTERM", after: "unlink", on: store + "-wal")
            #expect(status & 0x7F == SIGTERM, "\(flag): wait status \(status)")
            #expect(try storeRows(store, committedRows) == ["20"], "\(flag)")
            #expect(try storeRows(store, "PRAGMA integrity_check") == ["ok"])
        }
    }

    @Test("import --force refuses to replace a WAL store another process has open: it would go on writing to the replaced file")
    func forceRefusesOpenStore() throws {
        let folder = try TestPaths.temporaryFolder("force-open")
        try csv(20, prefix: "old", to: folder + "/a.csv")
        let store = folder + "/s.sqlite"
        #expect(try importUploads(folder + "/a.csv", into: store, "--force").status == 0)
        let app = try SQLiteDatabase(path: store, mode: .readWrite)
        _ = try app.scalarInteger("SELECT count(*) FROM ZUPLOADENTITY")
        let refused = try importUploads(folder + "/a.csv", into: store, "--force")
        #expect(refused.status == 4 && refused.err.contains("another process has it open; replacing it would leave that process writing"),
                "\(refused.err)")
        try app.close()
        #expect(try importUploads(folder + "/a.csv", into: store, "--force").status == 0)
    }
}
