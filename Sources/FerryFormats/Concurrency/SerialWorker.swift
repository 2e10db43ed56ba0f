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
        case thread(SerialWorkQueue)
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
        queue.put(run)
    }

    /// Waits until every piece handed over has run (or been passed over after a failure).
    package func waitUntilIdle() {
        guard case .thread(let queue) = mode.withLock({ $0 }) else { return }
        let idle = DispatchSemaphore(value: 0)
        queue.put { idle.signal() }
        idle.wait()
    }

    /// Waits until every piece handed over has run; throws the first failure.
    package func drain() throws(Failure) {
        waitUntilIdle()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// The thread's queue, starting the thread on first use; nil when pieces run on the caller.
    private func startedQueue() -> SerialWorkQueue? {
        mode.withLock { mode in
            switch mode {
            case .thread(let queue): return queue
            case .caller: return nil
            case .notStarted:
                let queue = SerialWorkQueue(capacity: capacity)
                guard WorkerThread.start({ queue.run() }) else {
                    mode = .caller
                    return nil
                }
                mode = .thread(queue)
                return queue
            }
        }
    }
}

/// The pieces waiting for a `SerialWorker`'s thread, which alone runs them (`run`), and the room
/// left for more. The thread holds the queue, not the worker: dropping the worker closes the
/// queue, and the thread ends once it has run what was put before.
///
/// Semaphores start at zero and are signalled up to their counts (libdispatch refuses to free a
/// semaphore whose count is below its initial value).
private final class SerialWorkQueue: Sendable {
    /// At most `capacity` (a few): taking the first moves the rest.
    private let pieces = Mutex<[@Sendable () -> Void]>([])
    /// Signalled once per piece put and once for the close.
    private let ready = DispatchSemaphore(value: 0)
    /// Counts the pieces that may still be put.
    private let room = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        for _ in 0..<capacity { room.signal() }
    }

    /// Puts a piece after the others, waiting for room.
    func put(_ piece: @escaping @Sendable () -> Void) {
        room.wait()
        pieces.withLock { $0.append(piece) }
        ready.signal()
    }

    /// Lets the thread end once the pieces put are run.
    func close() {
        ready.signal()
    }

    /// The thread's loop: runs each piece in order until the queue is closed and empty.
    func run() {
        while true {
            ready.wait()
            // Taken out of the list, not passed over: a piece run keeps what it captured (a
            // block of input) for as long as the list holds it, and a producer that keeps the
            // list from emptying made that every piece of the run (an export's whole file).
            // Found empty only once closed: each piece put signals once, after it is put.
            let piece = pieces.withLock { pieces -> (@Sendable () -> Void)? in
                pieces.isEmpty ? nil : pieces.removeFirst()
            }
            guard let piece else { return }
            piece()
            room.signal()
        }
    }
}
