#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``ByteSource`` could not deliver its bytes.
public enum ByteSourceError: FileError, Equatable, WriteFailureCarrying {
    /// `open(2)` failed; `code` is the `errno` value.
    case openFailed(path: String, code: Int32)
    /// `read(2)` failed; `code` is the `errno` value.
    case readFailed(path: String, code: Int32)
    /// A regular file was written, truncated or replaced between its opening and the end of its
    /// reading (`SourceFileStamp`): what was read is no one state of it.
    case changedWhileRead(path: String)
    /// A UTF-16 stream ended in the middle of a code unit or of a surrogate pair.
    case truncatedUTF16(source: String, byteOffset: Int)

    public var path: String {
        switch self {
        case let .openFailed(path, _), let .readFailed(path, _), let .changedWhileRead(path): path
        case let .truncatedUTF16(source, _): source
        }
    }

    public var reason: String {
        switch self {
        case let .openFailed(_, code): "cannot open: \(Self.message(for: code))"
        case let .readFailed(_, code): "cannot read: \(Self.message(for: code))"
        case .changedWhileRead: "changed while it was read (another process wrote, truncated or replaced it); run again once it is complete"
        case let .truncatedUTF16(_, byteOffset): "UTF-16 text ends inside a character at byte offset \(byteOffset)"
        }
    }

    public var description: String { writeFailure?.description ?? "\(path): \(reason)" }

    /// No descriptor left to open or read the source (`EMFILE`, `ENFILE`): the environment's
    /// failure, not the source's.
    public var writeFailure: WriteFailure? {
        switch self {
        case let .openFailed(path, code), let .readFailed(path, code):
            WriteFailure(readingErrno: code, path: path)
        case .changedWhileRead, .truncatedUTF16: nil
        }
    }

    private static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
