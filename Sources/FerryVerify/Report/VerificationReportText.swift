import FerryFormats
import FerryStore

/// The readable form of a report: the verdict, a table per entity and per relationship, each
/// failure with its sample rows, and the fingerprints.
public enum VerificationReportText {
    public static func render(_ report: VerificationReport) -> String {
        var lines = [
            "store: \(report.store)",
            "model: \(report.model)",
        ] + report.notes + [
            verdict(report),
            "",
        ]
        if !report.entities.isEmpty {
            lines += table(["entity", "rows", "checks", "failures"], rightAligned: [1, 2, 3],
                           report.entities.map { [$0.entity, "\($0.rows)", "\($0.checks)", "\($0.failures)"] })
            lines.append("")
        }
        if !report.relationships.isEmpty {
            lines += table(["relationship", "storage", "edges", "dangling", "duplicates", "checks", "failures"], rightAligned: [2, 3, 4, 5, 6],
                           report.relationships.map {
                               [$0.relationship, $0.storage, "\($0.edges)", "\($0.dangling)", "\($0.duplicates)", "\($0.checks)", "\($0.failures)"]
                           })
            lines.append("")
        }
        lines += table(["section", "checks", "failures"], rightAligned: [1, 2],
                       report.sections.map { [$0.name, "\($0.checks)", "\($0.failures.count)"] })
        for section in report.sections where !section.failures.isEmpty {
            lines.append("")
            lines.append("\(section.name) failures:")
            for failure in section.failures {
                lines.append("  \(failure.check) \(failure.subject): \(failure.message)")
                for sample in failure.samples { lines.append("      " + describe(sample)) }
                if failure.count > Int64(failure.samples.count), !failure.samples.isEmpty {
                    lines.append("      … \(failure.count - Int64(failure.samples.count)) more")
                }
            }
        }
        let fingerprints = report.fingerprints + report.edgeFingerprints
        if !fingerprints.isEmpty {
            lines.append("")
            // The attributes last: an entity of many attributes (Apple Notes' ICCloudSyncingObject
            // has over a hundred) would otherwise pad every row to its width.
            lines += table(["fingerprint of", "count", "digest", "over"], rightAligned: [1],
                           fingerprints.map { [$0.subject, "\($0.fingerprint.count)", $0.fingerprint.hex, $0.attributes.joined(separator: ", ")] })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One failure on one line, its sample rows in brackets: for the verbs that name a store's
    /// failures among their warnings.
    public static func line(_ failure: VerificationFailure) -> String {
        let text = "\(failure.check) \(failure.subject): \(failure.message)"
        guard !failure.samples.isEmpty else { return text }
        let more = failure.count - Int64(failure.samples.count)
        return text + " (" + failure.samples.map(describe).joined(separator: "; ") + (more > 0 ? "; … \(more) more" : "") + ")"
    }

    private static func verdict(_ report: VerificationReport) -> String {
        let checks = report.sections.reduce(0) { $0 + $1.checks }
        let failures = report.failures.count
        return report.passed ? "verified: all \(checks) checks hold" : "FAILED: \(failures) of \(checks) checks do not hold"
    }

    private static func describe(_ sample: FailureSample) -> String {
        let values = sample.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        guard let key = sample.primaryKey else { return values }
        return values.isEmpty ? "Z_PK \(key)" : "Z_PK \(key): \(values)"
    }

    private static func table(_ header: [String], rightAligned: Set<Int>, _ rows: [[String]]) -> [String] {
        TextTable.lines([header] + rows, rightAligned: rightAligned)
    }
}
