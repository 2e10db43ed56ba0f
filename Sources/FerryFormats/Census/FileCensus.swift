import Synchronization

/// Where a `CensusTap` leaves its count once its reader reached the end of the file, for the
/// pipeline to compare with what the reader delivered (possibly on another thread).
public final class FileCensus: Sendable {
    private let outcome = Mutex<CensusOutcome?>(nil)

    public init() {}

    /// The census of the whole file; nil while its reader has not read to the end.
    public var result: CensusOutcome? { outcome.withLock { $0 } }

    func publish(_ result: CensusOutcome) {
        outcome.withLock { $0 = result }
    }

    /// The problems of a reader that handed out `read` records and rejects and passed over
    /// `skipped` lines, against this census: empty when they agree. Not counted (the reader
    /// stopped before the end of the file) is a problem too.
    public func disagreements(read: Int, skipped: Int) -> [String] {
        switch result {
        case nil:
            return ["its reader ended before the end of the file (\(read) records read): the rest was not read"]
        case .malformed(let reason)?:
            return ["its reader read \(read) records, but a second scan of the file cannot count them: \(reason)"]
        case let .counted(records, skippedLines)?:
            var problems: [String] = []
            if records != read {
                problems.append("a second scan of the file counts \(records) records; its reader handed out \(read) (records and rejects)")
            }
            if skippedLines != skipped {
                problems.append("a second scan of the file counts \(skippedLines) lines without a record; its reader passed over \(skipped)")
            }
            return problems
        }
    }
}
