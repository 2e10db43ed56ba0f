import FerryTestSupport
import Foundation
import Testing

/// `update` and `delete` beside other processes: a dry run leaves the store's files as they are
/// (it opened the store for writing, and closing that connection checkpointed a WAL store's
/// `-wal` into it), and a store another process holds is "locked" (exit 7), not a raw SQLite
/// message with exit 4.
@Suite("update and delete on stores as they are found: beside other processes, older than the model cache")
struct MutationLockAndDryRunTests {
    private let ferry = ExportTestSupport.binary

    /// Starts a Python process that opens `store`, runs `sql` and keeps the connection open for
    /// `seconds`; returns once the SQL ran.
    private func holder(_ store: String, _ sql: String, seconds: Int, folder: String) throws -> Process {
        let ready = folder + "/holder-ready"
        let script = """
            import sqlite3, time
            c = sqlite3.connect(\(String(reflecting: store)), isolation_level=None)
            c.executescript(\(String(reflecting: sql)))
            open(\(String(reflecting: ready)), 'w').close()
            time.sleep(\(seconds))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        try process.run()
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: ready) { usleep(50_000) }
        #expect(FileManager.default.fileExists(atPath: ready), "the holder did not start")
        return process
    }

    private func digest(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("a dry run, or a refused update or delete, leaves a WAL store's files byte for byte as they were")
    func dryRunLeavesWALStore() throws {
        let folder = try TestPaths.temporaryFolder("mutation-dry-wal")
        let original = try ExportTestSupport.workspace2Store(folder)
        // A committed change still in the -wal, kept there by a connection that stays open; the
        // store is copied with its -wal meanwhile (as from a device), so no connection holds the copy.
        let holder = try holder(original, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; UPDATE ZTASK SET ZTITLE = 'in the wal' WHERE Z_PK = 1;",
                                seconds: 20, folder: folder)
        let store = folder + "/Copy.sqlite"
        try FileManager.default.copyItem(atPath: original, toPath: store)
        try FileManager.default.copyItem(atPath: original + "-wal", toPath: store + "-wal")
        holder.terminate()
        let before = [digest(store), digest(store + "-wal")]
        #expect(before[1]?.isEmpty == false)
        let update = try ExportTestSupport.shell("'\(ferry)' update '\(store)' --entity Task --where 'title == \"in the wal\"' --set title=X --dry-run")
        #expect(update.status == 0, "\(update.err)")
        let delete = try ExportTestSupport.shell("'\(ferry)' delete '\(store)' --entity Task --where 'title == \"in the wal\"' --dry-run")
        #expect(delete.status == 0, "\(delete.err)")
        #expect([digest(store), digest(store + "-wal")] == before)
        // A refused change writes nothing either: SQLite's last connection checkpointed the
        // -wal into the store and deleted it as it closed, so "nothing changed" rewrote the file.
        for refused in ["update '\(store)' --entity Task --where TRUEPREDICATE --set nosuch=1", "delete '\(store)' --entity Nope --where TRUEPREDICATE"] {
            let run = try ExportTestSupport.shell("'\(ferry)' \(refused)")
            #expect(run.status == 3, "\(refused): \(run.err)")
            #expect([digest(store), digest(store + "-wal")] == before, "\(refused)")
        }
        // A change that is made stays in the -wal, as Core Data leaves one; the store reads it.
        let made = try ExportTestSupport.shell("'\(ferry)' update '\(store)' --entity Task --where 'title == \"in the wal\"' --set title=Y")
        #expect(made.status == 0, "\(made.err)")
        #expect(digest(store) == before[0])
        let query = try FerryProcess.run(["query", store, "--entity", "Task", "--where", "title == \"Y\"", "--format", "csv"])
        #expect(query.status == 0 && query.out.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 2, "\(query.out)\(query.err)")
    }

    @Test("update of a store another process holds the write lock of is exit 7, saying so; nothing changes")
    func lockedStore() throws {
        let folder = try TestPaths.temporaryFolder("mutation-locked")
        let store = try ExportTestSupport.workspace2Store(folder)
        let holder = try holder(store, "BEGIN IMMEDIATE;", seconds: 15, folder: folder)
        defer { holder.terminate() }
        let update = try ExportTestSupport.shell("'\(ferry)' update '\(store)' --entity Task --where 'taskID == 1' --set title=X")
        #expect(update.status == 7, "\(update.err)")
        #expect(update.err.contains("is locked by another process"), "\(update.err)")
        holder.terminate()
        holder.waitUntilExit()
        let titles = try ExportTestSupport.shell("test \"$(sqlite3 '\(store)' \"SELECT count(*) FROM ZTASK WHERE ZTITLE = 'X'\")\" = 0")
        #expect(titles.status == 0)
    }

    /// Stores older than Core Data's model cache (Apptentive's, kik's) verified and answered
    /// queries with `--model`, but update and delete refused them: "no table Z_MODELCACHE".
    @Test("update and delete work on a store without Z_MODELCACHE when --model is given")
    func mutationWithoutModelCache() throws {
        let folder = try TestPaths.temporaryFolder("mutation-no-cache")
        let store = try ExportTestSupport.workspace2Store(folder)
        let model = ExportTestSupport.workspace
        #expect(try ExportTestSupport.shell("sqlite3 '\(store)' 'DROP TABLE Z_MODELCACHE'").status == 0)
        let dry = try ExportTestSupport.shell("'\(ferry)' update '\(store)' --model '\(model)' --entity Task --where 'taskID == 1' --set title=Renamed --dry-run")
        #expect(dry.status == 0, "\(dry.err)")
        let update = try ExportTestSupport.shell("'\(ferry)' update '\(store)' --model '\(model)' --entity Task --where 'taskID == 1' --set title=Renamed")
        #expect(update.status == 0, "\(update.err)")
        let delete = try ExportTestSupport.shell("'\(ferry)' delete '\(store)' --model '\(model)' --entity Tag --where 'name == \"nothing-has-this-name\"'")
        #expect(delete.status == 0, "\(delete.err)")
        let titles = try ExportTestSupport.shell("test \"$(sqlite3 '\(store)' \"SELECT count(*) FROM ZTASK WHERE ZTITLE = 'Renamed'\")\" = 1")
        #expect(titles.status == 0)
    }
}
