import FerryFormats
import FerryModel

/// SHA-256 of a file's bytes, streamed in 1 MB reads.
enum FileDigest {
    /// The digest (lowercase hex) and size of the file at `path`; with `regularFileOnly`, only of
    /// a regular file itself (no link followed, no FIFO waited on: `FileByteSource(regularFileAt:)`).
    static func sha256(of path: String, regularFileOnly: Bool = false) throws -> (digest: String, size: Int) {
        try sha256(reading: regularFileOnly ? try FileByteSource(regularFileAt: path) : try FileByteSource(path: path))
    }

    /// The digest (lowercase hex) and size of what `source` reads from where it is to its end.
    static func sha256(reading source: FileByteSource) throws -> (digest: String, size: Int) {
        var digest = SHA256()
        var size = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            size += count
        }
        return (Hex.string(digest.finalize()), size)
    }

    /// The digest and size of a database file (a store or its `-wal`) that a connection of this
    /// process may hold a lock on: read without closing a descriptor of it (`LockKeepingFileReader`),
    /// which would drop that lock.
    static func sha256(ofDatabase path: String) throws -> (digest: String, size: Int) {
        var digest = SHA256()
        var size = 0
        while true {
            let chunk = try LockKeepingFileReader.read(path, offset: size, count: 1 << 20)
            if chunk.isEmpty { break }
            digest.update(chunk)
            size += chunk.count
        }
        return (Hex.string(digest.finalize()), size)
    }
}
