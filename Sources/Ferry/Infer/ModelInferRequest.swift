import FerryMigration

/// What `ferry model infer` is asked to do.
public struct ModelInferRequest: Sendable {
    /// The legacy files, read as `ferry import` reads them.
    public var sources: [String]
    /// The entity their records belong to.
    public var entity: String
    /// The `.xcdatamodeld` to write; nil only reports.
    public var outputPath: String?
    /// The version's name; nil names it after the bundle.
    public var versionName: String?
    /// Whether an existing output is replaced (atomically).
    public var replaceExisting: Bool
    /// How the files are read: format, CSV options, value rules (the date epoch and the empty-field
    /// rule shape the guesses, so import with the same ones), JSON records key.
    public var files: FileRecordSource
    /// The most distinct values the uniqueness checks hold at once, all keys together.
    public var uniqueLimit: Int

    public init(sources: [String], entity: String, outputPath: String? = nil, versionName: String? = nil, replaceExisting: Bool = false,
                files: FileRecordSource = .init(), uniqueLimit: Int = 1_000_000) {
        self.sources = sources
        self.entity = entity
        self.outputPath = outputPath
        self.versionName = versionName
        self.replaceExisting = replaceExisting
        self.files = files
        self.uniqueLimit = uniqueLimit
    }
}
