import FerryMigration
import FerryVerify

/// What a migration did: per source entity, every record read is written, merged, rejected or
/// filtered out by the mapping, and every line read that holds no record is skipped; per
/// destination entity, the rows written.
public struct MigrationSummary: Sendable, Codable, Equatable {
    public typealias SourceLedger = FerryMigration.SourceLedger

    /// The model versions the records went through, oldest first: the way of each version whose
    /// records take their own (`MigrationChain.chains`); a source of a version on another's way
    /// enters it there.
    public var chains: [[String]]
    public var outputPath: String
    /// The new store's UUID and why it has it.
    public var identity: StoreIdentity?
    public var ledgers: [SourceLedger] = []
    /// The delimiter each CSV source was read with, and what chose it.
    public var delimiters: [String: CSVDelimiterChoice] = [:]
    /// Destination entity → records written into it.
    public var written: [String: Int] = [:]
    public var links: [LinkReport] = []
    /// Derived attributes of the records written that Ferry does not compute (not `count:` of a
    /// to-many): their values are what the records gave (`Book.loudTitle (uppercase:(title))`).
    public var uncomputedDerivations: [String] = []
    public var sampleRejects: [Reject] = []
    /// The attributes of file records that had no key for them and took the model's default
    /// (values no record gave), with how many records did.
    public var absentDefaults: [AbsentDefault] = []
    /// Rename candidates and other hints from mapping inference.
    public var suggestions: [String] = []
    /// What the run knowingly left out of its sources (Core Data's own records of a store).
    public var warnings: [String] = []
    /// What the mappings' notes counted (`note "TEXT" if CONDITION`): records written as the
    /// rules say, that the mapping reports.
    public var notes: [String] = []
    /// The failures of `ferry verify`'s relationship checks on each source store that fails them
    /// (one line each, by store): their pairs are in the new store as its records say, not as
    /// the store held them. Empty with `--no-verify`, which skips the checks.
    public var sourceRelationshipFailures: [String: [String]] = [:]
    /// Why those checks could not run on a source store, by store (too many open files): no
    /// verdict on its relationships, which the run says (exit 1).
    public var sourceRelationshipsNotChecked: [String: String] = [:]
    /// Objects of the store whose UUID is kept that got a new `Z_PK`, per entity: an object of
    /// another entity now in the same table (the hierarchy changed) kept that key.
    public var renumbered: [String: Int] = [:]
    public var stoppedEarly = false
    public var dryRun = false
    /// The check of the written store (nil when skipped or nothing was written).
    public var verification: VerificationReport?
    /// Why the built store was not renamed into place (nil when it was, or on a dry run): the
    /// destination is then as it was before the run.
    public var discarded: String?
    /// Why no receipt was written into a verified store (nil when one was, or the store was not
    /// verified): `verify --against` then migrates the sources again.
    public var receiptMissing: String?

    public var rejected: Int { ledgers.reduce(0) { $0 + $1.rejected } }
    /// Links that found nothing (each in the reject log beside the rejected records): the
    /// relationship is missing from the record that gave it.
    public var unresolvedLinks: Int { LinkReport.unresolved(in: links) }
    /// Whether the run left something of its sources out of the store: a record rejected, or a
    /// link not kept (unresolved, or its destination claimed last by another record; exit 1).
    public var leftSomethingOut: Bool {
        rejected > 0 || LinkReport.notKept(in: links) > 0 || !sourceRelationshipFailures.isEmpty || !sourceRelationshipsNotChecked.isEmpty
    }
    public var isBalanced: Bool { ledgers.allSatisfy(\.isBalanced) }
}
