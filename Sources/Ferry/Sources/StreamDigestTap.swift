import FerryFormats
import FerryModel
import Synchronization

/// Passes a stream's bytes on to its reader unchanged and digests them on the way (SHA-256 and
/// the count), for a source that cannot be read a second time (standard input, a pipe, a FIFO):
/// the import's list of files (`ImportedFiles`) can then hold it, and refuse the same bytes
/// appended again. The digest is of the bytes as they arrive, gzip or not, as a stored file's
/// is of the file; it is left in `digest` when the reader reaches the end of the stream.
struct StreamDigestTap: ByteSource {
    /// Where the digest is left.
    let digest = StreamDigest()
    var name: String { source.name }

    private var source: any ByteSource
    private var hasher = SHA256()
    private var count = 0
    private var ended = false

    init(_ source: some ByteSource) {
        self.source = source
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let read = try source.read(into: buffer)
        if read > 0 {
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<read]))
            count += read
        } else if !buffer.isEmpty, !ended {
            ended = true
            let finished = hasher
            digest.publish((Hex.string(finished.finalize()), count))
        }
        return read
    }
}

/// Where a `StreamDigestTap` leaves the digest of the whole stream.
final class StreamDigest: Sendable {
    private let value = Mutex<ImportedFiles.Digest?>(nil)

    /// The stream's digest; nil while its reader has not read to the end.
    var result: ImportedFiles.Digest? { value.withLock { $0 } }

    fileprivate func publish(_ digest: ImportedFiles.Digest) {
        value.withLock { $0 = digest }
    }
}
