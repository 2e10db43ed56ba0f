/// A block of COPY data: memory of its own that `CopyInWriter` fills and `CopyDataSender` sends,
/// then hands back to be filled again.
///
/// `@unchecked Sendable`: a block has one owner at a time, the writer while it fills it and the
/// sender's thread from `send` until it hands the block back.
final class CopyBlock: @unchecked Sendable {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    /// Bytes filled, from `base`.
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        base.deallocate()
    }

    /// Makes room for at least `needed` bytes in all, keeping the bytes filled.
    func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
        moved.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    /// The bytes filled.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: count)
    }
}
