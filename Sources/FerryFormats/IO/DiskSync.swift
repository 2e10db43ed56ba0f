#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Flushing what was written to disk (`fsync`), for the steps that must survive a power loss:
/// a file's bytes, or a folder's entries (a file created, renamed or removed in it).
public enum DiskSync {
    /// Flushes the file or folder at `path` to disk.
    public static func sync(_ path: String) throws(ByteSinkError) {
        _ = close(try openAndSync(path))
    }

    /// Flushes the folder at `path` (its entries) to disk, where the file system can: one that
    /// cannot sync a folder at all (`EINVAL`, as some network and FUSE ones say) is not a failure.
    public static func syncFolder(_ path: String) throws(ByteSinkError) {
        do { try sync(path) } catch where error.operation == "fsync" && error.code == EINVAL {}
    }

    /// Flushes the file or folder at `path` to disk and returns the descriptor it opened, for the
    /// caller to close once closing it can release no lock the process still needs.
    public static func openAndSync(_ path: String) throws(ByteSinkError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ByteSinkError(path: path, operation: "open", code: errno) }
        guard fsync(descriptor) == 0 else {
            let failure = errno
            close(descriptor)
            throw ByteSinkError(path: path, operation: "fsync", code: failure)
        }
        return descriptor
    }
}
