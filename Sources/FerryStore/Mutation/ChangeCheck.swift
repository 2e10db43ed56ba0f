/// An independent check of what a delete or an update does to a store, run by
/// `MutableStore.transaction` on the store's own connection inside the change's transaction, once
/// the change is made and before the commit (and on the store as it was, from a savepoint, when
/// that finds failures). A change that adds a failure is rolled back
/// (`StoreMutationError.changeBreaksStore`), so a store that was sound stays sound and one that
/// had failures gains none.
///
/// `findings` asks plain SQL (`ScanConnection`) and shares no code with the mutation it checks:
/// FerryVerify's value and relationship checks (`StoreChangeChecks`). It catches what the
/// mutation's own reasoning cannot see: a rule it gets wrong, or the store's own triggers (Core
/// Data's derived-attribute and history triggers run on every write, and so would any other).
public struct ChangeCheck: Sendable {
    /// Failures found over a connection, by check and subject, with how many rows each covers.
    public let findings: @Sendable (ScanConnection) -> [ChangeFinding: Int64]

    public init(findings: @escaping @Sendable (ScanConnection) -> [ChangeFinding: Int64]) {
        self.findings = findings
    }

    /// The check that finds keys pointing at no object: what a delete's No Action rule leaves
    /// on the objects that stay (`DeletePlan.dangling`), expected of it.
    public static let danglingForeignKey = "dangling-foreign-key"

    /// The findings after a change that are new or cover more rows than before it, beyond what
    /// the change was expected to add.
    static func added(before: [ChangeFinding: Int64], after: [ChangeFinding: Int64],
                      expected: [ChangeFinding: Int64] = [:]) -> [String] {
        after.filter { finding, count in count > before[finding, default: 0] + expected[finding, default: 0] }
            .sorted { ($0.key.subject, $0.key.check) < ($1.key.subject, $1.key.check) }
            .map { finding, count in
                let was = before[finding, default: 0]
                return "\(finding.subject): \(finding.check) (\(was == 0 ? "" : "\(was) → ")\(count) row(s)): \(finding.message)"
            }
    }
}

/// One kind of failure a check found: the check and what it is about (an entity, an attribute
/// or a relationship); its message is what the first finding said.
public struct ChangeFinding: Hashable, Sendable {
    public let check: String
    public let subject: String
    public let message: String

    public init(check: String, subject: String, message: String) {
        self.check = check
        self.subject = subject
        self.message = message
    }

    public static func == (lhs: ChangeFinding, rhs: ChangeFinding) -> Bool { lhs.check == rhs.check && lhs.subject == rhs.subject }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(check)
        hasher.combine(subject)
    }
}
