#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryFormats

/// The lock of a folder Ferry writes into, so two runs never write into the same folder at once
/// (two backups, or two exports into a folder that exists): an exclusive `flock` on a lock file
/// in the folder, held while the run writes. The system releases it when its holder ends however
/// it ends (`kill -9` included), so there are no stale locks to judge. The file stays (removing a
/// locked file would let a third run lock a new one beside the old); it holds the holder's pid,
/// only to name it in the message.
final class FolderLock {
    /// The lock file of a backup folder.
    static let backupFileName = ".ferry-backup.lock"
    /// The lock file of an export's existing destination folder.
    static let exportFileName = ".ferry-export.lock"
    let path: String
    private var descriptor: Int32

    /// Takes the lock of `folder`, on its file `fileName`.
    /// - Throws: `.locked` when another process holds it, `.cannotWrite` when it cannot be opened.
    init(folder: String, fileName: String) throws(ExportError) {
        path = folder + "/" + fileName
        descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.holder(descriptor)
            _ = close(descriptor)
            guard code == EWOULDBLOCK else { throw .cannotWrite(path: path, reason: String(cString: strerror(code))) }
            // The pid in the file is the last run's to take the lock; the holder may be another process.
            throw .locked(path: path, holder: holder.map { "the last run to take it was pid \($0)" } ?? "held by another process")
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    deinit { release() }

    /// Lets go of the lock.
    func release() {
        guard descriptor >= 0 else { return }
        unlockAndClose(descriptor)
        descriptor = -1
    }

    /// The pid the holder wrote, when it reads as one.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes.prefix(count), as: UTF8.self).filter { !$0.isWhitespace })
    }
}
