import Ferry
import FerryFormats
import FerryVerify
import FoundationEssentials

/// Prints a migration summary: the ledger per source and entity, the delimiter of each CSV
/// source, the rows per destination entity, link resolution, rejects and hints; `rejectLog` is
/// the run's `--rejects` file, where every reject and unresolved link is; `destination` names
/// where the store went when that is not its path. Hints, sample rejects and unresolved links go
/// to the run's log.
enum MigrationReportText {
    static func print(_ summary: MigrationSummary, json: Bool, rejectLog: String?, destination: String? = nil, log: RunLog) {
        if !json || log.writesJSON {
            for absent in summary.absentDefaults { log.warning("note: \(absent)") }
            DerivedAttributeText.warn(summary.uncomputedDerivations, log: log)
            for warning in summary.warnings { log.warning("warning: \(warning)") }
            for note in summary.notes { log.warning("note: \(note)") }
            for (store, failures) in summary.sourceRelationshipFailures.sorted(by: { $0.key < $1.key }) {
                RelationshipFailureText.warn(failures, of: store, outcome: "migrated as its records say", log: log)
            }
            for (store, reason) in summary.sourceRelationshipsNotChecked.sorted(by: { $0.key < $1.key }) {
                RelationshipFailureText.warnUnchecked(reason, of: store, state: "migrated",
                                                      remedy: "run ferry verify on it when it is idle", log: log)
            }
            for hint in summary.suggestions { log.warning("hint: \(hint)") }
            RejectSamplesText.report(summary.sampleRejects, rejected: summary.rejected, links: summary.links,
                                     stoppedEarly: summary.stoppedEarly, rejectLog: rejectLog, log: log)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(summary) { Terminal.out(String(decoding: data, as: UTF8.self) + "\n") }
            return
        }
        var out = "\(ChainText.label(summary.chains)): \(ChainText.ways(summary.chains))\n"
        // Skipped lines, and values a lenient mapping set to nil, get a column only when some source has them.
        let showSkipped = summary.ledgers.contains { $0.skipped > 0 }
        let showConverted = summary.ledgers.contains { $0.converted > 0 }
        var rows = [["source", "entity", "as", "read", "written", "merged", "rejected", "filtered"] + (showSkipped ? ["skipped"] : [])
                    + (showConverted ? ["values set to nil"] : [])]
        for ledger in summary.ledgers {
            rows.append([FileByteSource.name(of: ledger.source), ledger.entity, ledger.version, String(ledger.read), String(ledger.written),
                         String(ledger.merged), String(ledger.rejected), String(ledger.filtered)]
                        + (showSkipped ? [String(ledger.skipped)] : []) + (showConverted ? [String(ledger.converted)] : []))
        }
        out += TextTable.render(rows)
        for (source, delimiter) in summary.delimiters.sorted(by: { $0.key < $1.key }) { out += "\(FileByteSource.name(of: source)): \(delimiter)\n" }
        let written = summary.written.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        out += "written: " + (summary.written.values.allSatisfy { $0 == 0 } ? "no records" : written.joined(separator: ", "))
        if summary.dryRun {
            out += " (dry run: nothing kept)\n"
        } else if let reason = summary.discarded {
            out += " (\(DiscardedStoreText.text(reason: reason, path: destination ?? summary.outputPath)))\n"
        } else {
            out += " → \(destination ?? summary.outputPath)\n"
        }
        if let identity = summary.identity, identity.keptFrom != nil, !summary.dryRun, summary.discarded == nil {
            out += "store UUID \(identity.uuid): \(identity.reason)\n"
        }
        for link in summary.links { out += LinkReportText.line(link, rejectLog: rejectLog, log: log) }
        if let verification = summary.verification {
            let checks = verification.sections.reduce(0) { $0 + $1.checks }
            if verification.passed {
                out += "verified: \(checks) checks hold\n"
                // What the checks could not cover (a comparison that does not apply) is said here too, not in --json alone.
                for note in verification.notes { out += "  note: \(note)\n" }
                if let reason = summary.receiptMissing { out += "no receipt in the store: \(reason)\n" }
            } else {
                out += "VERIFICATION FAILED: \(verification.failures.count) of \(checks) checks\n"
                if let hint = leftOutHint(verification, summary) { out += hint }
                log.error(VerificationReportText.render(verification))
            }
        }
        Terminal.out(out)
    }

    /// Required relationships left empty in a run that left records out on purpose: their
    /// destinations were most likely among those left out, and the run cannot say which objects
    /// to leave out with them.
    private static func leftOutHint(_ verification: VerificationReport, _ summary: MigrationSummary) -> String? {
        let leftOut = summary.ledgers.reduce(0) { $0 + $1.filtered }
        let empty = Set(verification.failures.filter { $0.check == "required-relationship" }.map(\.subject)).sorted()
        guard leftOut > 0, !empty.isEmpty else { return nil }
        return "  hint: \(empty.joined(separator: ", ")) \(empty.count == 1 ? "is" : "are") required, and \(leftOut) record\(leftOut == 1 ? " was" : "s were") left out on "
            + "purpose (a where filter, or their entity dropped): objects whose destination was left out cannot be kept. Leave them "
            + "out too (a where on their entity), or make the relationship optional in the newest version\n"
    }
}
