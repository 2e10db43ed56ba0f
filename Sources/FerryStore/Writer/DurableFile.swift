import FerryFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file-system calls that make a finished store durable and put it in place atomically.
enum DurableFile {
    /// Flushes a file (or directory) to disk.
    static func sync(_ path: String) throws(StoreWriterError) {
        closeDescriptor(try openAndSync(path))
    }

    /// Flushes a file to disk and returns the descriptor it opened, for the caller to close
    /// (`closeDescriptor(_:)`) once closing it can release no lock the process still needs.
    static func openAndSync(_ path: String) throws(StoreWriterError) -> Int32 {
        do { return try DiskSync.openAndSync(path) } catch {
            throw .fileSystem(path: path, operation: error.operation, errno: error.code)
        }
    }

    /// Closes a descriptor `openAndSync` returned.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Renames `source` to `destination` in one step (same directory, same file system); over an
    /// existing destination only when `replacing` (otherwise `.destinationExists`).
    static func place(_ source: String, at destination: String, replacing: Bool) throws(StoreWriterError) {
        do { try FilePath.rename(source, to: destination, replacing: replacing) } catch {
            if error.code == EEXIST, !replacing { throw .destinationExists(destination) }
            throw .fileSystem(path: destination, operation: "rename", errno: error.code)
        }
    }

    /// Removes a file; a missing file is fine.
    static func remove(_ path: String) throws(StoreWriterError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .fileSystem(path: path, operation: "unlink", errno: errno)
        }
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The directory part of a path (`.` when there is none).
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }
}
