import Dispatch
import Synchronization

/// Work handed over piece by piece and run in that order on one thread of its own, while the
/// caller goes on: at most `capacity` pieces wait (`submit` waits for room), which bounds memory.
/// The thread (`WorkerThread`) is started with the first piece and kept for every later one
/// until the worker is dropped, so a job starts one thread, not one per piece. When the system
/// cannot make it (`ulimit -v`), each piece runs on the caller as it is handed over: the same
/// work in the same order, without the overlap. libdispatch's queues, used before, retried such
/// a thread forever and the run hung.
///
/// The first failure is kept: the pieces after it are not run, and it is thrown by the next
/// `submit` and by `drain`.
package final class SerialWorker<Failure: Error>: Sendable {
    private enum Mode {
        case notStarted
        case thread(PieceQueue)
        case caller
    }

    private let capacity: Int
    private let mode = Mutex(Mode.notStarted)
    private let failure = Mutex<Failure?>(nil)

    /// A worker holding at most `capacity` pieces (at least one) waiting or running.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    deinit {
        if case .thread(let queue) = mode.withLock({ $0 }) { queue.close() }
    }

    /// Hands `piece` to the worker's thread (or runs it here when no thread can be made), after
    /// waiting for room. Throws the failure of an earlier piece instead.
    package func submit(_ piece: @escaping @Sendable () throws(Failure) -> Void) throws(Failure) {
        if let error = failure.withLock({ $0 }) { throw error }
        let run: @Sendable () -> Void = { [self] in
            guard failure.withLock({ $0 == nil }) else { return }
            do throws(Failure) { try piece() } catch { failure.withLock { $0 = error } }
        }
        guard let queue = startedQueue() else { return run() }
        guard case .free = queue.waitForRoom() else { return }
        queue.put(run)
    }

    /// Waits until every piece handed over has run (or been passed over after a failure).
    package func waitUntilIdle() {
        guard case .thread(let queue) = mode.withLock({ $0 }) else { return }
        let idle = DispatchSemaphore(value: 0)
        guard case .free = queue.waitForRoom() else { return }
        queue.put { idle.signal() }
        idle.wait()
    }

    /// Waits until every piece handed over has run; throws the first failure.
    package func drain() throws(Failure) {
        waitUntilIdle()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// The thread's queue, starting the thread on first use; nil when pieces run on the caller.
    private func startedQueue() -> PieceQueue? {
        mode.withLock { mode in
            switch mode {
            case .thread(let queue): return queue
            case .caller: return nil
            case .notStarted:
                let queue = PieceQueue(capacity: capacity)
                guard WorkerThread.start({ Self.runPieces(of: queue) }) else {
                    mode = .caller
                    return nil
                }
                mode = .thread(queue)
                return queue
            }
        }
    }

    /// The thread's loop: runs each piece in order until the queue is closed and empty. The
    /// thread holds the queue, not the worker: dropping the worker closes the queue, and the
    /// thread ends once it has run what was put before.
    private static func runPieces(of queue: PieceQueue) {
        while let piece = queue.take() {
            piece()
            queue.release()
        }
    }
}

/// The pieces waiting for a `SerialWorker`'s thread (or running there), at most its capacity.
private typealias PieceQueue = BoundedHandOff<@Sendable () -> Void, Never>
