import FerryMigration

/// How a job's link resolution is shown: one line per relationship on standard output, the
/// first links that found nothing on standard error (all of them are in the reject log).
enum LinkReportText {
    /// The summary line of one relationship; its unresolved samples go to the run's log, with
    /// where the rest are (`rejectLog`, the run's `--rejects` file). A relationship no link of
    /// the run gave, reported for what became of its records (rejected for it, or pairs kept), is
    /// named with that alone.
    static func line(_ link: LinkReport, rejectLog: String?, log: RunLog) -> String {
        var parts: [String] = []
        if link.droppedWithDestinations > 0 {
            parts.append("\(link.droppedWithDestinations) more to records left out (dropped with them)")
        }
        if link.created > 0 { parts.append("\(link.created) destinations created") }
        if link.ambiguous > 0 { parts.append("\(link.ambiguous) matched several (lowest Z_PK used)") }
        if link.conflicts > 0 { parts.append("\(link.conflicts) claimed by several (last wins)") }
        if link.keptFromStore > 0 {
            let pairs = link.keptFromStore == 1 ? "1 stored pair" : "\(link.keptFromStore) stored pairs"
            parts.append("\(pairs) the merged record left out kept (their '\(link.keptBecause ?? "?")' is required)")
        }
        if link.duplicatePairs > 0 { parts.append("\(link.duplicatePairs) given twice (kept once)") }
        if link.rejectedRecords > 0 { parts.append("\(link.rejectedRecords) records rejected (\(link.rejectedBecause ?? "the relationship is required"))") }
        if link.carriedRecordsRemoved > 0 { parts.append("with \(link.carriedRecordsRemoved) records they carried") }
        let text = link.links == 0 && link.droppedWithDestinations == 0 && !parts.isEmpty
            ? "  \(link.relationship): " + parts.joined(separator: ", ")
            : "  \(link.relationship) by \(link.matchedBy): \(link.resolved) of \(link.links) links resolved" + parts.map { ", " + $0 }.joined()
        // Marked as warnings, as every other line of standard error that is neither a reject nor an error.
        for sample in link.unresolvedSamples { log.warning("warning: \(sample)") }
        if link.unresolved > link.unresolvedSamples.count {
            log.warning("warning: … \(link.unresolved - link.unresolvedSamples.count) more unresolved links of \(link.relationship)"
                + (rejectLog.map { " in \($0)" } ?? " (use --rejects FILE to keep them all)"))
        }
        return text + "\n"
    }
}
