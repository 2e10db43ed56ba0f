import FerryMigration
import FerryVerify

/// What an import did, per entity: every record read is written or rejected.
public struct ImportSummary: Sendable, Equatable, Codable {
    public var entity: String
    public var modelVersion: String
    public var outputPath: String
    public var read: Int = 0
    public var written: Int = 0
    /// Records merged into another on a uniqueness constraint (kept first or newest).
    public var merged: Int = 0
    public var rejected: Int = 0
    /// Records where a required attribute was empty and its model default was used.
    public var defaulted: Int = 0
    /// Source keys that matched no attribute, per source, each once.
    public var unknownKeys: [String: [String]] = [:]
    /// The first rejects, for the terminal; all of them go to the reject log.
    public var sampleRejects: [Reject] = []
    /// Whether the run stopped early because `maxErrors` was reached.
    public var stoppedEarly = false
    /// How each relationship's links were resolved.
    public var links: [LinkReport] = []
    /// The check of the written store (nil when skipped or nothing was written).
    public var verification: VerificationReport?

    /// The accounting equation every run must satisfy.
    public var isBalanced: Bool { read == written + merged + rejected }
}
