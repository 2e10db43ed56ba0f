import FerryMigration
import FerryStore

/// What `ferry migrate` is asked to do.
public struct MigrateRequest: Sendable {
    public var sources: [MigrationSource]
    /// The `.xcdatamodeld` whose versions form the chain.
    public var modelPath: String
    /// The destination version; nil means the bundle's current version.
    public var targetVersion: String?
    public var outputPath: String
    /// Replace an existing destination (atomically) instead of refusing.
    public var replaceExisting: Bool
    /// How legacy files are read (formats, key maps, link attributes, value rules).
    public var files: FileRecordSource
    /// Core Data mapping models (`.xcmappingmodel`, `.cdm`) to run for the steps they map, tried
    /// before the ones beside the model (`MigrationPlanner`).
    public var mappingModels: [String] = []
    /// The new store's UUID when no source store gives it one (nil: a new UUID).
    public var storeUUID: StoreUUID?
    /// Values for `$NAME` in written mappings (`zone` for the flagship's local dates).
    public var variables: [String: String]
    /// Written values that fail become nil (or the default) instead of rejecting their record,
    /// where a rule does not say otherwise.
    public var lenient: Bool = false
    /// The duplicate policy where no written mapping sets one.
    public var duplicates: DuplicatePolicy
    /// Stop after this many rejects (nil: never).
    public var maxErrors: Int?
    public var rejectLogPath: String?
    public var batchSize: Int
    /// Run everything but leave nothing behind (`ferry plan`'s dry run).
    public var dryRun: Bool
    /// Check the written store before it is put in place (`JobVerification`), and leave a
    /// `MigrationReceipt` in it when every check holds.
    public var verify: Bool = true
    /// Whether the written store is made durable (synced, in WAL mode as Core Data keeps it);
    /// false for a private store read once and deleted (`verify --against`).
    public var durable: Bool = true

    public init(sources: [MigrationSource], modelPath: String, targetVersion: String? = nil, outputPath: String, replaceExisting: Bool = false,
                files: FileRecordSource = .init(), variables: [String: String] = [:], duplicates: DuplicatePolicy = .reject,
                maxErrors: Int? = nil, rejectLogPath: String? = nil, batchSize: Int = 10_000, dryRun: Bool = false) {
        self.sources = sources
        self.modelPath = modelPath
        self.targetVersion = targetVersion
        self.outputPath = outputPath
        self.replaceExisting = replaceExisting
        self.files = files
        self.variables = variables
        self.duplicates = duplicates
        self.maxErrors = maxErrors
        self.rejectLogPath = rejectLogPath
        self.batchSize = batchSize
        self.dryRun = dryRun
    }
}
