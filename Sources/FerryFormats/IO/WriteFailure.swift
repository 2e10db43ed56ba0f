#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A write that failed because there is no room: a full disk (`ENOSPC`) or the process's file
/// size limit (`EFBIG`; `ulimit -f`, with SIGXFSZ ignored). Reported the same way by every verb,
/// naming the destination rather than the temporary file being built for it.
public struct WriteFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Cause: Sendable, Equatable {
        case diskFull
        case fileSizeLimit
    }

    public let cause: Cause
    /// What was being written: the destination, as the user named it.
    public let path: String

    public init(cause: Cause, path: String) {
        self.cause = cause
        self.path = path
    }

    /// The failure an `errno` stands for, if it is one of these.
    public init?(errno code: Int32, path: String) {
        switch code {
        case ENOSPC: self.init(cause: .diskFull, path: path)
        case EFBIG: self.init(cause: .fileSizeLimit, path: path)
        default: return nil
        }
    }

    /// The failure behind a write error whose `errno` is lost (SQLite reports an I/O error and
    /// reads `errno` only after other calls may have changed it): the file size limit when one is
    /// set (a write error under a limit is the limit in practice), a full disk when the file
    /// system of `file` has less than 64 KiB left.
    public static func diagnose(file: String, destination: String) -> WriteFailure? {
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            return WriteFailure(cause: .fileSizeLimit, path: destination)
        }
        var space = statvfs()
        let folder = FilePath.split(file).folder
        if statvfs(folder, &space) == 0, UInt64(space.f_bavail) * UInt64(space.f_frsize) < 64 * 1024 {
            return WriteFailure(cause: .diskFull, path: destination)
        }
        return nil
    }

    public var description: String {
        switch cause {
        case .diskFull: "disk full writing \(path)"
        case .fileSizeLimit: "file size limit reached writing \(path)"
        }
    }

    /// A write past the file size limit sends SIGXFSZ, which ends the process silently; ignored,
    /// the write fails with EFBIG instead and is reported as this failure.
    public static func reportInsteadOfKilling() {
        signal(SIGXFSZ, SIG_IGN)
    }
}

/// An error that may stand for a `WriteFailure` (one wrapping a write's failure).
public protocol WriteFailureCarrying: Error {
    /// The full disk or file size limit behind the error, when that is its cause.
    var writeFailure: WriteFailure? { get }
}

extension WriteFailure {
    /// The write failure behind any error, when there is one.
    public static func of(_ error: any Error) -> WriteFailure? {
        if let failure = error as? WriteFailure { return failure }
        return (error as? any WriteFailureCarrying)?.writeFailure
    }
}
