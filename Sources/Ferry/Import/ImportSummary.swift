import FerryMigration
import FerryVerify

/// What an import did, per entity: every record read is written, merged or rejected, and every
/// line read that holds no record is skipped.
public struct ImportSummary: Sendable, Equatable, Codable {
    public var entity: String
    public var modelVersion: String
    public var outputPath: String
    public var read: Int = 0
    public var written: Int = 0
    /// Records merged into another on a uniqueness constraint (kept first or newest).
    public var merged: Int = 0
    public var rejected: Int = 0
    /// Lines that hold no record (empty lines, comments of CSV), counted in `read` too.
    public var skipped: Int = 0
    /// Records that the records written carried (nested objects), per entity: each was
    /// written as a new record or merged into one already there. Carried records of a rejected
    /// record are not counted: nothing of it is written.
    public var carried: [String: CarriedCount] = [:]
    /// What became of the records of each source and entity, the carried ones' included: every
    /// record read is written, merged, rejected, filtered or skipped.
    public var ledgers: [SourceLedger] = []
    /// Records where a required attribute was empty and its model default was used.
    public var defaulted: Int = 0
    /// Source keys that matched no attribute, per source, each once (a CSV column without a name
    /// as `column N (no name)`).
    public var unknownKeys: [String: [String]] = [:]
    /// The attributes of file records that had no key for them and took the model's default
    /// (values no record gave), with how many records did.
    public var absentDefaults: [AbsentDefault] = []
    /// The delimiter each CSV source was read with, and what chose it.
    public var delimiters: [String: CSVDelimiterChoice] = [:]
    /// The first rejects, for the terminal; all of them go to the reject log.
    public var sampleRejects: [Reject] = []
    /// Whether the run stopped early because `maxErrors` was reached.
    public var stoppedEarly = false
    /// How each relationship's links were resolved.
    public var links: [LinkReport] = []
    /// Derived attributes of the records written that Ferry does not compute (not `count:` of a
    /// to-many): their values are what the records gave (`Book.loudTitle (uppercase:(title))`).
    public var uncomputedDerivations: [String] = []
    /// The check of the written store (nil when skipped or nothing was written).
    public var verification: VerificationReport?
    /// Why the built store was not renamed into place (nil when it was): the destination is
    /// then as it was before the run.
    public var discarded: String?
    /// Files of the replaced store's values (`--force`) that the new store does not name and that
    /// could not be removed (`CoreDataStoreWriter.externalFileWarnings`): left beside it.
    public var externalFileWarnings: [String] = []

    public typealias CarriedCount = FerryMigration.CarriedCount

    /// The accounting equation every run must satisfy.
    public var isBalanced: Bool { read == written + merged + rejected + skipped }
    /// Whether the import left something of its files out of the store: a record rejected, or a
    /// link not kept (found nothing, or its destination claimed last by another record: exit 1,
    /// as for `migrate`).
    public var leftSomethingOut: Bool { rejected > 0 || LinkReport.notKept(in: links) > 0 }
}

extension ImportSummary {
    /// Takes the counts of a finished pipeline run.
    mutating func tally(_ pipeline: RecordPipeline) {
        read = pipeline.records.read
        written = pipeline.records.written
        merged = pipeline.records.merged
        rejected = pipeline.records.rejected
        skipped = pipeline.records.skipped
        defaulted = pipeline.records.defaulted
        carried = pipeline.carried
        ledgers = pipeline.ledgers
        sampleRejects = pipeline.sampleRejects
        stoppedEarly = pipeline.stoppedEarly
        for case let .unknownKeys(source, _, _, keys) in pipeline.notes { unknownKeys[source] = keys }
        absentDefaults = pipeline.absentDefaults
    }
}
