import Dispatch
import Synchronization

/// A block handed to a worker (`SerialWorker`): the worker stores its result once and signals;
/// the writer waits for it. The result is only touched under the lock; the signal just wakes the writer.
final class ParallelGzipPendingBlock: Sendable {
    private let result = Mutex<Result<ParallelGzipBlock, GzipError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts compressing on `worker` (here, when it runs its work on the caller). The job owns
    /// `input`; `dictionary` shares the previous block's storage, which nobody mutates.
    init(input: [UInt8], dictionary: ArraySlice<UInt8>, level: Int32, isLast: Bool, worker: SerialWorker<Never>) {
        worker.submit { [self] in
            let outcome = Result { () throws(GzipError) in
                try ParallelGzipBlock(input: input, dictionary: dictionary, level: level, isLast: isLast)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    /// Whether the worker has finished, without waiting.
    var isReady: Bool { result.withLock { $0 != nil } }

    /// Waits for the worker and returns its block.
    /// - Throws: ``GzipError/zlibFailure(code:)`` from the worker.
    func wait() throws(GzipError) -> ParallelGzipBlock {
        while true {
            if let outcome = result.withLock({ $0 }) { return try outcome.get() }
            done.wait()
        }
    }
}
