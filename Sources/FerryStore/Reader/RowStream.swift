import Dispatch
import Synchronization

/// Batches of copied rows (`CopiedRows`) handed from one worker of a `SplitRecordScan` to the
/// cursor's thread in the order the worker read them, at most `depth` batches out at a time
/// (being filled, waiting, or being read); read batches come back to be filled again.
///
/// Semaphores start at zero and are signalled up to their counts (libdispatch refuses to free a
/// semaphore whose count is below its initial value).
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

    private struct State: Sendable {
        /// At most `depth`: taking the first moves the rest.
        var waiting: [CopiedRows] = []
        var spare: [CopiedRows] = []
        var end: End?
        var stopping = false
    }

    private let state = Mutex(State())
    /// Signalled once per batch put and once for the end.
    private let ready = DispatchSemaphore(value: 0)
    /// Counts the batches the worker may still take out.
    private let room = DispatchSemaphore(value: 0)
    /// Signalled once the worker is done with its connection.
    private let workerDone = DispatchSemaphore(value: 0)
    private let makeBatch: @Sendable () -> CopiedRows

    init(depth: Int, makeBatch: @escaping @Sendable () -> CopiedRows) {
        self.makeBatch = makeBatch
        for _ in 0..<max(1, depth) { room.signal() }
    }

    // MARK: Worker

    /// An empty batch to fill, waiting until fewer than `depth` are out; nil once the cursor's
    /// thread has stopped the stream.
    func emptyBatch() -> CopiedRows? {
        room.wait()
        let (stopping, spare) = state.withLock { ($0.stopping, $0.spare.popLast()) }
        guard !stopping else { return nil }
        return spare ?? makeBatch()
    }

    /// Hands over a filled batch.
    func put(_ rows: CopiedRows) {
        state.withLock { $0.waiting.append(rows) }
        ready.signal()
    }

    /// Ends the stream after the batches put.
    func end(_ end: End) {
        state.withLock { $0.end = end }
        ready.signal()
    }

    /// Says the worker is gone (its connection closed), or never started.
    func finished() {
        workerDone.signal()
    }

    // MARK: Cursor's thread

    /// The next batch, or the end, waiting for the worker.
    func take() -> Taken {
        ready.wait()
        return state.withLock { state -> Taken in
            state.waiting.isEmpty ? .end(state.end ?? .finished) : .rows(state.waiting.removeFirst())
        }
    }

    /// Gives a batch that was read back to be filled again.
    func giveBack(_ rows: CopiedRows) {
        rows.reset()
        state.withLock { $0.spare.append(rows) }
        room.signal()
    }

    /// Tells the worker to stop at its next batch.
    func stop() {
        state.withLock { $0.stopping = true }
        room.signal()
    }

    /// Waits until the worker is done with its connection.
    func waitForWorker() {
        workerDone.wait()
    }
}
