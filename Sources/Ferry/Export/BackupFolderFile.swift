#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryFormats

/// The one way a file of an export or backup folder is opened for reading (its manifest, each
/// entity's file), by restore, by backup's check of what it wrote and by its retention: by a plain
/// name inside the folder, as a regular file of the folder itself.
///
/// A backup folder is input from anywhere: a symbolic link in it (its manifest linked to another
/// store's) had a restore rebuild whatever the link led to, a name with `/` or `..` names a
/// file outside the folder, and a FIFO or device blocks the reader or never ends. Such a file is
/// refused, never followed nor read (`ExportError.notABackupFile`, bad input). The path is
/// looked at first (for a message that says what is there), and the file is then opened so that
/// one swapped for a link or a FIFO meanwhile is refused as well (`FileByteSource(regularFileAt:)`).
enum BackupFolderFile {
    /// The file `name` of `folder`, opened; nil when nothing is there.
    /// - Throws: `ExportError.notABackupFile` for a name that is no plain file name, or anything
    ///   at it but a regular file; `ExportError.verification` for a regular file that cannot be
    ///   opened.
    static func open(_ name: String, in folder: String) throws(ExportError) -> FileByteSource? {
        let path = FilePath.withoutTrailingSlashes(folder) + "/" + name
        guard isPlainName(name) else { throw .notABackupFile(path: path, reason: "is not a file name inside the folder (so the manifest names it): not read") }
        switch FileInfo.kind(atPath: path) {
        case nil: return nil
        case .regularFile: break
        case .symbolicLink: throw .notABackupFile(path: path, reason: "is a symbolic link, which is not followed: the files of a backup are its own regular files")
        case .directory: throw .notABackupFile(path: path, reason: "is a folder, not a regular file of the backup")
        case .special: throw .notABackupFile(path: path, reason: "is a FIFO, socket or device, not a regular file of the backup")
        }
        do { return try FileByteSource(regularFileAt: path) } catch let error as ByteSourceError {
            guard case .openFailed(_, let code) = error, code == ELOOP || code == EINVAL else {
                throw .verification(path: path, reason: "unreadable: \(ErrorText.reason(of: error, at: path))")
            }
            throw .notABackupFile(path: path, reason: "was replaced by a symbolic link, FIFO or device as it was opened: not followed")
        } catch {
            throw .verification(path: path, reason: "unreadable: \(ErrorText.reason(of: error, at: path))")
        }
    }

    /// The file of `entry`, which the manifest lists, opened.
    /// - Throws: as `open`, and `ExportError.verification` when it is missing.
    static func open(_ entry: ExportManifest.EntityFile, in folder: String) throws(ExportError) -> FileByteSource {
        guard let file = try open(entry.file, in: folder) else {
            throw .verification(path: folder + "/" + entry.file, reason: "missing (the manifest lists it with \(entry.count) records)")
        }
        return file
    }

    /// The whole content of the file `name` of `folder`; nil when nothing is there.
    /// - Throws: as `open`.
    static func contents(of name: String, in folder: String) throws(ExportError) -> [UInt8]? {
        guard let file = try open(name, in: folder) else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        do {
            while true {
                let count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
                if count == 0 { return bytes }
                bytes += chunk.prefix(count)
            }
        } catch {
            throw .verification(path: file.name, reason: "unreadable: \(ErrorText.reason(of: error, at: file.name))")
        }
    }

    /// A name of a file directly inside the folder: not empty, no separator or NUL, not `.` or `..`.
    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && name != "." && name != ".." && !name.contains("\0")
    }
}
