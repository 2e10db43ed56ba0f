/// Streaming SHA-2: buffers at most one partial block, hashes full blocks straight from the
/// caller's buffer, and pads per FIPS 180-4 §5.1 at the end.
struct SHA2Engine<Variant: SHA2Variant> {
    private var state = Variant.initialHash
    /// The bytes of an incomplete block (always fewer than a block).
    private var pending: [UInt8] = []
    /// Total message length in bytes (the padding stores it in bits; see `finalize`).
    private var byteCount: UInt64 = 0

    init() {
        pending.reserveCapacity(Variant.blockByteCount)
    }

    mutating func update(_ input: UnsafeRawBufferPointer) {
        let blockSize = Variant.blockByteCount
        byteCount &+= UInt64(input.count)
        var rest = input
        if !pending.isEmpty {
            let take = min(blockSize - pending.count, rest.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<take]))
            rest = UnsafeRawBufferPointer(rebasing: rest[take...])
            guard pending.count == blockSize else { return }
            pending.withUnsafeBytes { Variant.compress(&state, blocks: $0) }
            pending.removeAll(keepingCapacity: true)
        }
        let fullBytes = rest.count - rest.count % blockSize
        if fullBytes > 0 {
            Variant.compress(&state, blocks: UnsafeRawBufferPointer(rebasing: rest[..<fullBytes]))
        }
        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[fullBytes...]))
    }

    mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        guard done == nil else { return }
        // Non-contiguous collections go through a small bounce buffer.
        var chunk: [UInt8] = []
        chunk.reserveCapacity(4096)
        for byte in bytes {
            chunk.append(byte)
            if chunk.count == 4096 {
                chunk.withUnsafeBytes { update($0) }
                chunk.removeAll(keepingCapacity: true)
            }
        }
        chunk.withUnsafeBytes { update($0) }
    }

    consuming func finalize() -> [UInt8] {
        let blockSize = Variant.blockByteCount
        pending.append(0x80)
        let zeros = (2 * blockSize - Variant.lengthByteCount - pending.count) % blockSize
        pending.append(contentsOf: repeatElement(0, count: zeros))
        // The length in bits, big-endian, in a 64- or 128-bit field.
        if Variant.lengthByteCount == 16 {
            pending.append(contentsOf: bigEndianBytes(byteCount >> 61))
        }
        pending.append(contentsOf: bigEndianBytes(byteCount &<< 3))
        pending.withUnsafeBytes { Variant.compress(&state, blocks: $0) }
        return state.flatMap { bigEndianBytes($0) }
    }

    private func bigEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<(T.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
