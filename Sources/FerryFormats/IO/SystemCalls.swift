#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The C library's I/O calls under names that do not clash with the `read`, `write` and `close`
// methods of the types that use them.

/// `read(2)`.
func systemRead(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, base, count)
    #else
    Darwin.read(descriptor, base, count)
    #endif
}

/// `write(2)`.
func systemWrite(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, base, count)
    #else
    Darwin.write(descriptor, base, count)
    #endif
}

/// `close(2)`.
func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}

/// Lets go of an exclusive `flock(2)` and closes its descriptor. The unlock comes first: a child
/// process that another thread forks holds a copy of every descriptor until it starts its program
/// (`O_CLOEXEC` closes it only then), and a lock that is only closed lives on in that copy for the
/// moment, so the next run in this process to take it (the next backup into a folder) was refused
/// as if another run held it.
public func unlockAndClose(_ descriptor: Int32) {
    _ = flock(descriptor, LOCK_UN)
    _ = systemClose(descriptor)
}

/// Facts about files, straight from `stat(2)`.
public enum FileInfo {
    /// The size in bytes of the file at `path`, or nil when it does not exist or cannot be read.
    public static func size(atPath path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// What identifies one state of the file at `path`: its device and inode, size, and
    /// modification time (to the nanosecond), as `device:inode:size@seconds.nanoseconds`. A write
    /// changes the size or the time; a file renamed over the path (another store of the same
    /// size, its time copied with `cp -p`) changes the inode. Not the status-change time: SQLite
    /// changes a `-wal`'s owner to the database's each time it opens it as root, which bumps it.
    /// One `stat`, with no owner names looked up (Foundation's `attributesOfItem` reads the user
    /// and group databases for them). Nil when the file does not exist or cannot be read.
    public static func stamp(atPath path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return "\(info.st_dev):\(info.st_ino):\(info.st_size)@\(modified.tv_sec).\(modified.tv_nsec)"
    }

    /// What is at a path, the path's last component itself (a symbolic link is not followed).
    public enum Kind: Sendable, Equatable {
        case regularFile
        case directory
        case symbolicLink
        /// A FIFO, socket or device.
        case special
    }

    /// What is at the end of `path`'s symbolic links (`stat(2)`); nil when nothing is (a link
    /// to nothing included), or it cannot be looked at.
    public static func finalKind(atPath path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return kind(of: info)
    }

    /// What is at `path` itself (`lstat(2)`: a symbolic link is reported as such); nil when
    /// nothing is, or it cannot be looked at.
    public static func kind(atPath path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return kind(of: info)
    }

    private static func kind(of info: stat) -> Kind {
        switch info.st_mode & S_IFMT {
        case S_IFREG: .regularFile
        case S_IFDIR: .directory
        case S_IFLNK: .symbolicLink
        default: .special
        }
    }

    /// The text of the symbolic link at `path` (the path it holds, as written: relative to the
    /// link's folder unless it starts with `/`); nil when `path` is no link.
    public static func linkText(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink(path, &buffer, 4096)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The file a symbolic link at `path` leads to (every link resolved, `realpath(3)`); `path`
    /// itself when it is no link, or the link leads nowhere.
    public static func linkTarget(of path: String) -> String {
        guard kind(atPath: path) == .symbolicLink, let resolved = resolvedPath(of: path) else { return path }
        return resolved
    }

    /// `path` from the root, with every symbolic link, `.` and `..` resolved (`realpath(3)`): one
    /// name for a file however it is given. Nil when nothing is there, or a folder on the way
    /// cannot be looked at.
    public static func resolvedPath(of path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Device and inode of the file at `path` (links followed), which tell two spellings of one
    /// file apart from two files; nil when it does not exist or cannot be read.
    public static func identity(atPath path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
