#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the environment kept from being written (or opened): no room (a full disk, `ENOSPC`
/// or `EDQUOT`; the process's file size limit, `EFBIG`: `ulimit -f`, with SIGXFSZ ignored), no
/// descriptor left (`EMFILE`: `ulimit -n`; `ENFILE`: the system's), a folder or file system that
/// refuses writes, or no shared memory for a store's `-shm`. None of these is a fault of an input:
/// every verb reports them the same way (exit 4), naming the destination rather than the temporary
/// file being built for it, or the folder or limit that is the culprit.
public struct WriteFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Cause: Sendable, Equatable {
        case diskFull
        case fileSizeLimit
        /// The process's limit on open files (`ulimit -n`) is reached.
        case descriptorLimit
        /// The system's table of open files is full.
        case systemDescriptorLimit
        /// `path` (a file, or its file system) refuses writes.
        case readOnly
        /// The folder `path` refuses the files SQLite creates beside a store (`-journal`, `-wal`, `-shm`).
        case readOnlyFolder
        /// The shared memory of the store `path` (its `-shm` file, mapped) could not be made or grown.
        case sharedMemory
    }

    public let cause: Cause
    /// What was being written: the destination, as the user named it, or the folder of the
    /// temporary files that found no room (`inTemporaryFiles`).
    public let path: String
    /// Whether the write was to temporary files (SQLite's sorts and scratch databases, copies of
    /// stores read through one) in the folder `path`, not to the destination: SQLITE_TMPDIR or
    /// TMPDIR chooses that folder.
    public let inTemporaryFiles: Bool

    public init(cause: Cause, path: String, inTemporaryFiles: Bool = false) {
        self.cause = cause
        self.path = path
        self.inTemporaryFiles = inTemporaryFiles
    }

    /// The failure an `errno` stands for, if it is one of these. `EACCES` is not: an input the
    /// process may not read is the input's fault.
    public init?(errno code: Int32, path: String) {
        switch code {
        case ENOSPC, EDQUOT: self.init(cause: .diskFull, path: path)
        case EFBIG: self.init(cause: .fileSizeLimit, path: path)
        case EMFILE: self.init(cause: .descriptorLimit, path: path)
        case ENFILE: self.init(cause: .systemDescriptorLimit, path: path)
        case EROFS: self.init(cause: .readOnly, path: path)
        default: return nil
        }
    }

    /// The failure an `errno` of opening or reading an input stands for: a want of descriptors
    /// only (an input's other errors are the input's).
    public init?(readingErrno code: Int32, path: String) {
        guard code == EMFILE || code == ENFILE else { return nil }
        self.init(errno: code, path: path)
    }

    /// The failure behind a write error whose `errno` is lost (SQLite reports an I/O error and
    /// reads `errno` only after other calls may have changed it): the file size limit when one is
    /// set (a write error under a limit is the limit in practice), a full disk when the file
    /// system of `file` has less than 64 KiB left.
    public static func diagnose(file: String, destination: String) -> WriteFailure? {
        if fileSizeLimit != nil { return WriteFailure(cause: .fileSizeLimit, path: destination) }
        if let free = freeSpace(inFolderOf: file), free < nearlyFull { return WriteFailure(cause: .diskFull, path: destination) }
        return nil
    }

    /// Free space below which a file system counts as full (`diagnose`).
    public static let nearlyFull: UInt64 = 64 * 1024

    /// The process's file size limit in bytes (`ulimit -f`), nil when there is none.
    public static var fileSizeLimit: UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }

    /// The bytes free to this process on the file system of the folder holding `file`; nil when unknown.
    public static func freeSpace(inFolderOf file: String) -> UInt64? {
        var space = statvfs()
        guard statvfs(FilePath.split(file).folder, &space) == 0 else { return nil }
        return UInt64(space.f_bavail) * UInt64(space.f_frsize)
    }

    public var description: String {
        switch (cause, inTemporaryFiles) {
        case (.diskFull, false): "disk full writing \(path)"
        case (.fileSizeLimit, false): "file size limit reached writing \(path)"
        case (.diskFull, true):
            "disk full writing temporary files in \(path) (SQLite's sort and scratch files: set SQLITE_TMPDIR or TMPDIR to a folder with room)"
        case (.fileSizeLimit, true):
            "file size limit reached writing a temporary file in \(path) (SQLite's sort and scratch files: ulimit -f limits each file)"
        case (.descriptorLimit, _):
            "too many open files: the process's limit (ulimit -n\(Self.descriptorLimit.map { " \($0)" } ?? "")) is reached, "
                + "so \(path) could not be opened; raise it"
        case (.systemDescriptorLimit, _): "too many open files in the system (its limit, fs.file-max, is reached), so \(path) could not be opened"
        case (.readOnly, _): "cannot write \(path): it, or its file system, is read-only"
        case (.readOnlyFolder, _):
            "cannot write in \(path): the folder is read-only (SQLite creates a store's -journal, -wal and -shm files beside it)"
        case (.sharedMemory, _): "cannot make or grow the shared memory of \(path) (its -shm file, mapped)"
        }
    }

    /// The process's limit on open files (`ulimit -n`), nil when there is none.
    public static var descriptorLimit: UInt64? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }

    /// A write past the file size limit sends SIGXFSZ, which ends the process silently; ignored,
    /// the write fails with EFBIG instead and is reported as this failure.
    public static func reportInsteadOfKilling() {
        signal(SIGXFSZ, SIG_IGN)
    }
}

/// An error that may stand for a `WriteFailure` (one wrapping a failure the environment caused).
public protocol WriteFailureCarrying: Error {
    /// What the environment lacked (room, descriptors, a writable folder…), when that is the error's cause.
    var writeFailure: WriteFailure? { get }
}

extension WriteFailure {
    /// The write failure behind any error, when there is one.
    public static func of(_ error: any Error) -> WriteFailure? {
        if let failure = error as? WriteFailure { return failure }
        return (error as? any WriteFailureCarrying)?.writeFailure
    }
}
