import FerryFormats
import FoundationEssentials

/// Reads the rows of a Core Data entity table in `Z_PK` order on two worker threads, each with a
/// connection of its own, and hands them to the cursor's thread in that order (`StoredRecordCursor`).
///
/// Stepping SQLite through a table's pages and fetching its values is most of what reading a
/// store costs, and one connection does it on one core. Here the keys are cut into ranges of
/// `rangeWidth`; worker *k* reads ranges *k*, *k* + 2, … through `RecordPlan.splitSQL` (a seek,
/// then the rows in key order), copying each row out of SQLite's buffers (`CopiedRows`), and the
/// cursor's thread merges the two streams by key, decoding values as it decodes a statement's.
/// A worker that meets a row of the other's range seeks to its own next range from there, so
/// sparse keys cost a seek per stretch, never one per empty range.
///
/// Both connections must read exactly what the cursor's connection reads: they are opened as
/// `SQLiteDatabase.sameBytesNow` says, and begin their read transactions before the first row
/// is handed out. Memory is bounded: each worker holds at most `depth` batches of at most
/// `batchRows` rows and `batchBytes` bytes of text and blobs (one row more when it is larger).
///
/// A worker's SQLite error ends the stream after the rows with lower keys than the one it stopped
/// at. The scan is made only where it cannot change what is read; where it cannot start (no
/// connection or thread to be had) the cursor reads with one statement, as it always could.
final class SplitRecordScan {
    /// Keys per range: a seek every this many keys, and the unit the two workers alternate in.
    static let rangeWidth: UInt64 = 1_024
    /// Tables whose keys span fewer than this are read with one statement.
    static let minimumSpan: Int64 = 16_384
    /// Whether the process has more than two cores to run on. Every verb already keeps two busy
    /// (its own thread, and the writer, census or checks beside it): on two cores the workers
    /// only add the copying of every row. Measured there (1M small records, release build): a
    /// bare read 1.45× faster, but an export 12 % slower, a migrate 4 % slower, a verify no
    /// faster, each with 4–5 MB more peak memory. So the cursor splits only with cores to spare.
    static let hasSpareCores = ProcessInfo.processInfo.activeProcessorCount > 2
    private static let workers = 2
    private static let batchRows = 1_024
    private static let batchBytes = 1 << 20
    private static let depth = 4

    private let streams: [RowStream]
    /// Per stream: the batch being read and the position of its next row.
    private var heads: [Head]
    /// The stream whose row `next()` handed out last.
    private var lastStream: Int?
    private var stopped = false

    private struct Head {
        var rows: CopiedRows?
        var position = 0
        var end: RowStream.End?
    }

    private init(streams: [RowStream]) {
        self.streams = streams
        heads = Array(repeating: Head(), count: streams.count)
    }

    deinit {
        stop()
    }

    /// Starts the workers for `plan`'s rows, or returns nil (read with one statement) when the
    /// plan has no split query, the table's keys span less than `minimumSpan` (tests pass 0),
    /// another connection might read other bytes, or a connection or a thread cannot be had.
    static func start(_ plan: RecordPlan, database: SQLiteDatabase, minimumSpan: Int64 = minimumSpan) -> SplitRecordScan? {
        guard let sql = plan.splitSQL, let opening = database.sameBytesNow,
              let bounds = try? keyBounds(of: plan.table, in: database),
              UInt64(bitPattern: bounds.upper &- bounds.lower) >= UInt64(max(0, minimumSpan)) else { return nil }
        var readers: [RangeReader] = []
        for worker in 0..<workers {
            guard let reader = try? RangeReader(opening: opening, sql: sql, lower: bounds.lower, upper: bounds.upper,
                                                worker: worker, of: workers) else { return nil }
            readers.append(reader)
        }
        let columns = readers[0].columns
        let streams = (0..<workers).map { _ in
            RowStream(depth: depth) { CopiedRows(columns: columns, rowCapacity: batchRows, byteLimit: batchBytes) }
        }
        let scan = SplitRecordScan(streams: streams)
        for (index, reader) in readers.enumerated() {
            let stream = streams[index]
            guard WorkerThread.start({ reader.run(into: stream) }) else {
                // This stream and the later ones have no worker to wait for; the scan, dropped,
                // stops the workers already started and waits for them.
                for unstarted in streams[index...] { unstarted.finished() }
                return nil
            }
        }
        return scan
    }

    /// The next row in key order: the batch holding it and its position there, valid until the
    /// next call. Nil after the last row; a worker's error once the rows before it are handed out.
    func next() throws(SQLiteError) -> (rows: CopiedRows, row: Int)? {
        if let last = lastStream { heads[last].position += 1 }
        var chosen: (stream: Int, key: Int64)?
        for stream in streams.indices {
            guard let key = headKey(of: stream) else { continue }
            if chosen.map({ key < $0.key }) ?? true { chosen = (stream, key) }
        }
        guard let chosen else {
            lastStream = nil
            stop()
            return nil
        }
        let head = heads[chosen.stream]
        guard let rows = head.rows, head.position < rows.count else {
            lastStream = nil
            stop()
            if case .failed(let error, _) = head.end { throw error }
            return nil
        }
        lastStream = chosen.stream
        return (rows, head.position)
    }

    /// The key of the stream's next row, taking its next batch when the current one is read
    /// (waiting for the worker); for a stream that failed, the key from which its rows are
    /// missing; nil when the stream has ended.
    private func headKey(of stream: Int) -> Int64? {
        while true {
            let head = heads[stream]
            if let rows = head.rows, head.position < rows.count { return rows.int64(row: head.position, column: 0) }
            switch head.end {
            case .finished: return nil
            case .failed(_, let from): return from
            case nil: break
            }
            if let rows = head.rows { streams[stream].giveBack(rows) }
            heads[stream].rows = nil
            heads[stream].position = 0
            switch streams[stream].take() {
            case .rows(let rows): heads[stream].rows = rows
            case .end(let end): heads[stream].end = end
            }
        }
    }

    /// Tells the workers to stop and waits until they have closed their connections.
    func stop() {
        guard !stopped else { return }
        stopped = true
        for stream in streams { stream.stop() }
        for stream in streams { stream.waitForWorker() }
    }

    /// The lowest and highest `Z_PK` of the table, each from one end of its b-tree.
    private static func keyBounds(of table: String, in database: SQLiteDatabase) throws(SQLiteError) -> (lower: Int64, upper: Int64)? {
        let quoted = SQLIdentifier.quoted(table)
        guard let lower = try database.scalarInteger("SELECT min(Z_PK) FROM \(quoted)"),
              let upper = try database.scalarInteger("SELECT max(Z_PK) FROM \(quoted)") else { return nil }
        return (lower, upper)
    }
}

/// One worker of a `SplitRecordScan`: its connection, its query, and which ranges are its.
private final class RangeReader: @unchecked Sendable {
    private let database: SQLiteDatabase
    private let statement: SQLiteStatement
    private let lower: Int64
    /// The last range that holds a key (`upper`'s).
    private let lastRange: UInt64
    private let worker: UInt64
    private let workers: UInt64
    /// The columns of each row.
    var columns: Int { Int(statement.columnCount) }

    /// Opens the connection and begins its read transaction (its first read takes SQLite's lock
    /// or snapshot here, before any row is handed out).
    init(opening: SQLiteDatabase.Reopening, sql: String, lower: Int64, upper: Int64, worker: Int, of workers: Int) throws(SQLiteError) {
        database = try SQLiteDatabase(reopening: opening)
        try database.execute("BEGIN")
        statement = try database.prepare(sql)
        try database.execute("SELECT count(*) FROM sqlite_master")
        self.lower = lower
        lastRange = UInt64(bitPattern: upper &- lower) / SplitRecordScan.rangeWidth
        self.worker = UInt64(worker)
        self.workers = UInt64(workers)
    }

    /// Reads this worker's ranges into `stream`, then ends it and closes the connection.
    func run(into stream: RowStream) {
        defer {
            statement.finalize()
            try? database.close()
            stream.finished()
        }
        guard var rows = stream.emptyBatch() else { return }
        // Every row of this worker below this key is in a batch: where its rows go missing if
        // SQLite fails (a seek puts it at its range's start, a row just past it).
        var complete = lower
        do {
            var range = worker
            complete = try seek(to: range)
            while try statement.step() {
                let key = statement.int64(at: 0)
                let keyRange = UInt64(bitPattern: key &- lower) / SplitRecordScan.rangeWidth
                if keyRange % workers != worker {
                    // Another worker's row: on to this one's first range after it.
                    range = keyRange + (worker + workers - keyRange % workers) % workers
                    guard range <= lastRange else { break }
                    complete = try seek(to: range)
                    continue
                }
                rows.append(statement)
                complete = key == .max ? key : key + 1
                if rows.isFull {
                    stream.put(rows)
                    guard let next = stream.emptyBatch() else { return }
                    rows = next
                }
            }
            if rows.count > 0 { stream.put(rows) }
            stream.end(.finished)
        } catch {
            // The rows read before the error are handed out first, as one statement would.
            if rows.count > 0 { stream.put(rows) }
            stream.end(.failed(error, from: complete))
        }
    }

    /// Reads from the start of `range` on; returns that key.
    private func seek(to range: UInt64) throws(SQLiteError) -> Int64 {
        let start = lower &+ Int64(bitPattern: range &* SplitRecordScan.rangeWidth)
        try statement.reset()
        try statement.bind(start, at: 1)
        return start
    }
}
