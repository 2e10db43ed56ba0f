/// One fuzz target per parser Ferry exposes to files it did not write.
enum FuzzTarget: String, CaseIterable {
    /// `CSVReader`, with the default and a narrow column limit.
    case csv
    /// `JSONReader` in its automatic layout and as NDJSON lines.
    case json
    /// The XML property list readers: the tree reader and the streaming record reader.
    case xmlPlist = "xml-plist"
    /// The binary property list readers: the tree reader and the streaming record reader.
    case binaryPlist = "binary-plist"
    /// Gzip detection and inflation of an input stream.
    case gzip
    /// An Xcode model's `contents` XML, loaded and hashed.
    case xcodeModel = "xcode-model"
    /// A keyed archive as a compiled model, and the same bytes as a deflated model cache.
    case keyedArchive = "keyed-archive"
    /// A predicate format string: parsed, printed, parsed again and compiled to SQL.
    case predicate
    /// A written mapping file and a mapping expression: parsed, printed, type-checked, evaluated.
    case mapping
    /// Arbitrary bytes as a store file: opened, inspected, its records read.
    case store

    func run(_ bytes: [UInt8]) {
        switch self {
        case .csv: FormatTargets.csv(bytes)
        case .json: FormatTargets.json(bytes)
        case .xmlPlist: FormatTargets.xmlPlist(bytes)
        case .binaryPlist: FormatTargets.binaryPlist(bytes)
        case .gzip: FormatTargets.gzip(bytes)
        case .xcodeModel: ModelTargets.xcodeModel(bytes)
        case .keyedArchive: ModelTargets.keyedArchive(bytes)
        case .predicate: QueryTargets.predicate(bytes)
        case .mapping: QueryTargets.mapping(bytes)
        case .store: StoreTarget.store(bytes)
        }
    }
}
