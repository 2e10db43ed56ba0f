import FerryFormats
import FerryMigration

/// What `ferry import` is asked to do.
public struct ImportRequest: Sendable {
    /// Source files; `-` is standard input.
    public var sources: [String]
    /// An `.xcdatamodeld`, `.xcdatamodel` or `contents` path.
    public var modelPath: String
    /// The model version to write; nil means the bundle's current version.
    public var modelVersion: String?
    public var entity: String
    public var outputPath: String
    /// Replace an existing destination (atomically) instead of refusing.
    public var replaceExisting: Bool
    public var coercion: CoercionOptions
    /// A CSV delimiter that overrides sniffing.
    public var delimiter: UInt8?
    /// Source key → attribute name, for keys that match nothing by themselves.
    public var keyMap: [String: String]
    /// Stop after this many rejects (nil: never).
    public var maxErrors: Int?
    /// Where to write one JSON object per reject, if anywhere.
    public var rejectLogPath: String?
    /// Rows per transaction.
    public var batchSize: Int

    public init(sources: [String], modelPath: String, modelVersion: String? = nil, entity: String, outputPath: String,
                replaceExisting: Bool = false, coercion: CoercionOptions = .init(), delimiter: UInt8? = nil,
                keyMap: [String: String] = [:], maxErrors: Int? = nil, rejectLogPath: String? = nil, batchSize: Int = 10_000) {
        self.sources = sources
        self.modelPath = modelPath
        self.modelVersion = modelVersion
        self.entity = entity
        self.outputPath = outputPath
        self.replaceExisting = replaceExisting
        self.coercion = coercion
        self.delimiter = delimiter
        self.keyMap = keyMap
        self.maxErrors = maxErrors
        self.rejectLogPath = rejectLogPath
        self.batchSize = batchSize
    }
}
