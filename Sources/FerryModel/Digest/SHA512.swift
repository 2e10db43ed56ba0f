import CCrypto

/// SHA-512 (FIPS 180-4), streaming: feed bytes with `update` in any number of pieces, then
/// `finalize` for the 64-byte digest. Computed by libcrypto, like `SHA256`.
public struct SHA512: SHA2Hashing {
    private var context = SHA512_CTX()

    /// Digest length in bytes.
    public static let byteCount = 64

    /// A hasher with nothing hashed yet.
    public init() {
        SHA512_Init(&context)
    }

    /// Appends the bytes of `buffer` to the message.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        SHA512_Update(&context, base, buffer.count)
    }

    /// The 64-byte digest of everything passed to `update`.
    public consuming func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Self.byteCount) { digest, count in
            SHA512_Final(digest.baseAddress, &context)
            count = Self.byteCount
        }
    }
}
