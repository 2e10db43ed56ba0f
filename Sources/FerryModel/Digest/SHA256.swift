import CCrypto

/// SHA-256 (FIPS 180-4), streaming: feed bytes with `update` in any number of pieces, then
/// `finalize` for the 32-byte digest. Core Data's version hashes are SHA-256 digests; so are
/// Ferry's fingerprints, derived UUIDs and export checksums.
///
/// Computed by libcrypto, which uses the CPU's SHA extensions where it has them (about 2 GB/s
/// on one core of the benchmark machine, against a few hundred MB/s for portable code): the
/// checksum of an export is computed while it is written, and every record a verification
/// reads is hashed once.
public struct SHA256: SHA2Hashing {
    private var context = SHA256_CTX()

    /// Digest length in bytes.
    public static let byteCount = 32

    /// A hasher with nothing hashed yet.
    public init() {
        SHA256_Init(&context)
    }

    /// Appends the bytes of `buffer` to the message.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        SHA256_Update(&context, base, buffer.count)
    }

    /// The 32-byte digest of everything passed to `update`.
    public consuming func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Self.byteCount) { digest, count in
            SHA256_Final(digest.baseAddress, &context)
            count = Self.byteCount
        }
    }

    /// Hashes `message` in one call without allocating, for hot loops: writes the first
    /// `digest.count` bytes of its digest (all 32 when the buffer is that large) into `digest`.
    public static func hash(_ message: UnsafeRawBufferPointer, into digest: UnsafeMutableRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount) { full in
            var hasher = SHA256()
            hasher.update(message)
            SHA256_Final(full.baseAddress, &hasher.context)
            digest.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(full)[..<min(digest.count, byteCount)]))
        }
    }
}
