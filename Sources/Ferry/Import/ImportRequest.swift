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
    /// The sources' format; nil means detected per source (`SourceFormat.detect`).
    public var format: SourceFormat?
    public var coercion: CoercionOptions
    /// A CSV delimiter that overrides sniffing.
    public var delimiter: UInt8?
    /// Source key → attribute name, for keys that match nothing by themselves.
    public var keyMap: [String: String]
    /// Relationship → the destination attribute its values match (`attachments` → `remotePath`).
    public var linkAttributes: [String: String]
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

    public init(sources: [String], modelPath: String, modelVersion: String? = nil, entity: String, outputPath: String,
                existingStore: ExistingStore = .refuse, format: SourceFormat? = nil, coercion: CoercionOptions = .init(),
                delimiter: UInt8? = nil, keyMap: [String: String] = [:], linkAttributes: [String: String] = [:],
                createMissing: Set<String> = [], duplicates: DuplicatePolicy = .reject, maxErrors: Int? = nil,
                rejectLogPath: String? = nil, batchSize: Int = 10_000) {
        self.sources = sources
        self.modelPath = modelPath
        self.modelVersion = modelVersion
        self.entity = entity
        self.outputPath = outputPath
        self.existingStore = existingStore
        self.format = format
        self.coercion = coercion
        self.delimiter = delimiter
        self.keyMap = keyMap
        self.linkAttributes = linkAttributes
        self.createMissing = createMissing
        self.duplicates = duplicates
        identityKey = nil
        self.maxErrors = maxErrors
        self.rejectLogPath = rejectLogPath
        self.batchSize = batchSize
    }
}
