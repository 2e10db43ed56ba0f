import FerryMigration
import FerryModel

/// What `ModelInferJob` read, guessed and wrote.
public struct ModelInferSummary: Sendable, Equatable {
    /// The model made (written to `bundlePath` when there is one).
    public var model: ManagedObjectModel
    /// Every guess, entity by entity.
    public var report: InferenceReport
    /// The files read, in order.
    public var sources: [ScannedSource]
    /// Records no model could read: import rejects them whatever the model.
    public var unreadable: UnreadableRecords
    /// The value rules the guesses assume: import with the same.
    public var coercion: CoercionOptions
    /// The bundle written, or nil when only reporting.
    public var bundlePath: String?
}
