import Dispatch
import FerryFormats
import Synchronization

/// Batches of copied rows (`CopiedRows`) handed from one worker of a `SplitRecordScan` to the
/// cursor's thread in the order the worker read them, at most `depth` batches out at a time
/// (being filled, waiting, or being read); read batches come back to be filled again.
final class RowStream: Sendable {
    /// How a worker's stream ended.
    enum End: Sendable {
        case finished
        /// An SQLite error, met while reading the rows from key `from` on.
        case failed(SQLiteError, from: Int64)
    }

    /// What `take()` gives: the next batch, or the end once every batch is taken.
    enum Taken {
        case rows(CopiedRows)
        case end(End)
    }

    private let batches: BoundedHandOff<CopiedRows, CopiedRows>
    /// Set before the hand-off is closed.
    private let ending = Mutex<End?>(nil)
    /// Signalled once the worker is done with its connection.
    private let workerDone = DispatchSemaphore(value: 0)
    private let makeBatch: @Sendable () -> CopiedRows

    init(depth: Int, makeBatch: @escaping @Sendable () -> CopiedRows) {
        batches = BoundedHandOff(capacity: depth)
        self.makeBatch = makeBatch
    }

    // MARK: Worker

    /// An empty batch to fill, waiting until fewer than `depth` are out; nil once the cursor's
    /// thread has stopped the stream.
    func emptyBatch() -> CopiedRows? {
        switch batches.waitForRoom() {
        case .free(let spare): spare ?? makeBatch()
        case .stopped: nil
        }
    }

    /// Hands over a filled batch.
    func put(_ rows: CopiedRows) {
        batches.put(rows)
    }

    /// Ends the stream after the batches put.
    func end(_ end: End) {
        ending.withLock { $0 = end }
        batches.close()
    }

    /// Says the worker is gone (its connection closed), or never started.
    func finished() {
        workerDone.signal()
    }

    // MARK: Cursor's thread

    /// The next batch, or the end, waiting for the worker.
    func take() -> Taken {
        if let rows = batches.take() { return .rows(rows) }
        return .end(ending.withLock { $0 } ?? .finished)
    }

    /// Gives a batch that was read back to be filled again.
    func giveBack(_ rows: CopiedRows) {
        rows.reset()
        batches.release(returning: rows)
    }

    /// Tells the worker to stop at its next batch.
    func stop() {
        batches.stop()
    }

    /// Waits until the worker is done with its connection.
    func waitForWorker() {
        workerDone.wait()
    }
}
