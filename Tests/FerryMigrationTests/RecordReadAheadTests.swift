import FerryFormats
@testable import FerryMigration
import FerryModel
import Foundation
import Synchronization
import Testing

/// The read-ahead thread holds a few batches of records at most. A batch ended only at 512
/// results, so a CSV of 150 rows of 3 MB thumbnails was read whole before the first was
/// written (a peak of 511 MB; a thousand rows of 10 MB blobs would not have fit in memory). A
/// batch now also ends once its values reach `batchBytes`.
@Suite("record read-ahead")
struct RecordReadAheadTests {
    @Test("records of large blobs are read a few batches ahead, not a batch of 512")
    func boundedByBytes() throws {
        let counter = Counter()
        var ahead = RecordReadAhead(CountedReader(counter: counter, total: 200), batchSize: 512, batchBytes: 4 << 20, depth: 2)
        let first = try ahead.next()
        #expect(first != nil)
        // Wait for the reader thread to fill the room it has (or, past the bound, to read on).
        var stable = 0, last = -1
        for _ in 0..<200 where stable < 10 {
            Thread.sleep(forTimeInterval: 0.01)
            let now = counter.value
            stable = now == last ? stable + 1 : 0
            last = now
        }
        // Four 1 MB records end a batch: the one taken, two waiting, one being read, and the
        // record that stops the next; 512 records a batch would have read all 200.
        #expect(counter.value <= 5 * 4 + 1, "read \(counter.value) records ahead")
        var read = 1
        while try ahead.next() != nil { read += 1 }
        #expect(read == 200)
    }

    /// The reader ran on a libdispatch queue, which retried forever a thread the system could not
    /// make (`ulimit -v`): an import hung before its first record. Without a thread the consumer
    /// now reads each batch itself when it needs one.
    @Test("when no thread can be made, each batch is read in line as it is needed: the same records in order",
          .timeLimit(.minutes(1)))
    func readsInLineWithoutThread() throws {
        let counter = Counter()
        var lines: [Int] = []
        try WorkerThread.refusingThreads { () throws in
            var ahead = RecordReadAhead(CountedReader(counter: counter, total: 30), batchSize: 512, batchBytes: 4 << 20, depth: 2)
            #expect(counter.value == 0)
            while let result = try ahead.next() {
                guard case .record(let record, _) = result else { continue }
                lines.append(record.location.line ?? 0)
                // Four 1 MB records end a batch, and none is read before it is needed (the
                // reader is asked once more at the end).
                #expect(counter.value == min((lines.count + 3) / 4 * 4, 31))
            }
        }
        #expect(lines == Array(1...30))
    }

    /// The list of batches kept each batch taken (its results emptied, not its unknown keys and
    /// absent defaults, the reader's as of that batch) until the list emptied, which a reader
    /// that keeps ahead of the consumer never lets happen: held memory grew with the source.
    @Test("a batch taken is let go, though the reader keeps ahead of the consumer", .timeLimit(.minutes(1)))
    func takenBatchesAreLetGo() throws {
        let handed = HandedKeys()
        var ahead = RecordReadAhead(KeyedReader(handed: handed, total: 60), batchSize: 1, batchBytes: 1 << 20, depth: 3)
        var mostAlive = 0
        while try ahead.next() != nil {
            // Slower than the reader, so that batches always wait.
            Thread.sleep(forTimeInterval: 0.002)
            mostAlive = max(mostAlive, handed.alive)
        }
        // The three batches waiting, the one being read and the one taken last.
        #expect(mostAlive <= 5)
    }
}

/// The unknown keys a reader handed over, each a list of its own, and how many of those lists
/// are still alive (a list's storage is its one reference).
private final class HandedKeys: Sendable {
    private struct Handed: @unchecked Sendable {
        weak var storage: AnyObject?
    }

    private let handed = Mutex<[Handed]>([])

    func hand(_ keys: [String]) -> [String] {
        handed.withLock { $0.append(Handed(storage: unsafeBitCast(keys, to: AnyObject.self))) }
        return keys
    }

    var alive: Int { handed.withLock { $0.count { $0.storage != nil } } }
}

/// `total` records, with a new list of unknown keys after each.
private struct KeyedReader: RecordReader {
    let handed: HandedKeys
    let total: Int
    private var read = 0
    var sourceName: String { "keyed" }
    var unknownKeys: [String] { handed.hand(["unknown \(read)"]) }
    var absentDefaults: [AbsentDefault] { [] }
    var matchesAnyKey: Bool { true }

    init(handed: HandedKeys, total: Int) {
        self.handed = handed
        self.total = total
    }

    mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        guard read < total else { return nil }
        read += 1
        return .record(Record(values: [.integer(Int64(read))], location: SourceLocation(file: "keyed", line: read)), defaulted: 0)
    }
}

/// How many records a reader was asked for, read from the test's thread.
private final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() -> Int { count.withLock { $0 += 1; return $0 } }
}

/// `total` records of one 1 MB blob each.
private struct CountedReader: RecordReader {
    let counter: Counter
    let total: Int
    var sourceName: String { "blobs" }
    var unknownKeys: [String] { [] }
    var absentDefaults: [AbsentDefault] { [] }
    var matchesAnyKey: Bool { true }

    mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        let count = counter.increment()
        guard count <= total else { return nil }
        return .record(Record(values: [.binary([UInt8](repeating: 7, count: 1 << 20))], location: SourceLocation(file: "blobs", line: count)),
                       defaulted: 0)
    }
}
