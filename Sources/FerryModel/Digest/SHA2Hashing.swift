/// What `SHA256` and `SHA512` share: streaming updates from any bytes and one-call hashing, on
/// top of the raw-buffer update each makes with libcrypto. (Inlinable, so that callers in other
/// modules get them specialized for their collection type.)
public protocol SHA2Hashing {
    /// Digest length in bytes.
    static var byteCount: Int { get }
    /// A hasher with nothing hashed yet.
    init()
    /// Appends the bytes of `buffer` to the message.
    mutating func update(_ buffer: UnsafeRawBufferPointer)
    /// The digest of everything passed to `update`.
    consuming func finalize() -> [UInt8]
}

extension SHA2Hashing {
    /// Appends `bytes` to the message (copied once when they are not contiguous).
    @inlinable
    public mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    /// The digest of `bytes`.
    @inlinable
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = Self()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
