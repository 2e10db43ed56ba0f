/// A block handed to a worker (`SerialWorker`), which stores the compressed block in a
/// `ResultSlot`; the writer waits for it.
final class ParallelGzipPendingBlock: Sendable {
    private let slot = ResultSlot<ParallelGzipBlock, GzipError>()

    /// Starts compressing on `worker` (here, when it runs its work on the caller). The job owns
    /// `input`; `dictionary` shares the previous block's storage, which nobody mutates.
    init(input: [UInt8], dictionary: ArraySlice<UInt8>, level: Int32, isLast: Bool, worker: SerialWorker<Never>) {
        worker.submit { [slot] in
            slot.fill(Result { () throws(GzipError) in
                try ParallelGzipBlock(input: input, dictionary: dictionary, level: level, isLast: isLast)
            })
        }
    }

    /// Whether the worker has finished, without waiting.
    var isReady: Bool { slot.outcomeIfDone != nil }

    /// Waits for the worker and returns its block.
    /// - Throws: ``GzipError/zlibFailure(code:)`` from the worker.
    func wait() throws(GzipError) -> ParallelGzipBlock {
        try slot.wait()
    }
}
