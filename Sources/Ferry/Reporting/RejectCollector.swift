import FerryMigration

/// Where a job's rejects go, the same for every job: all of them to the reject log (when one is
/// asked for), the first ones kept for the terminal, and a count against the `--max-errors` limit
/// that stops a run going wrong.
struct RejectCollector {
    /// How many rejects the summary keeps to show.
    static let sampleSize = 20

    private var log: RejectLog?
    private let limit: Int?
    private(set) var count = 0
    private(set) var samples: [Reject] = []

    /// A collector that stops the run at `limit` rejects (never when nil).
    init(limit: Int?) {
        self.limit = limit
    }

    /// A collector that also opens the reject log, when a path is given.
    init(logPath: String?, limit: Int?) throws(RejectLog.Failure) {
        self.init(limit: limit)
        try openLog(at: logPath)
    }

    /// Opens the reject log at `path` (none when nil).
    mutating func openLog(at path: String?) throws(RejectLog.Failure) {
        log = try path.map { path throws(RejectLog.Failure) in try RejectLog(path: path) }
    }

    /// Takes one reject; returns whether the limit is reached and the run must stop.
    mutating func add(_ reject: Reject) throws(RejectLog.Failure) -> Bool {
        count += 1
        if samples.count < Self.sampleSize { samples.append(reject) }
        try log?.append(reject)
        return limit.map { count >= $0 } ?? false
    }

    /// Flushes and closes the reject log.
    func close() throws(RejectLog.Failure) {
        try log?.close()
    }
}
