import FerryMigration

/// The sample rejects of an import or migration, on the run's log, with where the rest are
/// (`rejectLog`, the run's `--rejects` file, when the verb has the option) and whether
/// `--max-errors` stopped the run. Records rejected at link resolution are shown with their
/// relationship's links (`LinkReportText`).
enum RejectSamplesText {
    static func report(_ samples: [Reject], rejected: Int, links: [LinkReport], stoppedEarly: Bool, rejectLog: String?,
                       hasRejectsOption: Bool = true, log: RunLog) {
        for reject in samples { log.reject(reject) }
        let unshown = rejected - links.reduce(0) { $0 + $1.rejectedRecords } - samples.count
        if unshown > 0 {
            let whereKept = rejectLog.map { " in \($0)" } ?? (hasRejectsOption ? " (use --rejects FILE to keep them all)" : "")
            log.warning("… \(unshown) more rejects" + whereKept)
        }
        if stoppedEarly { log.warning("stopped after \(rejected) reject\(rejected == 1 ? "" : "s") (--max-errors); nothing was written") }
    }
}
