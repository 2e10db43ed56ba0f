import FerryFormats

/// Folds the `-wal` of a store that is about to be replaced into the store's own file, before
/// anything beside the store is removed.
///
/// A WAL store keeps its last commits in its `-wal` until a checkpoint (`ferry update` and Core
/// Data leave them there). Removing that `-wal` before the new store is renamed in, a run stopped
/// in between (a signal, a `-shm` that cannot be removed, a crash, a power loss) left the old store
/// without its last commits: every one lost, the store still reading as sound. Once folded, the
/// file holds every commit (SQLite syncs it before it empties the log: `wal_checkpoint(TRUNCATE)`),
/// so the `-wal` and `-shm` beside it hold nothing to lose, and are then removed before the new
/// store is renamed in (a log left beside it would be replayed onto it).
enum WriteAheadLogFold {
    /// Folds the `-wal` beside the store at `path` into it, when that `-wal` holds anything.
    /// - Throws: `.unfoldedLog` when it cannot be (the store is left as it was, log included);
    ///   `.destinationInUse` when a connection of another process keeps it from being folded.
    static func fold(_ path: String) throws(StoreWriterError) {
        guard (FileInfo.size(atPath: path + "-wal") ?? 0) > 0 else { return }
        let blocked: Bool
        do throws(SQLiteError) {
            let database = try SQLiteDatabase(path: path, mode: .readWrite)
            let checkpoint = try database.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
            // Its first column is 1 when a reader kept the checkpoint from completing.
            blocked = try checkpoint.step() && checkpoint.int64(at: 0) != 0
            checkpoint.finalize()
            try database.close()
        } catch {
            // No room is the folder's, said as such; anything else (a -shm that cannot be
            // written reads as a read-only store) is said as what it stopped: the fold.
            if let failure = error.writeFailure, [.diskFull, .fileSizeLimit].contains(failure.cause) { throw .sqlite(error) }
            throw .unfoldedLog(path: path, reason: ErrorText.reason(of: error, at: path))
        }
        if blocked { throw .destinationInUse(path) }
        if (FileInfo.size(atPath: path + "-wal") ?? 0) > 0 {
            throw .unfoldedLog(path: path, reason: "its -wal still holds pages after the checkpoint")
        }
    }
}
