import FerryFormats
import FerryModel

/// SHA-256 of a file's bytes, streamed in 1 MB reads.
enum FileDigest {
    /// The digest (lowercase hex) and size of the file at `path`.
    static func sha256(of path: String) throws -> (digest: String, size: Int) {
        var digest = SHA256()
        var size = 0
        let source = try FileByteSource(path: path)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            size += count
        }
        return (Hex.string(digest.finalize()), size)
    }
}
