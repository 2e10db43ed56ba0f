/// Where a job's rejects go, the same for every job: all of them to the reject log (when one is
/// asked for), the first ones kept for the terminal, and a count against the `--max-errors` limit
/// that stops a run going wrong. Links that found nothing go to the log too, without counting:
/// their records were written, unless a required link's record was removed for it (`countRemoved`).
public struct RejectCollector {
    /// How many rejects the summary keeps to show.
    public static let sampleSize = 20

    private var log: RejectLog?
    private let limit: Int?
    public private(set) var count = 0
    public private(set) var samples: [Reject] = []
    /// The first failure to log an unresolved link, thrown by `close()`.
    private var unresolvedFailure: RejectLog.Failure?

    /// A collector that stops the run at `limit` rejects (never when nil).
    public init(limit: Int?) {
        self.limit = limit
    }

    /// A collector that also opens the reject log, when a path is given.
    public init(logPath: String?, limit: Int?) throws(RejectLog.Failure) {
        self.init(limit: limit)
        try openLog(at: logPath)
    }

    /// Opens the reject log at `path` (none when nil).
    public mutating func openLog(at path: String?) throws(RejectLog.Failure) {
        log = try path.map { path throws(RejectLog.Failure) in try RejectLog(path: path) }
    }

    /// Takes one reject; returns whether the limit is reached and the run must stop.
    public mutating func add(_ reject: Reject) throws(RejectLog.Failure) -> Bool {
        count += 1
        if samples.count < Self.sampleSize { samples.append(reject) }
        try log?.append(reject)
        return limit.map { count >= $0 } ?? false
    }

    /// Counts records rejected when their links were resolved (each logged already as the link
    /// that found nothing); returns whether the limit is reached and the run must stop.
    public mutating func countRemoved(_ records: Int) -> Bool {
        count += records
        return limit.map { count >= $0 } ?? false
    }

    /// Logs a link that found nothing (`StoreGraphWriter.resolveLinks`); a failure to write it
    /// is kept for `close()`.
    public mutating func logUnresolved(_ link: Reject) {
        guard unresolvedFailure == nil else { return }
        do { try log?.append(link) } catch { unresolvedFailure = error }
    }

    /// Logs a record removed when the links were resolved with a row another record's link made
    /// fail (`StoreGraphWriter.resolveLinks`), and keeps it among the samples; counted with the
    /// others by `countRemoved`. A failure to write it is kept for `close()`.
    public mutating func logRemoved(_ record: Reject) {
        if samples.count < Self.sampleSize { samples.append(record) }
        logUnresolved(record)
    }

    /// Flushes and closes the reject log.
    public func close() throws(RejectLog.Failure) {
        if let unresolvedFailure { throw unresolvedFailure }
        try log?.close()
    }
}
