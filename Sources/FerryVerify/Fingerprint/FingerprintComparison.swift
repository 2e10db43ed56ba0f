/// Compares fingerprints computed elsewhere (the sources, after mapping to the destination
/// model) with a store's, as a report section: every expected fingerprint must be found with the
/// same attributes, count and digest.
public enum FingerprintComparison {
    public static func section(named name: String = "fingerprints", expected: [FingerprintEntry],
                               actual: [FingerprintEntry]) -> VerificationSection {
        var section = VerificationSection(name: name)
        for entry in expected {
            section.checks += 1
            guard let found = actual.first(where: { $0.subject == entry.subject && $0.attributes == entry.attributes }) else {
                section.failures.append(VerificationFailure(
                    check: "fingerprint-missing", subject: entry.subject,
                    message: "no fingerprint over \(entry.attributes.joined(separator: ", ")) to compare with"))
                continue
            }
            if found.fingerprint.count != entry.fingerprint.count {
                section.failures.append(VerificationFailure(
                    check: "fingerprint-count", subject: entry.subject,
                    message: "expected \(entry.fingerprint.count) records, found \(found.fingerprint.count)",
                    count: abs(found.fingerprint.count - entry.fingerprint.count)))
            } else if found.fingerprint != entry.fingerprint {
                section.failures.append(VerificationFailure(
                    check: "fingerprint-mismatch", subject: entry.subject,
                    message: "the values differ: expected \(entry.fingerprint.hex), found \(found.fingerprint.hex)"))
            }
        }
        return section
    }
}
