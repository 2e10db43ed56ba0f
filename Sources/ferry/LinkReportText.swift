import FerryMigration

/// How a job's link resolution is shown: one line per relationship on standard output, the
/// links that found nothing on standard error.
enum LinkReportText {
    /// The summary line of one relationship; its unresolved samples go to standard error.
    static func line(_ link: LinkReport) -> String {
        var text = "  \(link.relationship) by \(link.matchedBy): \(link.resolved) of \(link.links) links resolved"
        if link.created > 0 { text += ", \(link.created) destinations created" }
        if link.ambiguous > 0 { text += ", \(link.ambiguous) matched several (lowest Z_PK used)" }
        if link.conflicts > 0 { text += ", \(link.conflicts) claimed by several (last wins)" }
        if link.duplicatePairs > 0 { text += ", \(link.duplicatePairs) given twice (kept once)" }
        for sample in link.unresolvedSamples { Terminal.error("unresolved: \(link.relationship): \(sample)") }
        if link.unresolved > link.unresolvedSamples.count {
            Terminal.error("… \(link.unresolved - link.unresolvedSamples.count) more unresolved links of \(link.relationship)")
        }
        return text + "\n"
    }
}
