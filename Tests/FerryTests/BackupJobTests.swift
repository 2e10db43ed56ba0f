@testable import Ferry
import FerryModel
import FerryStore
import FerryTestSupport
import Foundation
import Synchronization
import Testing

@Suite("ferry backup: locked, verified, timestamped, pruned after verification")
struct BackupJobTests {
    @Test("two backups with --keep 1: the newest stays, verified; it restores to the original")
    func keepNewest() throws {
        let folder = try TestPaths.temporaryFolder("backup")
        let store = try ExportTestSupport.workspace2Store(folder)
        let first = try BackupJob(storePath: store, folder: folder + "/backups", keep: 1).run()
        let second = try BackupJob(storePath: store, folder: folder + "/backups", keep: 1).run()
        #expect(second.removed == [first.path])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/backups").filter { $0 != FolderLock.backupFileName }
        #expect(names == [URL(fileURLWithPath: second.path).lastPathComponent])
        #expect(BackupJob.isBackupName(names[0]))
        #expect(second.manifest.entities.allSatisfy { $0.file.hasSuffix(".ndjson.gz") })
        #expect(second.manifest.state.primaryKeyMaxima["Upload"] == 49)
        // The store's fingerprints, for the restore to compare its store with.
        #expect(second.manifest.fingerprints?.map(\.subject).sorted() == ["Tag", "Tag.tasks", "Task", "Upload", "Upload.task"])
        let restored = folder + "/Restored.sqlite"
        _ = try RestoreJob(folder: second.path, modelPath: ExportTestSupport.workspace, outputPath: restored).run()
        #expect(try ExportTestSupport.contents(of: store, modelPath: ExportTestSupport.workspace)
            == ExportTestSupport.contents(of: restored, modelPath: ExportTestSupport.workspace))
    }

    @Test("a new backup is restored into a scratch store before it counts, and the phase is said; without the check it is not")
    func restoreCheckRuns() throws {
        let folder = try TestPaths.temporaryFolder("backup-restore-check")
        let store = try ExportTestSupport.workspace2Store(folder)
        let phases = Mutex<[String]>([])
        _ = try BackupJob(storePath: store, folder: folder + "/backups").run { progress in phases.withLock { $0.append(progress.phase) } }
        let said = phases.withLock { $0 }
        #expect(said.contains("restoring the backup to check it: verifying"), "\(Set(said))")
        #expect(said.firstIndex(of: "verifying the backup").map { $0 < said.firstIndex(of: "restoring the backup to check it: verifying") ?? 0 } == true)
        phases.withLock { $0.removeAll() }
        var unchecked = BackupJob(storePath: store, folder: folder + "/backups")
        unchecked.restoreCheck = false
        _ = try unchecked.run { progress in phases.withLock { $0.append(progress.phase) } }
        #expect(phases.withLock { $0 }.allSatisfy { !$0.hasPrefix("restoring") })
    }

    /// The files are checked against a manifest the same writer made: a value it wrote wrong,
    /// with hashes and counts to match, passed the backup (exit 0), and older backups were
    /// removed; only a restore found it, when the backup was needed.
    @Test("a backup whose files hold other values than the store, hashes made to match, fails its restore check and names what differs")
    func restoreCheckFindsOtherValues() throws {
        let folder = try TestPaths.temporaryFolder("backup-restore-differs")
        let store = try ExportTestSupport.workspace2Store(folder)
        let backup = folder + "/backups/new"
        var manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: backup, modelPath: ExportTestSupport.workspace)).run()
        let model = try #require(try XcodeModelLoader.loadBundle(at: ExportTestSupport.workspace).versions.first { $0.name == "Workspace 2" })
        let check = BackupRestoreCheck(backup: backup, folder: folder + "/backups", model: model)
        try check.run { _ in }
        try RestoreJobTests.edit("Task.ndjson", in: backup, manifest: &manifest) {
            $0.replacingOccurrences(of: "\"title\":\"", with: "\"title\":\"~")
        }
        #expect(try ExportVerifier.verify(folder: backup, countRecords: true).entities.count == 3)
        let error = try #require(throws: ExportError.self) { try check.run { _ in } }
        guard case .verification(let path, let reason) = error else {
            Issue.record("not .verification: \(error)")
            return
        }
        #expect(path == folder + "/backups" && reason.contains("the new backup does not restore") && reason.contains("Task: the values differ"), "\(reason)")
    }

    @Test("a temporary folder the restore check cannot use is named as such, with what to do, and no backup is kept")
    func restoreCheckNamesTheTemporaryFolder() throws {
        let folder = try TestPaths.temporaryFolder("backup-restore-tmpdir")
        let store = try ExportTestSupport.workspace2Store(folder)
        let run = try FerryProcess.shell("TMPDIR=\(folder)/none ferry backup '\(store)' --to '\(folder)/backups'", in: folder)
        #expect(run.status == 4 && run.err.contains("ferry backup: \(folder)/none: cannot write: ")
                && run.err.contains("(the temporary folder, where the new backup is restored to check it: set TMPDIR to another, or give --no-restore-check)"),
                "\(run.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/backups").filter { !$0.hasPrefix(".") }.isEmpty)
    }

    @Test("a restore check fails on records rejected and pairs left out, not only on values that differ")
    func restoreCheckFaults() throws {
        let folder = try TestPaths.temporaryFolder("backup-restore-faults")
        let store = try ExportTestSupport.workspace2Store(folder)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        var summary = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: folder + "/R.sqlite").run()
        #expect(BackupRestoreCheck.faults(of: summary).isEmpty)
        summary.rejected = 2
        summary.unmatchedPairs = ["Upload.task": 3]
        summary.compared = false
        summary.notCompared = "no fingerprints"
        #expect(BackupRestoreCheck.faults(of: summary) == [
            "2 records rejected", "Upload.task: 3 pairs name a record the backup does not list",
            "not compared with the store's fingerprints (no fingerprints)",
        ])
    }

    @Test("a held lock refuses the backup; a live pid in an old lock file does not; a dead run's .incomplete- folder is removed")
    func locking() throws {
        let folder = try TestPaths.temporaryFolder("backup-lock")
        let store = try ExportTestSupport.workspace2Store(folder)
        let backups = folder + "/backups"
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        let lock = backups + "/" + FolderLock.backupFileName
        // An old-style lock naming a running process (this one) no longer blocks anything.
        try Data("\(ProcessInfo.processInfo.processIdentifier)\n".utf8).write(to: URL(fileURLWithPath: lock))
        let dead = backups + "/.incomplete-55555555-5555-4555-8555-555555555555"
        try FileManager.default.createDirectory(atPath: dead, withIntermediateDirectories: false)
        try Data("partial".utf8).write(to: URL(fileURLWithPath: dead + "/Task.ndjson.gz"))
        let first = try BackupJob(storePath: store, folder: backups).run()
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
            == [FolderLock.backupFileName, URL(fileURLWithPath: first.path).lastPathComponent])
        // Another open file holding the flock is another run: refused, nothing written.
        let held = open(lock, O_RDONLY)
        defer { close(held) }
        try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        let error = try #require(throws: ExportError.self) { try BackupJob(storePath: store, folder: backups).run() }
        guard case .locked = error else { Issue.record("not .locked: \(error)"); return }
        #expect(error.description.contains("another run is writing into its folder"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).count == 2)
        flock(held, LOCK_UN)
        #expect(try BackupJob(storePath: store, folder: backups).run().path != first.path)
    }

    @Test("the next backup in this process is not refused while a child forked meanwhile still holds a copy of the lock")
    func lockEndsWithItsBackup() throws {
        let folder = try TestPaths.temporaryFolder("backup-fork")
        let backups = folder + "/backups"
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        let lock = try FolderLock(folder: backups, fileName: FolderLock.backupFileName)
        // What a test or tool spawning a process on another thread does: the child holds a copy of
        // every descriptor until it starts its program.
        let child = fork()
        if child == 0 {
            sleep(5)
            _exit(0)
        }
        try #require(child > 0)
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        lock.release()
        let next = try FolderLock(folder: backups, fileName: FolderLock.backupFileName)
        next.release()
    }

    @Test("a store that fails ferry verify (a NULL left in a required attribute) is refused before anything is written; older backups stay")
    func unhealthyStoreIsRefused() throws {
        let folder = try TestPaths.temporaryFolder("backup-unhealthy")
        let store = try ExportTestSupport.workspace2Store(folder)
        let backups = folder + "/backups"
        let first = try BackupJob(storePath: store, folder: backups, keep: 1).run()
        // What a batch update can leave: a required title set to NULL (its restore would fail).
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("UPDATE ZTASK SET ZTITLE = NULL WHERE Z_PK = (SELECT min(Z_PK) FROM ZTASK)")
        try database.close()
        let error = try #require(throws: ExportError.self) { try BackupJob(storePath: store, folder: backups, keep: 1).run() }
        guard case .verification(let path, let reason) = error else {
            Issue.record("not .verification: \(error)")
            return
        }
        #expect(path == store && reason.contains("fails 1 check of ferry verify, so its backup would not restore: required-attribute Task.title"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
            == [FolderLock.backupFileName, URL(fileURLWithPath: first.path).lastPathComponent])
        // Before a first backup, nothing at all: the folder is not made (it was, holding the lock file).
        #expect(throws: ExportError.self) { try BackupJob(storePath: store, folder: folder + "/new", keep: 1).run() }
        #expect(!FileManager.default.fileExists(atPath: folder + "/new"))
    }

    @Test("a store the export cannot read (a column of the model missing) is bad input, as for ferry export, not a failed verification")
    func unreadableStoreIsBadInput() throws {
        let folder = try TestPaths.temporaryFolder("backup-unreadable")
        let store = try ExportTestSupport.workspace2Store(folder)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("ALTER TABLE ZTASK DROP COLUMN ZNOTES")
        try database.close()
        let error = try #require(throws: ExportError.self) { try BackupJob(storePath: store, folder: folder + "/backups").run() }
        guard case .store(.missingColumn(_, "ZTASK", "ZNOTES", _)) = error else {
            Issue.record("not .store(.missingColumn): \(error)")
            return
        }
        #expect(!error.isVerificationFailure && !error.isDestinationFailure)
    }

    @Test("an index that disagrees with its table (quick_check passes it; to-many lists are read through it) refuses the backup")
    func damagedIndexIsRefused() throws {
        let folder = try TestPaths.temporaryFolder("backup-index")
        let store = try ExportTestSupport.workspace2Store(folder)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        // The index keeps its ZTASK entries while the schema says it indexes ZFILENAME.
        try database.execute("PRAGMA writable_schema = ON; "
            + "UPDATE sqlite_master SET sql = 'CREATE INDEX ZUPLOAD_ZTASK_INDEX ON ZUPLOAD (ZFILENAME)' WHERE name = 'ZUPLOAD_ZTASK_INDEX'")
        try database.close()
        let error = try #require(throws: ExportError.self) { try BackupJob(storePath: store, folder: folder + "/backups").run() }
        #expect(error.description.contains("integrity store: SQLite reports the file damaged"), "\(error)")
    }

    @Test("backup names sort by time, then same-second suffix")
    func names() {
        #expect(BackupJob.isBackupName("20240301T123005Z") && BackupJob.isBackupName("20240301T123005Z-2"))
        #expect(!BackupJob.isBackupName(".incomplete-X") && !BackupJob.isBackupName("20240301T1230Z"))
        #expect(["20240301T123005Z-2", "20240301T123005Z", "20230301T000000Z"].sorted(by: BackupJob.isOlder)
            == ["20230301T000000Z", "20240301T123005Z", "20240301T123005Z-2"])
    }

    @Test("a backup made in the same second as others takes a suffix above theirs, never a freed lower name")
    func sameSecondNames() {
        let stamp = "20261201T120000Z"
        #expect(BackupJob.name(stamp: stamp, besides: []) == stamp)
        #expect(BackupJob.name(stamp: stamp, besides: [stamp]) == stamp + "-0002")
        // The first of that second was pruned: its name is free, but a new backup must sort last.
        #expect(BackupJob.name(stamp: stamp, besides: [stamp + "-0002", "20261201T115959Z", ".incomplete-X"]) == stamp + "-0003")
        #expect(BackupJob.name(stamp: stamp, besides: [stamp + "-2", stamp + "-10"]) == stamp + "-0011")
        // Names sort as made, by plain text order too (`ls | tail -n 1` finds the newest).
        let made = (2...12).reduce(into: [stamp]) { names, _ in names.append(BackupJob.name(stamp: stamp, besides: names) ?? "") }
        #expect(made.sorted() == made && made.sorted(by: BackupJob.isOlder) == made)
    }

    /// A folder named `<stamp>-9223372036854775807` made the next backup of that second trap
    /// (SIGILL, exit 132) computing the suffix after it, and leave its `.incomplete-` folder;
    /// `-+5` and `--3` were taken for backups too (hostile run).
    @Test("only suffixes a backup is named with are a backup's: no sign, no other zeros, at most -9999, after which no name is left")
    func sameSecondSuffixForms() {
        let stamp = "20261201T120000Z"
        let foreign = ["-9223372036854775807", "-10000", "-+5", "--3", "-", "-0001", "-1", "-02", "-002", "-٣", "-0x10"].map { stamp + $0 }
        #expect(foreign.allSatisfy { !BackupJob.isBackupName($0) })
        #expect(BackupJob.name(stamp: stamp, besides: [stamp] + foreign) == stamp + "-0002")
        #expect(BackupJob.name(stamp: stamp, besides: [stamp + "-9998"]) == stamp + "-9999")
        #expect(BackupJob.name(stamp: stamp, besides: [stamp + "-9999"]) == nil)
    }

    @Test("a backup beside a folder of an overflowing suffix is made; one of a second whose names are all taken fails (exit 4) and leaves no .incomplete- folder")
    func sameSecondNamesRunOut() throws {
        let folder = try TestPaths.temporaryFolder("backup-suffix-overflow")
        let store = try ExportTestSupport.workspace2Store(folder)
        let backups = folder + "/backups"
        // Every second of the next two minutes, whichever the backup is stamped with.
        func stamps() -> [String] {
            let format = Date.ISO8601FormatStyle(timeZone: .gmt)
            return (0..<120).map { format.format(Date().addingTimeInterval(Double($0))).filter { $0 != "-" && $0 != ":" } }
        }
        for stamp in stamps() { try FileManager.default.createDirectory(atPath: backups + "/" + stamp + "-9223372036854775807", withIntermediateDirectories: true) }
        let made = try BackupJob(storePath: store, folder: backups).run()
        #expect(BackupJob.isBackupName(URL(fileURLWithPath: made.path).lastPathComponent))
        for stamp in stamps() { try FileManager.default.createDirectory(atPath: backups + "/" + stamp + "-9999", withIntermediateDirectories: true) }
        let failure = try #require(throws: ExportError.self) { try BackupJob(storePath: store, folder: backups).run() }
        #expect(failure.isDestinationFailure && failure.description.contains("no name is left for another backup of that second"), "\(failure)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).allSatisfy { !$0.hasPrefix(".incomplete-") })
    }

    @Test("retention keeps the backup just made and counts only backups of the same store")
    func retentionPerStore() throws {
        let folder = try TestPaths.temporaryFolder("backup-keep")
        let store = try ExportTestSupport.workspace2Store(folder)
        let other = folder + "/other"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let otherStore = try ExportTestSupport.workspace2Store(other)
        let backups = folder + "/backups"
        let foreign = try BackupJob(storePath: otherStore, folder: backups, keep: 1).run()
        var made: [String] = []
        for _ in 0..<4 {
            let summary = try BackupJob(storePath: store, folder: backups, keep: 2).run()
            #expect(!summary.removed.contains(summary.path))
            #expect(!summary.removed.contains(foreign.path))
            made.append(summary.path)
        }
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: backups).filter(BackupJob.isBackupName))
        let names = made.map { String($0.split(separator: "/").last ?? "") }
        #expect(left == Set(names.suffix(2) + [String(foreign.path.split(separator: "/").last ?? "")]))
        #expect(names == names.sorted(by: BackupJob.isOlder))
    }

    @Test("a backup taken while another connection writes the store reads one consistent state")
    func consistentWhileWriting() throws {
        let folder = try TestPaths.temporaryFolder("backup-live")
        let store = try ExportTestSupport.workspace2Store(folder)
        let reader = try CoreDataStoreReader(path: store)
        let writer = try SQLiteDatabase(path: store, mode: .readWrite)
        let state = try reader.beginRead()
        let records = try reader.records(model: ExportModelSource.resolve(bundlePath: ExportTestSupport.workspace, store: reader).model)
        try writer.execute("DELETE FROM ZTAG; UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 5")
        var tags = 0
        let cursor = try records.records(of: "Tag")
        while try cursor.next() != nil { tags += 1 }
        try reader.endRead()
        #expect(tags == 9 && state.primaryKeyMaxima["Tag"] == 9 && state.fileStamp != nil)
    }
}

extension BackupJobTests {
    /// Stops a writer thread.
    private final class StopFlag: Sendable {
        let stopped = Atomic<Bool>(false)
    }

    /// A scheduled backup of a store its app keeps open and writes was always refused: the
    /// pre-backup check reads the file's pages, which a live WAL store changes under it.
    @Test("a store another connection keeps writing (a commit every millisecond) is backed up from one committed state of it")
    func backupWhileAnAppWrites() throws {
        let folder = try TestPaths.temporaryFolder("backup-busy")
        let store = try ExportTestSupport.workspace2Store(folder)
        let flag = StopFlag()
        let done = DispatchSemaphore(value: 0)
        let commits = Atomic<Int>(0)
        Thread {
            defer { done.signal() }
            guard let writer = try? SQLiteDatabase(path: store, mode: .readWrite) else { return }
            while !flag.stopped.load(ordering: .relaxed) {
                guard (try? writer.execute("UPDATE ZTAG SET Z_OPT = Z_OPT + 1 WHERE Z_PK = 1")) != nil else { return }
                commits.add(1, ordering: .relaxed)
                usleep(500)
            }
            try? writer.close()
        }.start()
        defer {
            flag.stopped.store(true, ordering: .relaxed)
            done.wait()
        }
        while commits.load(ordering: .relaxed) < 20 { usleep(1_000) }
        let summary = try BackupJob(storePath: store, folder: folder + "/backups").run()
        #expect(summary.manifest.file(for: "Tag")?.count == 9)
        #expect(summary.manifest.source == store)
        // The store's facts, not those of the copy it may have been read from.
        #expect(summary.manifest.state.liveConnection)
        let restored = try RestoreJob(folder: summary.path, modelPath: ExportTestSupport.workspace, outputPath: folder + "/R.sqlite").run()
        #expect(restored.records["Tag"] == 9 && restored.records["Task"] == summary.manifest.file(for: "Task")?.count)
    }

    /// A folder named like a backup, with a manifest of the store, was removed whole by retention
    /// although it held a file of the user's.
    @Test("retention leaves alone a folder that looks like a backup but holds other files, and says so")
    func retentionSparesForeignFiles() throws {
        let folder = try TestPaths.temporaryFolder("backup-foreign")
        let store = try ExportTestSupport.workspace2Store(folder)
        let backups = folder + "/backups"
        let first = try BackupJob(storePath: store, folder: backups, keep: 1).run()
        try Data("mine".utf8).write(to: URL(fileURLWithPath: first.path + "/notes.txt"))
        let second = try BackupJob(storePath: store, folder: backups, keep: 1).run()
        #expect(second.removed.isEmpty)
        #expect(second.notRemoved.count == 1 && second.notRemoved[0].contains("holds files no backup writes (notes.txt)"), "\(second.notRemoved)")
        #expect(try String(contentsOfFile: first.path + "/notes.txt", encoding: .utf8) == "mine")
    }

    /// A copy of a store shares its UUID (a seed store, two devices restored from one backup):
    /// retention by UUID alone removed the other store's only backup.
    @Test("retention leaves the backups of a copy of the store (same UUID, other path) alone")
    func retentionSameUUIDOtherStore() throws {
        let folder = try TestPaths.temporaryFolder("backup-copy")
        let store = try ExportTestSupport.workspace2Store(folder)
        let copy = folder + "/copy.sqlite"
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        let backups = folder + "/backups"
        let first = try BackupJob(storePath: store, folder: backups, keep: 1).run()
        let ofCopy = try BackupJob(storePath: copy, folder: backups, keep: 1).run()
        #expect(ofCopy.removed.isEmpty)
        #expect(FileManager.default.fileExists(atPath: first.path))
        // Given another way (a relative path with `.`), the store is the same store.
        let again = try BackupJob(storePath: folder + "/./Workspace2.sqlite", folder: backups, keep: 1).run()
        #expect(again.removed == [first.path])
        #expect(FileManager.default.fileExists(atPath: ofCopy.path))
    }

    /// Whether `chattr +i` works here (a file even root cannot remove), for the test below.
    static let immutableFilesWork: Bool = {
        guard let folder = try? TestPaths.temporaryFolder("chattr-probe") else { return false }
        guard FileManager.default.createFile(atPath: folder + "/f", contents: Data()) else { return false }
        let works = (try? ExportTestSupport.shell("chattr +i '\(folder)/f' && chattr -i '\(folder)/f'").status) == 0
        return works
    }()

    /// An old backup that could not be removed made the run exit 4 ("not written") although the
    /// new backup was made, and left the old one half removed under a backup's name.
    @Test("an old backup that cannot be removed is a warning: the new backup stands, no backup is left half removed",
          .enabled(if: immutableFilesWork, "needs chattr +i (a file root cannot remove)"))
    func retentionFailureIsAWarning() throws {
        let folder = try TestPaths.temporaryFolder("backup-keep-fail")
        let store = try ExportTestSupport.workspace2Store(folder)
        let backups = folder + "/backups"
        let old = try BackupJob(storePath: store, folder: backups, keep: 1).run()
        let pinned = try #require(try FileManager.default.contentsOfDirectory(atPath: old.path).first { $0 != "manifest.json" })
        #expect(try ExportTestSupport.shell("chattr +i '\(old.path)/\(pinned)'").status == 0)
        defer {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: backups)) ?? [] {
                _ = try? ExportTestSupport.shell("chattr -R -i '\(backups)/\(name)'")
            }
        }
        let run = try ExportTestSupport.shell("'\(ExportTestSupport.binary)' backup '\(store)' --to '\(backups)' --keep 1")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("warning: an old backup beyond --keep was not removed: \(old.path)"), "\(run.err)")
        // Every folder that looks like a backup is whole; what is left of the old one is hidden.
        let visible = try FileManager.default.contentsOfDirectory(atPath: backups).filter(BackupJob.isBackupName)
        #expect(visible.count == 1 && !visible.contains(String(old.path.split(separator: "/").last ?? "")))
        #expect(visible.allSatisfy { FileManager.default.fileExists(atPath: backups + "/" + $0 + "/manifest.json") })
    }

    @Test("--level does not go with --no-gzip (a usage error, 2)")
    func levelWithoutGzip() throws {
        let folder = try TestPaths.temporaryFolder("backup-level")
        let store = try ExportTestSupport.workspace2Store(folder)
        let run = try ExportTestSupport.shell("'\(ExportTestSupport.binary)' backup '\(store)' --to '\(folder)/b' --no-gzip --level 9")
        #expect(run.status == 2 && run.err.contains("--no-gzip"), "\(run.err)")
    }
}

extension BackupJobTests {
    /// Jobs that each ran from their store's own folder named it `store.sqlite`: retention resolved
    /// that path against the folder of the run that pruned, so the backup of one copy of a seed
    /// store removed the other copy's only backup (exit 0), and one store named from two folders
    /// was never rotated.
    @Test("retention tells stores apart by their resolved paths: copies named alike from their own folders keep their backups; one store named two ways is rotated")
    func retentionByResolvedPath() throws {
        let folder = try #require(FileInfo.resolvedPath(of: try TestPaths.temporaryFolder("backup-relative")))
        let store = try ExportTestSupport.workspace2Store(folder)
        for copy in ["A", "B"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + copy, withIntermediateDirectories: false)
            try FileManager.default.copyItem(atPath: store, toPath: folder + "/" + copy + "/store.sqlite")
        }
        let shared = folder + "/shared"
        func backup(_ path: String, from directory: String) throws -> [String] {
            let run = try FerryProcess.run(["backup", path, "--to", shared, "--keep", "1"], in: directory)
            #expect(run.status == 0 && run.err.isEmpty, "\(run.err)")
            return try FileManager.default.contentsOfDirectory(atPath: shared).filter(BackupJob.isBackupName).sorted()
        }
        func stores(of backups: [String]) throws -> [String?] {
            try backups.map { try ManifestFile.read(inFolder: shared + "/" + $0).resolvedSource }
        }
        _ = try backup("store.sqlite", from: folder + "/A")
        let both = try backup("store.sqlite", from: folder + "/B")
        #expect(try stores(of: both) == [folder + "/A/store.sqlite", folder + "/B/store.sqlite"])
        // A's store, named from its parent folder and through a link: A's backup is replaced, B's stays.
        try FileManager.default.createSymbolicLink(atPath: folder + "/linked", withDestinationPath: folder + "/A")
        for (path, directory) in [("A/store.sqlite", folder), ("linked/store.sqlite", folder)] {
            let left = try backup(path, from: directory)
            #expect(left.count == 2 && left.contains(both[1]) && !left.contains(both[0]), "\(left)")
            #expect(try Set(stores(of: left)) == [folder + "/A/store.sqlite", folder + "/B/store.sqlite"])
        }
    }

    /// A manifest's JSON object as a ferry of manifest format 1 wrote it: without a digest of its own.
    static func writtenByOlderFerry(_ object: inout [String: Any]) {
        object["manifestSHA256"] = nil
        object["formatVersion"] = 1
    }

    /// Rewrites the manifest of the backup at `path` as `edit` says (an older ferry's, say).
    private func editManifest(of path: String, _ edit: (inout [String: Any]) -> Void) throws {
        let file = URL(fileURLWithPath: path + "/" + ExportManifest.fileName)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        edit(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: file)
    }

    @Test("an older backup whose manifest names the store by a relative path is never removed, and a warning says so; one with an absolute path is")
    func retentionSparesOlderRelativePaths() throws {
        let folder = try TestPaths.temporaryFolder("backup-older")
        let store = try ExportTestSupport.workspace2Store(folder)
        let backups = folder + "/backups"
        let relative = try BackupJob(storePath: store, folder: backups).run()
        let absolute = try BackupJob(storePath: store, folder: backups).run()
        // As an older ferry wrote them: the store's path as given, nothing resolved, and no digest of their own.
        try editManifest(of: relative.path) { $0["resolvedSource"] = nil; $0["source"] = "Workspace2.sqlite"; Self.writtenByOlderFerry(&$0) }
        try editManifest(of: absolute.path) { $0["resolvedSource"] = nil; Self.writtenByOlderFerry(&$0) }
        let summary = try BackupJob(storePath: store, folder: backups, keep: 1).run()
        #expect(summary.removed == [absolute.path])
        #expect(summary.notRemoved.count == 1 && summary.notRemoved[0].hasPrefix(relative.path + ": ")
            && summary.notRemoved[0].contains("relative path, Workspace2.sqlite"), "\(summary.notRemoved)")
        #expect(FileManager.default.fileExists(atPath: relative.path + "/" + ExportManifest.fileName))
    }

    /// The sweep of dead runs' folders removed anything in the backup folder whose name began
    /// with `.incomplete-`, with everything in it: a user's notes, a folder of drafts.
    @Test("the next backup removes a dead run's .incomplete-<UUID> folder of backup files, and nothing else whose name starts alike")
    func sweepRemovesOnlyDeadRuns() throws {
        let folder = try TestPaths.temporaryFolder("backup-sweep")
        let store = try ExportTestSupport.workspace2Store(folder)
        let backups = folder + "/backups"
        let dead = backups + "/.incomplete-55555555-5555-4555-8555-555555555555"
        let drafts = backups + "/.incomplete-drafts"
        let userFolder = backups + "/.incomplete-66666666-6666-4666-8666-666666666666"
        let outside = folder + "/outside"
        for made in [dead, drafts, userFolder, outside] { try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true) }
        let files = [dead + "/Task.ndjson.gz", dead + "/manifest.json", drafts + "/Task.ndjson.gz", userFolder + "/chapter3.txt",
                     backups + "/.incomplete-notes.txt", outside + "/Task.ndjson.gz"]
        for file in files { try Data("mine".utf8).write(to: URL(fileURLWithPath: file)) }
        let link = backups + "/.incomplete-77777777-7777-4777-8777-777777777777"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        _ = try BackupJob(storePath: store, folder: backups).run()
        #expect(!FileManager.default.fileExists(atPath: dead))
        for file in files.dropFirst(2) { #expect(FileManager.default.fileExists(atPath: file), "\(file)") }
        #expect(FileInfo.kind(atPath: link) == .symbolicLink)
    }
}
