@testable import FerryPostgres
import Testing

/// A COPY block grows to hold a row whole. The pool kept every block it was given back, so the
/// blocks that had held a store's few large blobs stayed allocated for the rest of the load (two
/// 300 MB blobs: a peak of 2.9 GB).
@Suite("COPY block pool")
struct CopyBlockPoolTests {
    @Test("a block grown past the largest kept size is freed; a block of ordinary size is kept and reused")
    func largeBlocksAreNotKept() {
        let pool = CopyBlockPool()
        let grown = pool.take(capacity: 1 << 20)
        grown.reserve(CopyBlockPool.largestKept + 1)
        pool.give(grown)
        let next = pool.take(capacity: 1 << 20)
        #expect(next !== grown && next.capacity == 1 << 20)
        pool.give(next)
        #expect(pool.take(capacity: 1 << 20) === next)
    }
}
