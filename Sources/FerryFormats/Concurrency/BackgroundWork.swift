/// Work run on a worker thread while the caller goes on; `wait` returns its outcome
/// (`ResultSlot`).
public final class BackgroundWork<Success: Sendable, Failure: Error>: Sendable {
    private let slot = ResultSlot<Success, Failure>()

    /// Starts `work` on a thread of its own (`WorkerThread`), never one of libdispatch's global
    /// pool (one per core), where work started by work already on it (a store's counts beside
    /// two `--jobs` loads) waited for a thread to free up. When the system cannot make a thread
    /// (`ulimit -v`), the work runs here, before the caller goes on: the same outcome, later.
    public init(_ work: @escaping @Sendable () -> Result<Success, Failure>) {
        let finish: @Sendable () -> Void = { [slot] in slot.fill(work()) }
        if !WorkerThread.start(finish) { finish() }
    }

    /// What the worker computed, when it is done; nil while it runs (never waits).
    public var outcomeIfDone: Result<Success, Failure>? {
        slot.outcomeIfDone
    }

    /// Waits for the worker and returns what it computed.
    public func wait() throws(Failure) -> Success {
        try slot.wait()
    }
}
