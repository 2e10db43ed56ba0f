import FerryMigration

/// The sample rejects of an import or migration, on the run's log, with where the rest are
/// (`rejectLog`, the run's `--rejects` file) and whether `--max-errors` stopped the run.
enum RejectSamplesText {
    static func report(_ samples: [Reject], rejected: Int, stoppedEarly: Bool, rejectLog: String?, log: RunLog) {
        for reject in samples { log.reject(reject) }
        if rejected > samples.count {
            log.warning("… \(rejected - samples.count) more rejects" + (rejectLog.map { " in \($0)" } ?? " (use --rejects FILE to keep them all)"))
        }
        if stoppedEarly { log.warning("stopped after \(rejected) rejects (--max-errors); nothing was written") }
    }
}
