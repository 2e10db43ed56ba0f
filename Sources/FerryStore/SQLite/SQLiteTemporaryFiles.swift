import CSQLite
import FerryFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where SQLite writes its temporary files (a sort that does not fit in memory, a scratch
/// database attached as `''`), and whether a write failure of a connection was in them rather
/// than in the database's own files: SQLite reports both as an I/O error of the database.
enum SQLiteTemporaryFiles {
    /// The folder SQLite's Unix VFS picks: the first of `SQLITE_TMPDIR`, `TMPDIR`, `/var/tmp`,
    /// `/usr/tmp` and `/tmp` that is a folder this process may write in, else `.`.
    static var folder: String {
        let candidates = [getenv("SQLITE_TMPDIR"), getenv("TMPDIR")].compactMap { $0.map { String(cString: $0) } }
            + ["/var/tmp", "/usr/tmp", "/tmp"]
        return candidates.first { candidate in
            var info = stat()
            return !candidate.isEmpty && stat(candidate, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                && access(candidate, W_OK | X_OK) == 0
        } ?? "."
    }

    /// The write failure behind a failed write (`code`: `SQLITE_FULL` or a write error, as
    /// `SQLiteError.environmentFailure` tells them, with `systemErrno`) of a connection that
    /// writes nothing of its own (a read of a source): it can only be in the temporary files.
    static func failure(code: Int32, systemErrno: Int32) -> WriteFailure? {
        let folder = self.folder
        let found = WriteFailure(errno: systemErrno, path: folder) ?? WriteFailure.diagnose(file: folder + "/-", destination: folder)
            ?? (code & 0xFF == SQLITE_FULL ? WriteFailure(cause: .diskFull, path: folder) : nil)
        return found.map { WriteFailure(cause: $0.cause, path: folder, inTemporaryFiles: true) }
    }

    /// `failure`, met by a connection that writes the database `file`, as a failure of the
    /// temporary files when the database's own files did not fail: their last `errno`
    /// (`mainFilesErrno`, which a failed write of theirs sets) is not the failure's, and they had
    /// room: each more than a page below the file size limit, or their file system not full
    /// while the temporary folder's is. Nil when the failure may be the database's own.
    static func failure(_ failure: WriteFailure, writing file: String, mainFilesErrno: Int32) -> WriteFailure? {
        if let own = WriteFailure(errno: mainFilesErrno, path: file), own.cause == failure.cause { return nil }
        let folder = self.folder
        switch failure.cause {
        case .fileSizeLimit:
            guard let limit = WriteFailure.fileSizeLimit else { return nil }
            let largest = [file, file + "-wal", file + "-journal"].compactMap(FileInfo.size(atPath:)).max() ?? 0
            guard UInt64(largest) + largestPage < limit else { return nil }
        case .diskFull:
            guard let own = WriteFailure.freeSpace(inFolderOf: file), own >= WriteFailure.nearlyFull,
                  let temporary = WriteFailure.freeSpace(inFolderOf: folder + "/-"), temporary < WriteFailure.nearlyFull else { return nil }
        case .descriptorLimit, .systemDescriptorLimit, .readOnly, .readOnlyFolder, .sharedMemory:
            return nil
        }
        return WriteFailure(cause: failure.cause, path: folder, inTemporaryFiles: true)
    }

    /// SQLite's largest page (and so its largest single write of a database file).
    private static let largestPage: UInt64 = 65_536
}
