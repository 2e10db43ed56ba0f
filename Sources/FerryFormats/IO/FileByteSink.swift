#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes bytes to a file (or `-` for standard output) through a buffer, with typed errors that
/// name the path. A short write (a full disk, a file-size limit) is an error, never silent.
public final class FileByteSink {
    public let path: String
    private var descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private let capacity: Int

    /// Creates or truncates the file at `path` (mode 0644); with `exclusive`, creates it only
    /// when nothing is there, not even a symbolic link (`O_EXCL | O_NOFOLLOW`).
    public init(path: String, exclusive: Bool = false, bufferSize: Int = 256 * 1024) throws(ByteSinkError) {
        self.path = path
        capacity = max(1, bufferSize)
        buffer.reserveCapacity(capacity)
        if path == "-" {
            descriptor = 1
            ownsDescriptor = false
            return
        }
        descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL | O_NOFOLLOW : O_TRUNC), 0o644)
        ownsDescriptor = true
        guard descriptor >= 0 else { throw ByteSinkError(path: path, operation: "open", code: errno) }
    }

    deinit {
        if ownsDescriptor, descriptor >= 0 { _ = systemClose(descriptor) }
    }

    /// Appends bytes.
    public func write(_ bytes: some Sequence<UInt8>) throws(ByteSinkError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    /// Appends the bytes of a buffer.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(ByteSinkError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    /// Writes out whatever is buffered.
    public func flush() throws(ByteSinkError) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                raw.baseAddress.map { systemWrite(descriptor, $0 + offset, raw.count - offset) } ?? 0
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw ByteSinkError(path: path, operation: "write", code: errno)
            }
            // Nothing written and no error: the file system took no byte, which is no room.
            guard written > 0 else { throw ByteSinkError(path: path, operation: "write", code: ENOSPC) }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, makes the bytes durable (`fsync`) when asked, and closes the file.
    public func close(sync: Bool = false) throws(ByteSinkError) {
        try flush()
        guard ownsDescriptor, descriptor >= 0 else { return }
        if sync, fsync(descriptor) != 0 { throw ByteSinkError(path: path, operation: "fsync", code: errno) }
        let status = systemClose(descriptor)
        descriptor = -1
        if status != 0 { throw ByteSinkError(path: path, operation: "close", code: errno) }
    }
}

/// A file that could not be written, with the path, the operation and the system's reason.
public struct ByteSinkError: FileError, Equatable, WriteFailureCarrying {
    public let path: String
    public let operation: String
    public let code: Int32

    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public var reason: String { writeFailure?.description ?? "\(operation) failed: \(String(cString: strerror(code)))" }

    public var description: String { writeFailure?.description ?? "\(path): \(reason)" }

    /// A full disk or the file size limit, when that is the failure.
    public var writeFailure: WriteFailure? { WriteFailure(errno: code, path: path) }
}
