import FerryFormats
import FerryMigration

/// What `ferry import` is asked to do.
public struct ImportRequest: Sendable {
    /// What to do when the destination store exists.
    public enum ExistingStore: String, Sendable {
        /// Refuse to run.
        case refuse
        /// Replace it (atomically) with a new store.
        case replace
        /// Add the records to it (all or nothing); it must be a store of the same model version.
        case append
    }

    /// Source files; `-` is standard input. Gzip-compressed files are read as they are.
    public var sources: [String]
    /// An `.xcdatamodeld`, `.xcdatamodel` or `contents` path.
    public var modelPath: String
    /// The model version to write; nil means the bundle's current version.
    public var modelVersion: String?
    public var entity: String
    public var outputPath: String
    public var existingStore: ExistingStore
    /// How the source files are read (as by migrate): the format (nil: detected per source),
    /// value rules, CSV options, key maps, and relationship → the destination attribute its
    /// values match (`attachments` → `remotePath`).
    public var files: FileRecordSource
    /// Relationships whose missing destinations are created. Matching on the destination's
    /// single-attribute uniqueness constraint (`Tag.name`) always creates them.
    public var createMissing: Set<String>
    /// Records that collide on a uniqueness constraint, in the input or with the store.
    public var duplicates: DuplicatePolicy
    /// Attributes that identify a record where the model has no uniqueness constraint (upsert by
    /// `--key`): records with equal values, in the input or already in the store, are duplicates.
    public var identityKey: [String]?
    /// Stop after this many rejects (nil: never).
    public var maxErrors: Int?
    /// Where to write one JSON object per reject, if anywhere.
    public var rejectLogPath: String?
    /// Rows per transaction.
    public var batchSize: Int
    /// Check the written store afterwards (`JobVerification`).
    public var verify: Bool = true
    /// Import a file the store appended to lists as imported before, or one given twice
    /// (`ImportedFiles`): refused otherwise, as its records would be written twice.
    public var importsAgain = false

    public init(sources: [String], modelPath: String, modelVersion: String? = nil, entity: String, outputPath: String,
                existingStore: ExistingStore = .refuse, files: FileRecordSource = .init(),
                createMissing: Set<String> = [], duplicates: DuplicatePolicy = .reject, maxErrors: Int? = nil,
                rejectLogPath: String? = nil, batchSize: Int = 10_000) {
        self.sources = sources
        self.modelPath = modelPath
        self.modelVersion = modelVersion
        self.entity = entity
        self.outputPath = outputPath
        self.existingStore = existingStore
        self.files = files
        self.createMissing = createMissing
        self.duplicates = duplicates
        identityKey = nil
        self.maxErrors = maxErrors
        self.rejectLogPath = rejectLogPath
        self.batchSize = batchSize
    }
}
