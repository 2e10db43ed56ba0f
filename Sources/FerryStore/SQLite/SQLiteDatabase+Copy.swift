import CSQLite
import FerryFormats
import FoundationEssentials

extension SQLiteDatabase {
    /// Copies one committed state of the database at `path` into a new file at `copy`, through
    /// SQLite's online backup (every page in one step, under one read transaction of the
    /// source): the copy is consistent while other processes write the source, which is opened
    /// read-only (see `ReadOnlySource`) and never changed.
    ///
    /// A source read as fixed bytes (opened immutable: no connection had it open at that moment)
    /// takes no lock, so a process that opens it and checkpoints meanwhile tears the copy (an app
    /// that opens, commits and closes its store every few milliseconds: the copy read as
    /// "damaged"). Such a copy is kept only when the file's stamp did not change while it was
    /// read and SQLite's `quick_check` passes on it (a file's time has the kernel's clock tick, so
    /// a checkpoint can leave the stamp as it was); otherwise it is made again, up to `attempts`
    /// times. Then the source is reported busy, or damaged when it never changed and every copy
    /// failed the check.
    ///
    /// `observe` runs just before each attempt; what it returned before the attempt kept is
    /// returned (what a job says of the source's files is of the moment of the state copied).
    public static func copyCommittedState<Observed>(of path: String, to copy: String, attempts: Int = 5,
                                                    observing observe: () throws(SQLiteError) -> Observed) throws(SQLiteError) -> Observed {
        var changed = false
        for _ in 1...max(1, attempts) {
            let observed = try observe()
            let before = StoreFileStamp(path)
            do {
                let readsFixedBytes = try copyOnce(of: path, to: copy)
                let unchanged = StoreFileStamp(path) == before
                if !readsFixedBytes || (unchanged && isSound(copy)) { return observed }
                changed = changed || !unchanged
            } catch where error.writeFailure == nil && StoreFileStamp(path) != before {
                // Pages of two states read as damage: read again.
                changed = true
            }
            try? FileManager.default.removeItem(atPath: copy)
        }
        guard changed else {
            throw SQLiteError(path: path, code: SQLITE_CORRUPT, message: "every copy of it fails SQLite's quick_check: the store is damaged")
        }
        throw SQLiteError(path: path, code: SQLITE_BUSY, message: "another process wrote it during each of \(max(1, attempts)) attempts "
                          + "to copy it: run again when it is idle")
    }

    /// Whether SQLite's `quick_check` passes on the database at `path`.
    private static func isSound(_ path: String) -> Bool {
        guard let database = try? SQLiteDatabase(path: path, mode: .readWrite) else { return false }
        defer { try? database.close() }
        return (try? database.scalarText("PRAGMA quick_check")) == "ok"
    }

    /// One copy; returns whether the source was read as fixed bytes (`sameBytes`).
    private static func copyOnce(of path: String, to copy: String) throws(SQLiteError) -> Bool {
        let source = try SQLiteDatabase(path: path, mode: .readOnly)
        let target = try SQLiteDatabase(path: copy, mode: .create)
        target.destination = copy
        let backup = sqlite3_backup_init(try target.openHandle(sql: nil), "main", try source.openHandle(sql: nil), "main")
        guard let backup else { throw target.error(sqlite3_errcode(try target.openHandle(sql: nil))) }
        let stepped = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE else { throw stepped == SQLITE_BUSY || stepped == SQLITE_LOCKED ? source.error(stepped) : target.error(stepped) }
        guard finished == SQLITE_OK else { throw target.error(finished) }
        try target.close()
        try source.close()
        return source.sameBytes != nil
    }
}
