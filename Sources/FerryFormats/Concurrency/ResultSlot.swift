import Dispatch
import Synchronization

/// The outcome of work done on another thread: stored once under a lock by the worker, waited
/// for by its owner. The outcome is only touched under the lock; the signal just wakes the waiter.
package final class ResultSlot<Success: Sendable, Failure: Error>: Sendable {
    private let outcome = Mutex<Result<Success, Failure>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    package init() {}

    /// Stores the outcome (once) and wakes the waiter.
    package func fill(_ result: Result<Success, Failure>) {
        outcome.withLock { $0 = result }
        done.signal()
    }

    /// The outcome when it is stored; nil before (never waits).
    package var outcomeIfDone: Result<Success, Failure>? {
        outcome.withLock { $0 }
    }

    /// Waits for the outcome and returns it.
    package func wait() throws(Failure) -> Success {
        while true {
            if let result = outcome.withLock({ $0 }) { return try result.get() }
            done.wait()
        }
    }
}
