@testable import Ferry
import FerryStore
import FerryTestSupport
import Foundation
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
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/backups").filter { $0 != BackupLock.fileName }
        #expect(names == [URL(fileURLWithPath: second.path).lastPathComponent])
        #expect(BackupJob.isBackupName(names[0]))
        #expect(second.manifest.entities.allSatisfy { $0.file.hasSuffix(".ndjson.gz") })
        #expect(second.manifest.state.primaryKeyMaxima["Upload"] == 49)
        let restored = folder + "/Restored.sqlite"
        _ = try RestoreJob(folder: second.path, modelPath: ExportTestSupport.workspace, outputPath: restored).run()
        #expect(try ExportTestSupport.contents(of: store, modelPath: ExportTestSupport.workspace)
            == ExportTestSupport.contents(of: restored, modelPath: ExportTestSupport.workspace))
    }

    @Test("a held lock refuses the backup; a live pid in an old lock file does not; a dead run's .incomplete- folder is removed")
    func locking() throws {
        let folder = try TestPaths.temporaryFolder("backup-lock")
        let store = try ExportTestSupport.workspace2Store(folder)
        let backups = folder + "/backups"
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        let lock = backups + "/" + BackupLock.fileName
        // An old-style lock naming a running process (this one) no longer blocks anything.
        try Data("\(ProcessInfo.processInfo.processIdentifier)\n".utf8).write(to: URL(fileURLWithPath: lock))
        let dead = backups + "/.incomplete-55555555-5555-4555-8555-555555555555"
        try FileManager.default.createDirectory(atPath: dead, withIntermediateDirectories: false)
        try Data("partial".utf8).write(to: URL(fileURLWithPath: dead + "/Task.ndjson.gz"))
        let first = try BackupJob(storePath: store, folder: backups).run()
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).sorted()
            == [BackupLock.fileName, URL(fileURLWithPath: first.path).lastPathComponent])
        // Another open file holding the flock is another run: refused, nothing written.
        let held = open(lock, O_RDONLY)
        defer { close(held) }
        try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        let error = try #require(throws: ExportError.self) { try BackupJob(storePath: store, folder: backups).run() }
        guard case .locked = error else { Issue.record("not .locked: \(error)"); return }
        #expect(error.description.contains("another backup is running"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups).count == 2)
        flock(held, LOCK_UN)
        #expect(try BackupJob(storePath: store, folder: backups).run().path != first.path)
    }

    @Test("the next backup in this process is not refused while a child forked meanwhile still holds a copy of the lock")
    func lockEndsWithItsBackup() throws {
        let folder = try TestPaths.temporaryFolder("backup-fork")
        let backups = folder + "/backups"
        try FileManager.default.createDirectory(atPath: backups, withIntermediateDirectories: true)
        let lock = try BackupLock(folder: backups)
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
        let next = try BackupLock(folder: backups)
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
            == [BackupLock.fileName, URL(fileURLWithPath: first.path).lastPathComponent])
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
        let made = (2...12).reduce(into: [stamp]) { names, _ in names.append(BackupJob.name(stamp: stamp, besides: names)) }
        #expect(made.sorted() == made && made.sorted(by: BackupJob.isOlder) == made)
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
