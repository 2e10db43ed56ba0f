import CSQLite
import FerryFormats

extension SQLiteDatabase {
    /// Copies one committed state of the database at `path` into a new file at `copy`, through
    /// SQLite's online backup (every page in one step, under one read transaction of the
    /// source): the copy is consistent while other processes write the source, which is opened
    /// read-only (see `ReadOnlySource`) and never changed.
    public static func copyCommittedState(of path: String, to copy: String) throws(SQLiteError) {
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
    }
}
