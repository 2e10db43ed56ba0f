#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file with POSIX `open`/`read`; the path `-` means standard input.
///
/// The file is opened read-only and closed when the source is released (standard input is
/// left open). A regular file is stamped when it is opened (`SourceFileStamp`), and again when
/// its last byte was read: a file written, truncated or replaced meanwhile is
/// ``ByteSourceError/changedWhileRead(path:)`` rather than the start of one state of it read
/// with the end of another. A stream (standard input, a pipe, a FIFO) cannot be checked so.
public final class FileByteSource: ByteSource {
    public let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The path stamped again at the end (nil for standard input).
    private let path: String?
    /// The file's stamp when it was opened; nil for a stream.
    public let openingStamp: SourceFileStamp?

    /// How messages name the file at `path`: standard input (`-`) as `<stdin>`.
    public static func name(of path: String) -> String {
        path == "-" ? "<stdin>" : path
    }

    /// Opens `path` for reading (`-` for standard input).
    /// - Throws: ``ByteSourceError/openFailed(path:code:)``.
    public init(path: String) throws {
        if path == "-" {
            name = Self.name(of: path)
            descriptor = STDIN_FILENO
            ownsDescriptor = false
            self.path = nil
            openingStamp = nil
        } else {
            name = path
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ByteSourceError.openFailed(path: path, code: errno) }
            descriptor = fd
            ownsDescriptor = true
            self.path = path
            openingStamp = SourceFileStamp(descriptor: fd)
        }
    }

    /// Opens `path` for reading only when it is a regular file itself: a symbolic link is not
    /// followed (`O_NOFOLLOW`), and a FIFO or device, opened without blocking, is closed again, so
    /// a file swapped for either after a check of its path is refused too.
    /// - Throws: ``ByteSourceError/openFailed(path:code:)`` (`ELOOP` for a link, `EINVAL` for
    ///   anything but a regular file).
    public init(regularFileAt path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { throw ByteSourceError.openFailed(path: path, code: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw ByteSourceError.openFailed(path: path, code: EINVAL)
        }
        name = path
        descriptor = fd
        ownsDescriptor = true
        self.path = path
        openingStamp = SourceFileStamp(descriptor: fd)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Whether the file holds `byte` anywhere, read with `pread` (the reading position stays
    /// where it is); nil when it is not a regular file (standard input, a pipe: it cannot be read
    /// twice) or cannot be read.
    public func wholeInputContains(_ byte: UInt8) -> Bool? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        var offset: off_t = 0
        while true {
            let count = pread(descriptor, chunk, 1 << 20, offset)
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return false }
            if memchr(chunk, Int32(byte), count) != nil { return true }
            offset += off_t(count)
        }
    }

    /// Moves back to the first byte, so that the file opened is read again, not whatever its
    /// path leads to by then (a backup's file checked against its manifest, then read). The stamp of the
    /// opening stays the one each later read's end is checked against.
    /// - Throws: ``ByteSourceError/readFailed(path:code:)`` for a stream, which cannot be read twice.
    public func rewind() throws(ByteSourceError) {
        guard openingStamp != nil, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw .readFailed(path: name, code: openingStamp == nil ? ESPIPE : errno)
        }
    }

    /// Reads the next chunk, retrying when interrupted by a signal; at the end of a regular
    /// file, checks that the file and its path are still as they were opened.
    /// - Throws: ``ByteSourceError/readFailed(path:code:)``, ``ByteSourceError/changedWhileRead(path:)``.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let count = systemRead(descriptor, base, buffer.count)
            if count > 0 { return count }
            if count == 0 {
                try checkUnchanged()
                return 0
            }
            if errno != EINTR { throw ByteSourceError.readFailed(path: name, code: errno) }
        }
    }

    /// Throws when the open file, or the file its path now leads to, is not the one stamped at
    /// the opening: a truncated file reads as a shorter one, and a file rewritten in place mixes
    /// the bytes of both.
    /// - Throws: ``ByteSourceError/changedWhileRead(path:)``.
    public func checkUnchanged() throws(ByteSourceError) {
        guard let openingStamp, let path else { return }
        guard SourceFileStamp(descriptor: descriptor) == openingStamp, SourceFileStamp(path: path) == openingStamp else {
            throw .changedWhileRead(path: name)
        }
    }
}
