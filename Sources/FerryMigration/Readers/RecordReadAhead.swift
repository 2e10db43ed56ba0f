import FerryFormats

/// Runs a record reader on a thread of its own (`WorkerThread`), a few batches ahead of its
/// consumer, so that parsing and converting records overlaps with writing them. When the system
/// cannot make the thread (`ulimit -v`; libdispatch, used before, retried it forever and the run
/// hung), the consumer reads each batch itself when it needs it: the same batches in the same
/// order, read in line.
///
/// Records come out in the reader's order, so the output is the same as reading in line. Memory
/// is bounded: at most `depth` batches wait at a time, each of `batchSize` results or of
/// `batchBytes` of values and one record more (records of large blobs come a few at a time), and
/// the reader stops when they are not taken. A batch the consumer has gone through goes back to the reader
/// thread, which offers its results to the reader for reuse (``RecordReader/reuse(_:)``), frees
/// the rest there and reuses the batch's storage: the consumer only copies each
/// result (a few reference counts), so freeing the records' arrays and strings costs the
/// consumer's thread nothing and does not contend with the reader's allocations. A source error ends the stream after the results read before
/// it, and is thrown again by every later call. Dropping the read-ahead tells the reader thread
/// to stop: it finishes the batch it is reading (without waiting for room), then releases the
/// reader and its source. The consumer does not wait for that, so a source that blocks (a
/// terminal on standard input) cannot hang it.
struct RecordReadAhead: ~Copyable {
    private let source: BatchSource
    /// The current batch, and the position of its next result.
    private var pending: [RecordReadResult] = []
    private var position = 0
    /// The last batch was taken: what ended the stream (nil: the end of the source).
    private var ending: Ending?
    /// The reader's unknown keys as of the last batch taken: complete once `next()` returned nil
    /// or threw (readers of documents find them while reading).
    private(set) var unknownKeys: [String] = []
    /// Whether the reader matched any key, as of the last batch taken.
    private(set) var matchesAnyKey = false
    /// The lines the reader skipped, as of the last batch taken.
    private(set) var skippedLines = 0
    /// The reader's absent-key defaults, as of the last batch taken.
    private(set) var absentDefaults: [AbsentDefault] = []

    private enum Ending {
        case end
        case failure(RecordSourceError)
    }

    /// Where batches come from: the reader thread, or the reader itself, read by the consumer.
    private enum BatchSource {
        case thread(BatchChannel)
        case inLine(any BatchProducer, BatchLimits)
    }

    /// Starts reading `reader` on its own thread, or, when none can be made, leaves it to be read
    /// a batch at a time as the consumer needs one.
    init<Reader: RecordReader & ~Copyable>(_ reader: consuming Reader, batchSize: Int = 512, batchBytes: Int = 4 << 20, depth: Int = 4) {
        let producer: any BatchProducer = ReaderOnThread(reader)
        let limits = BatchLimits(results: max(1, batchSize), bytes: max(1, batchBytes))
        let channel = BatchChannel(capacity: depth)
        source = WorkerThread.start({ producer.run(into: channel, limits: limits) }) ? .thread(channel) : .inLine(producer, limits)
    }

    deinit {
        if case .thread(let channel) = source { channel.stop() }
    }

    /// The next result in the reader's order; nil at the end of the source.
    mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        guard try advance() else { return nil }
        return pending[position - 1]
    }

    /// Hands the next result to `body`, borrowed, not copied (a copy retains each of a record's
    /// arrays and strings, and the consumer later releases them). False at the end of the source.
    ///
    /// The result is moved out of the batch for the call and back (bits, no reference counting):
    /// handed over from the batch itself, it would still be copied, as the optimizer cannot tell
    /// that `body` leaves the batch alone. `body` does not throw, so the result always goes back.
    mutating func withNext(_ body: (borrowing RecordReadResult) -> Void) throws(RecordSourceError) -> Bool {
        guard try advance() else { return false }
        let index = position - 1
        pending.withUnsafeMutableBufferPointer { results in
            let slot = results.baseAddress! + index
            let result = slot.move()
            body(result)
            slot.initialize(to: consume result)
        }
        return true
    }

    /// Moves to the next result, taking the next batch once the current one is gone through;
    /// false at the end of the source.
    private mutating func advance() throws(RecordSourceError) -> Bool {
        while position == pending.count {
            switch ending {
            case .end: return false
            case .failure(let error): throw error
            case nil: break
            }
            var spent: [RecordReadResult] = []
            swap(&spent, &pending)
            let taken: ReadBatch
            switch source {
            case .thread(let channel):
                // Never nil: the hand-off is not closed, the last batch says it is the last.
                taken = channel.take()!
                // The batch taken out leaves room for the next one; the spent one goes back.
                channel.release(returning: spent.capacity > 0 ? consume spent : nil)
            case .inLine(let producer, let limits):
                taken = producer.batch(reusing: consume spent, limits: limits)
            }
            pending = taken.results
            position = 0
            unknownKeys = taken.unknownKeys
            matchesAnyKey = taken.matchesAnyKey
            skippedLines = taken.skippedLines
            absentDefaults = taken.absentDefaults
            switch taken.ending {
            case nil: break
            case .some(nil): ending = .end
            case .some(.some(let error)): ending = .failure(error)
            }
        }
        position += 1
        return true
    }
}

/// Batches handed from the reader thread to the consumer, at most `depth` waiting; the batches
/// the consumer went through go back to the reader thread to be freed and reused.
private typealias BatchChannel = BoundedHandOff<ReadBatch, [RecordReadResult]>

/// Results, and when it is the last batch, the error that ended it (nil: the end of the source).
private struct ReadBatch: Sendable {
    var results: [RecordReadResult]
    var ending: RecordSourceError??
    /// The reader's unknown keys after the batch's last result.
    var unknownKeys: [String]
    var matchesAnyKey: Bool
    var skippedLines: Int
    var absentDefaults: [AbsentDefault]
}

/// When the read-ahead thread ends a batch: at this many results, or once its records' values
/// reach this many bytes (as a store row counts them, `StoreRowSize`).
private struct BatchLimits: Sendable {
    let results: Int
    let bytes: Int
}

/// What the read-ahead thread runs (not generic, so the thread's closure holds no reader type),
/// or, without that thread, the consumer.
private protocol BatchProducer: AnyObject, Sendable {
    func run(into channel: BatchChannel, limits: BatchLimits)
    func batch(reusing spent: consuming [RecordReadResult], limits: BatchLimits) -> ReadBatch
}

/// Moves a reader to the read-ahead thread. `@unchecked Sendable`: after `init` only that
/// thread touches the reader (in `run`), or, when it could not be started, only the consumer (in
/// `batch`), and nothing else keeps a reference to it; for the same reason its accesses need no
/// run-time exclusivity check (one per record otherwise).
private final class ReaderOnThread<Reader: RecordReader & ~Copyable>: BatchProducer, @unchecked Sendable {
    @exclusivity(unchecked) private var reader: Reader

    init(_ reader: consuming Reader) {
        self.reader = reader
    }

    /// Reads batches until the end of the source, an error, or the consumer is gone.
    func run(into channel: BatchChannel, limits: BatchLimits) {
        while case .free(let spent) = channel.waitForRoom() {
            let batch = batch(reusing: spent ?? [], limits: limits)
            let isLast = batch.ending != nil
            channel.put(batch)
            if isLast { return }
        }
    }

    /// Reads the next batch into `spent`'s storage, after offering its results to the reader for
    /// reuse and freeing the rest.
    func batch(reusing spent: consuming [RecordReadResult], limits: BatchLimits) -> ReadBatch {
        var results = spent
        reader.reuse(&results)
        results.removeAll(keepingCapacity: true)
        results.reserveCapacity(limits.results)
        var ending: RecordSourceError?? = nil
        var bytes = 0
        do {
            while results.count < limits.results, bytes < limits.bytes {
                guard let result = try reader.next() else {
                    ending = .some(nil)
                    break
                }
                if case .record(let record, _) = result { bytes += StoreRowSize.bytes(of: record.values) }
                results.append(result)
            }
        } catch {
            ending = .some(error)
        }
        return ReadBatch(results: results, ending: ending, unknownKeys: reader.unknownKeys,
                                  matchesAnyKey: reader.matchesAnyKey, skippedLines: reader.skippedLines,
                                  absentDefaults: reader.absentDefaults)
    }
}
