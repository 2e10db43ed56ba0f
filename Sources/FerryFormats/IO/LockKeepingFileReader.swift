#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Bytes of a database file, read without releasing SQLite's locks on it.
///
/// SQLite locks a database with POSIX advisory locks, which belong to the process and the file:
/// closing *any* descriptor of the file drops every lock the process holds on it. A header read
/// (or a digest taken) through a descriptor of its own, opened and closed while a connection of
/// this process held its shared lock, let another process commit in the middle of that
/// connection's read. The descriptors read here stay open for the life of the process (one per
/// file: device and inode), as SQLite keeps its own.
public enum LockKeepingFileReader {
    /// The file's identity: a path renamed over by another file names another.
    private struct FileKey: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private static let descriptors = Mutex<[FileKey: Int32]>([:])

    /// Up to `count` bytes of the file at `path` from `offset` (fewer at its end).
    /// - Throws: the `errno` of a file that cannot be opened or read.
    public static func read(_ path: String, offset: Int = 0, count: Int) throws(LockKeepingReadError) -> [UInt8] {
        let file = try file(path)
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = bytes.withUnsafeMutableBytes { buffer in Result { () throws(LockKeepingReadError) in try file.read(offset: offset, into: buffer) } }
        return Array(bytes[..<(try filled.get())])
    }

    /// The file now at `path`, for many reads through its kept descriptor (the path is looked up
    /// once).
    /// - Throws: the `errno` of a file that cannot be opened.
    public static func file(_ path: String) throws(LockKeepingReadError) -> KeptFile {
        KeptFile(path: path, descriptor: try descriptor(for: path))
    }

    /// A file whose descriptor is kept open (never closed by its reader).
    public struct KeptFile: Sendable {
        public let path: String
        fileprivate let descriptor: Int32

        /// Reads from `offset` into `buffer` until it is full or the file ends; returns how many
        /// bytes were read.
        /// - Throws: the `errno` of a read that fails.
        public func read(offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(LockKeepingReadError) -> Int {
            guard let start = buffer.baseAddress else { return 0 }
            var filled = 0
            while filled < buffer.count {
                let read = pread(descriptor, start + filled, buffer.count - filled, off_t(offset + filled))
                if read < 0, errno == EINTR { continue }
                guard read >= 0 else { throw LockKeepingReadError(path: path, code: errno, reading: true) }
                if read == 0 { break }
                filled += read
            }
            return filled
        }
    }

    /// The descriptor kept for the file now at `path`, opened on first use.
    private static func descriptor(for path: String) throws(LockKeepingReadError) -> Int32 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw LockKeepingReadError(path: path, code: errno) }
        let key = FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if let known = descriptors.withLock({ $0[key] }) { return known }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw LockKeepingReadError(path: path, code: errno) }
        // Opened is what the path names now (it may have been replaced since the stat).
        guard fstat(opened, &info) == 0 else {
            let code = errno
            close(opened)
            throw LockKeepingReadError(path: path, code: code)
        }
        let openedKey = FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return descriptors.withLock { known in
            // Another thread kept one first: this one is left open, as closing it would drop
            // the process's locks on the file.
            if let existing = known[openedKey] { return existing }
            if known.count >= sweepThreshold { closeRemoved(&known) }
            known[openedKey] = opened
            return opened
        }
    }

    /// Kept descriptors past which those of removed files are closed.
    private static let sweepThreshold = 256

    /// Closes the kept descriptors of files no path names any more (removed): no connection can
    /// open them again, so no lock of one is lost that anything else could contend for.
    private static func closeRemoved(_ known: inout [FileKey: Int32]) {
        for (key, descriptor) in known {
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_nlink == 0 else { continue }
            close(descriptor)
            known[key] = nil
        }
    }
}

/// A file that could not be read: its path, the system's error, and whether it was opened (a
/// read failed) or not.
public struct LockKeepingReadError: Error, CustomStringConvertible, WriteFailureCarrying {
    public let path: String
    public let code: Int32
    var reading = false

    public var description: String { writeFailure?.description ?? "\(reading ? "cannot read" : "cannot open"): \(String(cString: strerror(code)))" }

    /// No descriptor left to open the file: the environment's failure, not the file's.
    public var writeFailure: WriteFailure? { WriteFailure(readingErrno: code, path: path) }
}
