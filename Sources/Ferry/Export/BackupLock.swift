#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials

/// The lock file of a backup folder: created with `O_EXCL` and holding the owner's pid, so two
/// backups never run into the same folder at once. A lock whose pid is no longer running (a
/// crashed backup) is stale and taken over.
final class BackupLock {
    static let fileName = ".ferry-backup.lock"
    let path: String
    private var held = false

    /// Takes the lock of `folder`.
    /// - Throws: `.locked` when a running process holds it, `.cannotWrite` when it cannot be created.
    init(folder: String) throws(ExportError) {
        path = folder + "/" + Self.fileName
        for _ in 0..<2 {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                let text = Array("\(getpid())\n".utf8)
                let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
                guard written == text.count else {
                    unlink(path)
                    throw .cannotWrite(path: path, reason: "could not write the lock file")
                }
                held = true
                return
            }
            let code = errno
            guard code == EEXIST else { throw .cannotWrite(path: path, reason: String(cString: strerror(code))) }
            let holder = Self.holder(of: path)
            if let holder, Self.isRunning(holder) { throw .locked(path: path, holder: "pid \(holder)") }
            unlink(path)
        }
        throw .locked(path: path, holder: "another process taking it at the same time")
    }

    deinit { release() }

    /// Removes the lock file.
    func release() {
        guard held else { return }
        held = false
        unlink(path)
    }

    private static func holder(of path: String) -> pid_t? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return pid_t(String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace })
    }

    private static func isRunning(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
