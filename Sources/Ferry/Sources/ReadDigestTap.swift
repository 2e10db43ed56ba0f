import FerryFormats
import FerryModel
import Synchronization

/// Passes a source's bytes on to its reader unchanged and digests them on the way (SHA-256 and
/// the count), for the import's list of files (`ImportedFiles`), which refuses the same bytes
/// appended again: the digest is of exactly the bytes the records were read from, a stream's
/// (standard input, a pipe, a FIFO: it cannot be read a second time) or a file's (digested
/// apart, a file written meanwhile was listed with bytes no import read). It is of the bytes as
/// they arrive, gzip or not, and left in `digest` when the reader reaches the end of the source.
struct ReadDigestTap: ByteSource {
    /// Where the digest is left.
    let digest = ReadDigest()
    var name: String { source.name }

    private var source: any ByteSource
    private var hasher = SHA256()
    private var count = 0
    private var ended = false

    init(_ source: some ByteSource) {
        self.source = source
    }

    func wholeInputContains(_ byte: UInt8) -> Bool? {
        source.wholeInputContains(byte)
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

/// Where a `ReadDigestTap` leaves the digest of the whole source.
final class ReadDigest: Sendable {
    private let value = Mutex<ImportedFiles.Digest?>(nil)

    /// The source's digest; nil while its reader has not read to the end.
    var result: ImportedFiles.Digest? { value.withLock { $0 } }

    fileprivate func publish(_ digest: ImportedFiles.Digest) {
        value.withLock { $0 = digest }
    }
}
