import FerryStore
import FerryVerify
import FerryTestSupport
import Foundation
import Testing

/// A store no connection held when Ferry opened it is read as fixed bytes (immutable): SQLite's
/// locks keep nothing consistent, so a process that opens it afterwards and checkpoints a commit
/// changes pages under the read. The check that the file did not change ran only when no
/// connection held the store as the read *began*, so a writer that arrived in between turned it
/// off, and a backup mixed two states of the store with exit 0.
@Suite("reading a store that another process starts writing")
struct LiveStoreReadTests {
    @Test("a store read as fixed bytes that a later writer checkpoints is known to have changed, whoever holds it when the read begins")
    func writerArrivingAfterOpening() throws {
        let folder = try TestPaths.temporaryFolder("live-read")
        let path = try ExportTestSupport.workspace2Store(folder)
        let reader = try CoreDataStoreReader(path: path)
        #expect(reader.readsFixedBytes)
        #expect(!reader.changedSinceOpening)
        // A writer opens the store (in WAL mode) and holds it while the read begins.
        let writer = try SQLiteDatabase(path: path, mode: .readWrite)
        try writer.execute("PRAGMA journal_mode=WAL")
        let state = try reader.beginRead()
        #expect(state.liveConnection)
        #expect(state.fileStamp == reader.openingStamp)
        // The file's modification time has the kernel's clock tick (a few milliseconds).
        usleep(20_000)
        try writer.execute("UPDATE ZTASK SET ZPRIORITY = 9; PRAGMA wal_checkpoint(TRUNCATE);")
        #expect(reader.changedSinceOpening)
        try reader.endRead()
        try writer.close()
    }
}

extension LiveStoreReadTests {
    /// The stamp was size and modification time: a store replaced (renamed over) by another of
    /// the same size whose times were copied (`cp -p`, `rsync -t`) read as unchanged.
    @Test("a store renamed over by another file of the same size and modification time is known to have changed")
    func replacedBySameSizeAndTime() throws {
        let folder = try TestPaths.temporaryFolder("live-replaced")
        let path = try ExportTestSupport.workspace2Store(folder)
        let other = folder + "/other.sqlite"
        try FileManager.default.copyItem(atPath: path, toPath: other)
        let writer = try SQLiteDatabase(path: other, mode: .readWrite)
        try writer.execute("UPDATE ZTASK SET ZPRIORITY = 9")
        try writer.close()
        // The original's times, to the nanosecond, given to the other file.
        var original = stat()
        #expect(stat(path, &original) == 0)
        let times = [original.st_atim, original.st_mtim]
        #expect(utimensat(AT_FDCWD, other, times, 0) == 0)
        var copied = stat()
        #expect(stat(other, &copied) == 0)
        #expect(copied.st_size == original.st_size && copied.st_mtim.tv_sec == original.st_mtim.tv_sec
            && copied.st_mtim.tv_nsec == original.st_mtim.tv_nsec)

        let reader = try CoreDataStoreReader(path: path)
        let stamp = StoreFileStamp(path)
        #expect(rename(other, path) == 0)
        #expect(reader.changedSinceOpening)
        #expect(StoreFileStamp(path) != stamp)
    }
}

extension LiveStoreReadTests {
    /// A backup's check of a store an app was writing failed "Z_MAX below the keys of ZTAG" or
    /// "the file damaged", blaming a sound store: each check reads on its own connection.
    @Test("verify of a store written while it is verified says so instead of reporting failures of no real state")
    func writtenWhileVerified() throws {
        let folder = try TestPaths.temporaryFolder("live-verify")
        let path = try ExportTestSupport.workspace2Store(folder)
        let verifier = try StoreVerifier(path: path)
        usleep(20_000)
        let writer = try SQLiteDatabase(path: path, mode: .readWrite)
        try writer.execute("UPDATE ZTASK SET ZPRIORITY = 9")
        try writer.close()
        #expect(throws: VerificationError.changedWhileVerifying(path: path)) { try verifier.verify() }
        // Idle again, it verifies.
        #expect(try StoreVerifier(path: path).verify().passed)
    }
}

/// A store whose metadata names another store type verified clean; Core Data would not open it
/// as an SQLite store.
@Suite("the metadata's store type")
struct MetadataStoreTypeTests {
    @Test("verify fails a store whose NSStoreType is not SQLite")
    func storeTypeChecked() throws {
        let folder = try TestPaths.temporaryFolder("store-type")
        let path = try ExportTestSupport.workspace2Store(folder)
        #expect(try StoreVerifier(path: path).verify().passed)
        let edit = """
            python3 -c "
            import sqlite3, plistlib; c = sqlite3.connect('\(path)')
            p = plistlib.loads(c.execute('SELECT Z_PLIST FROM Z_METADATA').fetchone()[0]); p['NSStoreType'] = 'Binary'
            c.execute('UPDATE Z_METADATA SET Z_PLIST = ?', (plistlib.dumps(p, fmt=plistlib.FMT_BINARY),)); c.commit()"
            """
        #expect(try ExportTestSupport.shell(edit).status == 0)
        let report = try StoreVerifier(path: path).verify()
        #expect(report.failures.contains { $0.check == "metadata-store-type" && $0.message.contains("'Binary'") })
    }
}
