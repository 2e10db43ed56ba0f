import Ferry
import FerryFormats
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
    /// A hostile run on a live store: a commit whose frames reached the `-wal` before a reader
    /// began, and that was made visible (in the `-shm`'s WAL-index header) after, changed no
    /// file's stamp; the fingerprints, taken on a later connection, were of the next state, and
    /// a backup that exited 0 did not restore. Publishing a commit writes that header: the stamp
    /// holds both its copies, so a header caught mid-write differs from the ones around it, and
    /// a torn one a crash left (which made every run refuse the store) stays equal to itself.
    @Test("a commit made visible in the WAL index alone changes the store's stamp, and a torn header is stable")
    func walIndexHeaderIsInTheStamp() throws {
        let folder = try TestPaths.temporaryFolder("live-wal-index")
        let path = folder + "/live.sqlite"
        let app = try SQLiteDatabase(path: path, mode: .create)
        try app.execute("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
        let shm = try #require(FileHandle(forUpdatingAtPath: path + "-shm"))
        defer { try? shm.close() }
        let before = StoreFileStamp(path)
        #expect(StoreFileStamp(path) == before)
        // What a writer does as it publishes a commit: both copies of the header changed (its
        // transaction counter, bytes 8 to 11), nothing else.
        func header() throws -> [UInt8] { try shm.seek(toOffset: 0); return Array(try #require(try shm.read(upToCount: 96))) }
        let original = try header()
        var published = original
        for copy in [0, 48] { published[copy + 8] &+= 1 }
        try shm.seek(toOffset: 0)
        try shm.write(contentsOf: published)
        #expect(StoreFileStamp(path) != before)
        // One copy written, the other not yet: another stamp than before and after; and, as a
        // crash leaves it (nobody writing), the same stamp each time it is read.
        var torn = published
        torn[8] &+= 1
        try shm.seek(toOffset: 0)
        try shm.write(contentsOf: torn)
        let tornStamp = StoreFileStamp(path)
        #expect(tornStamp != before && StoreFileStamp(path) == tornStamp)
        try shm.seek(toOffset: 0)
        try shm.write(contentsOf: original)
        try app.close()
    }

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

/// A store in rollback-journal mode (SQLite's default outside Core Data) with no journal beside
/// it was opened immutable: with no lock taken, a writer committed in the middle of the read (a
/// migrated store mixed seven commits, "verified", exit 0) and pages of a transaction a writer
/// had not committed were read (rows later rolled back). It is now read under SQLite's shared
/// lock, which its header reads never drop.
@Suite("reading a rollback-journal store that another process writes")
struct RollbackJournalReadTests {
    /// A Workspace 2 store switched to rollback-journal mode.
    private func rollbackStore(_ label: String) throws -> String {
        let path = try ExportTestSupport.workspace2Store(try TestPaths.temporaryFolder(label))
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        _ = try database.scalarText("PRAGMA journal_mode=DELETE")
        try database.close()
        return path
    }

    /// Whether another process commits an update to `path` without waiting for a lock.
    private func otherProcessCommits(_ path: String) throws -> Bool {
        let run = try ExportTestSupport.shell(
            "python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1], timeout=0); c.execute(\"UPDATE ZTASK SET ZPRIORITY = 9\"); c.commit()' '\(path)'")
        return run.status == 0
    }

    @Test("a reader holds its read lock until it closes, its own header and stamp reads included: no commit lands in the middle", .enabled(if: ExportTestSupport.pythonAvailable))
    func readerKeepsWritersOut() throws {
        let path = try rollbackStore("rollback-read-lock")
        var reader: CoreDataStoreReader? = try CoreDataStoreReader(path: path)
        #expect(reader?.readsFixedBytes == true)
        // Reads of the file's header and stamp, which once closed a descriptor of the file and
        // so dropped every lock this process held on it.
        _ = StoreFileStamp(path)
        // And a digest's read of the whole file (a migration's receipt takes one of each source).
        #expect(try LockKeepingFileReader.read(path, offset: 0, count: 1 << 22).count == FileInfo.size(atPath: path))
        _ = try reader?.beginRead()
        #expect(try !otherProcessCommits(path))
        reader = nil
        #expect(try otherProcessCommits(path))
    }

    @Test("a store a writer holds exclusively (its uncommitted pages may be in the file) is not read", .enabled(if: ExportTestSupport.pythonAvailable))
    func exclusiveWriterRefusesReaders() throws {
        let path = try rollbackStore("rollback-exclusive")
        let ready = path + ".ready"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("BEGIN EXCLUSIVE"); c.execute("UPDATE ZTASK SET ZTITLE = 'uncommitted'")
            open(sys.argv[2], "w").close(); time.sleep(30)
            """, path, ready]
        try process.run()
        defer { process.terminate() }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: ready) { usleep(50_000) }
        #expect(FileManager.default.fileExists(atPath: ready), "the writer did not start")
        let refusal = #expect(throws: StoreReaderError.self) { _ = try CoreDataStoreReader(path: path) }
        #expect("\(refusal.map { "\($0)" } ?? "")".contains("another process is writing it and holds its lock"), "\(String(describing: refusal))")
    }
}

extension LiveStoreReadTests {
    /// An app that opens its WAL store, commits and closes it every few milliseconds leaves
    /// moments when no connection has it open: a copy begun then reads it immutable, without
    /// locks, and the app's next checkpoint tore it ("damaged": every backup exit 5).
    @Test("a copy of a store an app opens, commits and closes all the time is whole, or reported busy; never torn", .enabled(if: ExportTestSupport.pythonAvailable))
    func copyUnderChurningWriter() throws {
        let folder = try TestPaths.temporaryFolder("live-copy-churn")
        // 10 MB, so that a copy takes long enough for the app's checkpoints to land in it.
        let path = folder + "/app.sqlite"
        let store = try SQLiteDatabase(path: path, mode: .create)
        try store.execute("""
            PRAGMA journal_mode=WAL;
            CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, ZTITLE TEXT, ZDATA BLOB);
            CREATE TABLE ZCOUNT (ZROWS INTEGER);
            INSERT INTO ZCOUNT VALUES (40000);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000)
            INSERT INTO ZITEM SELECT i, 'item ' || i, randomblob(250) FROM n;
            """)
        try store.close()
        // Each commit adds rows and counts them: a copy of one state holds as many as it counts.
        let writer = try ChurningWriter(store: path, folder: folder, pause: 0.01, statements: [
            "INSERT INTO ZITEM (ZTITLE, ZDATA) SELECT 'new', randomblob(250) FROM ZITEM LIMIT 40",
            "UPDATE ZCOUNT SET ZROWS = ZROWS + 40",
        ])
        defer { writer.stop() }
        for attempt in 0..<10 {
            let copy = folder + "/copy\(attempt).sqlite"
            let copied = Result { () throws(SQLiteError) in try SQLiteDatabase.copyCommittedState(of: path, to: copy) { () throws(SQLiteError) in } }
            if case .failure(let error) = copied {
                // Written during every attempt: reported busy, which is a right answer too.
                #expect(error.primaryCode == 5, "\(error)")
                continue
            }
            let check = try SQLiteDatabase(path: copy, mode: .readWrite)
            #expect(try check.scalarText("PRAGMA integrity_check") == "ok", "copy \(attempt)")
            #expect(try check.scalarInteger("SELECT count(*) FROM ZITEM") == check.scalarInteger("SELECT ZROWS FROM ZCOUNT"), "copy \(attempt)")
            try check.close()
        }
    }
}

extension LiveStoreReadTests {
    /// `ferry verify` of a store its app opens, commits and closes every few milliseconds read it
    /// without locks between the app's connections, saw it change, and could only say so (exit 3,
    /// every run). It now verifies a copy of one committed state, and says so.
    @Test("verify of a store an app keeps opening, committing and closing verifies one committed state of it", .enabled(if: ExportTestSupport.pythonAvailable))
    func verifyUnderChurningWriter() throws {
        let (_, path, writer) = try ChurningWriter.workspaceStore("live-verify-churn")
        defer { writer.stop() }
        for run in 0..<5 {
            let report = try ChangingStoreVerification.verify(path: path, model: .modelCache, options: VerificationOptions())
            #expect(report.passed && report.store == path, "run \(run): \(report.failures.map(\.message))")
        }
    }
}

extension LiveStoreReadTests {
    /// `ferry export` of such a store read it without locks between the app's connections, saw it
    /// change, and said "run again" (exit 3) in most runs. It reads it again, then exports a copy
    /// of one committed state.
    @Test("export of a store an app keeps opening, committing and closing exports one committed state of it", .enabled(if: ExportTestSupport.pythonAvailable))
    func exportUnderChurningWriter() throws {
        let (folder, path, writer) = try ChurningWriter.workspaceStore("live-export-churn")
        defer { writer.stop() }
        var exports = 0
        for run in 0..<5 {
            let out = folder + "/export\(run)"
            let job = ExportJob(request: ExportRequest(storePath: path, outputFolder: out, modelPath: ExportTestSupport.workspace))
            let outcome = Result { () throws(ExportError) in try job.runReadingACopyWhenWritten() }
            // Written during every read and every copy (a loaded machine makes each slower than
            // the app's pause): "run again" is a right answer too, as for the copy above.
            if case .failure(.changedWhileReading) = outcome { continue }
            let exported = try outcome.get()
            exports += 1
            #expect(exported.manifest.entities.first { $0.entity == "Task" }?.count == 50, "run \(run)")
            #expect(exported.manifest.source == path)
        }
        #expect(exports > 0, "every run said the store changed while it was read")
    }
}

/// A Python process that opens a store, commits and closes it in a loop, as an app that saves
/// often does: between its connections nothing has the store open. A `?` in a statement is the
/// number of commits so far. Ready when made (after its third commit); `stop()` waits for it.
private final class ChurningWriter {
    private let process = Process()
    private let stopFile: String

    init(store: String, folder: String, pause: Double, statements: [String]) throws {
        stopFile = folder + "/stop"
        let ready = folder + "/writing"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sqlite3, sys, os, time
            n = 0
            while not os.path.exists(sys.argv[2]):
                c = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None)
                c.execute("BEGIN IMMEDIATE")
                for statement in sys.argv[5:]:
                    c.execute(statement, (n,) if "?" in statement else ())
                c.execute("COMMIT"); c.close(); n += 1
                if n == 3: open(sys.argv[3], "w").close()
                time.sleep(float(sys.argv[4]))
            """, store, stopFile, ready, String(pause)] + statements
        try process.run()
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: ready) { usleep(25_000) }
        #expect(FileManager.default.fileExists(atPath: ready), "the writer did not start")
    }

    func stop() {
        _ = FileManager.default.createFile(atPath: stopFile, contents: nil)
        process.waitUntilExit()
    }

    /// A Workspace 2 store in WAL mode in a new folder, and a writer changing a task's title at
    /// each commit.
    static func workspaceStore(_ label: String) throws -> (folder: String, path: String, writer: ChurningWriter) {
        let folder = try TestPaths.temporaryFolder(label)
        let path = try ExportTestSupport.workspace2Store(folder)
        try SQLiteDatabase(path: path, mode: .readWrite).execute("PRAGMA journal_mode=WAL")
        let writer = try ChurningWriter(store: path, folder: folder, pause: 0.005, statements: [
            "UPDATE ZTASK SET ZTITLE = ZTITLE || 'x', Z_OPT = Z_OPT + 1 WHERE Z_PK = ? % 40 + 1",
        ])
        return (folder, path, writer)
    }
}
