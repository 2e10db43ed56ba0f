import CSQLite
import FerryFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteError {
    /// What the environment lacked when a call on the database `file` failed with `code`, or nil
    /// when the failure is not the environment's (then it is the database's, or the caller's).
    ///
    /// - A file SQLite could not open for want of descriptors (`SQLITE_CANTOPEN` with `EMFILE`
    ///   or `ENFILE`), by any connection.
    /// - The shared memory of a WAL store (`SQLITE_IOERR_SHMOPEN`, `_SHMSIZE`, `_SHMMAP`): the
    ///   `-shm` file found no room, or no descriptor, or could not be mapped.
    /// - A connection that writes its files, refused: the folder (`SQLITE_READONLY_DIRECTORY`,
    ///   `_CANTINIT`, `_CANTLOCK`: SQLite cannot create the `-journal`, `-wal` or `-shm` beside
    ///   the store) or the file (any other `SQLITE_READONLY`) is read-only.
    /// - `SQLITE_FULL` (SQLite's word for a full disk) or a write, sync or truncation error
    ///   whose `errno` says ENOSPC or EFBIG, or whose circumstances do (`WriteFailure.diagnose`:
    ///   SQLite's `errno` may be another call's). It is a failure of SQLite's temporary files,
    ///   naming their folder, where the database's own files are not written (`writesOwnFiles`
    ///   false) or did not fail (`mainFilesErrno`, their own last `errno`, and their sizes:
    ///   `SQLiteTemporaryFiles`).
    static func environmentFailure(code: Int32, systemErrno: Int32, mainFilesErrno: Int32 = 0, file: String, destination: String,
                                   writesOwnFiles: Bool = true) -> WriteFailure? {
        let extended = code >> 8
        switch code & 0xFF {
        case SQLITE_CANTOPEN:
            return systemErrno == EMFILE || systemErrno == ENFILE ? WriteFailure(errno: systemErrno, path: destination) : nil
        case SQLITE_IOERR where sharedMemoryErrors.contains(extended):
            let failure = WriteFailure(errno: systemErrno, path: destination) ?? WriteFailure.diagnose(file: file + "-shm", destination: destination)
            return failure ?? WriteFailure(cause: .sharedMemory, path: destination)
        case SQLITE_READONLY where writesOwnFiles:
            return [readOnlyDirectory, readOnlyCannotInitialize, readOnlyCannotLock].contains(extended)
                ? WriteFailure(cause: .readOnlyFolder, path: FilePath.split(destination).folder)
                : WriteFailure(cause: .readOnly, path: destination)
        case SQLITE_FULL, SQLITE_IOERR:
            // A failed read (or lock, or seek) is no want of room, whatever the errno or the limits.
            guard code & 0xFF == SQLITE_FULL || writeErrors.contains(code) else { return nil }
            guard writesOwnFiles else { return SQLiteTemporaryFiles.failure(code: code, systemErrno: systemErrno) }
            let failure = WriteFailure(errno: systemErrno, path: destination) ?? WriteFailure.diagnose(file: file, destination: destination)
                ?? (code & 0xFF == SQLITE_FULL ? WriteFailure(cause: .diskFull, path: destination) : nil)
            return failure.map { SQLiteTemporaryFiles.failure($0, writing: file, mainFilesErrno: mainFilesErrno) ?? $0 }
        default:
            return nil
        }
    }

    /// SQLite's codes for a failed write, sync or truncation of a file (`SQLITE_IOERR_WRITE`,
    /// `_FSYNC`, `_TRUNCATE`): an I/O error of another kind (a read) is no want of room.
    private static let writeErrors: Set<Int32> = [SQLITE_IOERR | (3 << 8), SQLITE_IOERR | (4 << 8), SQLITE_IOERR | (6 << 8)]
    /// The extended codes (above the primary `SQLITE_IOERR`) of a `-shm` that could not be opened
    /// (18), grown (19) or mapped (21).
    private static let sharedMemoryErrors: Set<Int32> = [18, 19, 21]
    /// `SQLITE_READONLY_CANTLOCK`, `_CANTINIT` and `_DIRECTORY`, above the primary code.
    private static let readOnlyCannotLock: Int32 = 2
    private static let readOnlyCannotInitialize: Int32 = 5
    private static let readOnlyDirectory: Int32 = 6
}
