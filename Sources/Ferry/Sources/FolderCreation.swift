import FerryFormats
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes the folder a job writes into, and says in a few words why it cannot, instead of
/// Foundation's dump of a `CocoaError`.
enum FolderCreation {
    /// Why a folder cannot be made: its path, and the reason without it.
    struct Failure: FileError {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// Creates `path` and the folders above it that are missing; an existing folder is kept.
    /// - Throws: ``Failure``: "exists and is not a folder", or the system's reason
    ///   ("Permission denied", "Not a directory" for a file on the way).
    static func make(_ path: String) throws(Failure) {
        var isFolder = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder {
            throw Failure(path: path, reason: "exists and is not a folder")
        }
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw Failure(path: path, reason: reason(of: error))
        }
    }

    /// The system's text for the POSIX error a Foundation file error wraps, else the error's text.
    private static func reason(of error: any Error) -> String {
        if let cocoa = error as? CocoaError, let posix = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        return "\(error)"
    }
}
