#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One state of a regular source file: its device and inode, size, and modification and
/// status-change times to the nanosecond. Writing, truncating or extending the file changes its
/// size or times, and a file renamed over its path changes the inode: a reader that finds the
/// stamp of its file at the end as it was at the opening read one state of the file, not the
/// start of one and the end of another.
///
/// A stream (standard input, a pipe, a FIFO) has no such state: it is not stamped.
public struct SourceFileStamp: Equatable, Sendable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modifiedSeconds: Int
    private let modifiedNanoseconds: Int
    private let changedSeconds: Int
    private let changedNanoseconds: Int

    /// The stamp of the open file `descriptor`; nil when it is no regular file or cannot be stat'ed.
    public init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The stamp of the file `path` leads to (a link followed); nil when there is no regular file.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    private init?(_ info: stat) {
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        #if canImport(Darwin)
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        (modifiedSeconds, modifiedNanoseconds) = (Int(modified.tv_sec), Int(modified.tv_nsec))
        (changedSeconds, changedNanoseconds) = (Int(changed.tv_sec), Int(changed.tv_nsec))
    }
}
