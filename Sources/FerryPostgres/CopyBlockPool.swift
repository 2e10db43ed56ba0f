import Synchronization

/// A connection's COPY blocks that were sent, kept for the next blocks to fill: of this COPY and
/// of the connection's later ones. Fresh blocks for every COPY cost a page fault per 4 KB
/// written (the memory went back to the system when a COPY ended), a sixth of a fleet load's
/// client CPU.
final class CopyBlockPool: Sendable {
    private let spare = Mutex<[CopyBlock]>([])
    /// Blocks kept at most: as many as a COPY uses at once (the sender's three in flight and the
    /// one being filled).
    private static let kept = 4

    /// An empty block with room for `capacity` bytes: a kept one if there is one.
    func take(capacity: Int) -> CopyBlock {
        guard let block = spare.withLock({ $0.popLast() }) else { return CopyBlock(capacity: capacity) }
        block.count = 0
        block.reserve(capacity)
        return block
    }

    /// Blocks larger than this are freed, not kept: a block grows to hold a row whole, and four
    /// kept blocks that had each held a 300 MB blob held 2.4 GB for the rest of the load.
    static let largestKept = 4 << 20

    /// Keeps a block no longer in use (beyond `kept`, or larger than `largestKept`, it is freed).
    func give(_ block: CopyBlock) {
        guard block.capacity <= Self.largestKept else { return }
        spare.withLock { blocks in
            if blocks.count < Self.kept { blocks.append(block) }
        }
    }
}
