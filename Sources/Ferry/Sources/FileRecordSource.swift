import FerryFormats
import FerryMigration
import FerryModel

/// Opens a legacy file (CSV, JSON/NDJSON, property list; gzip or not; `-` for standard input) as
/// a stream of records of one entity. Shared by import and migrate.
public struct FileRecordSource: Sendable {
    public var format: SourceFormat?
    public var coercion: CoercionOptions
    /// How CSV files are read: delimiter, comments, text encoding, column limit, columns by position.
    public var csv: CSVOptions
    /// Source key → attribute name.
    public var keyMap: [String: String]
    /// Relationship → the destination attribute its values match.
    public var linkAttributes: [String: String]
    /// The keys that lead from a JSON file's top object to the array of its records
    /// (`["tasks"]` for `{"tasks": […]}`); nil reads an array, one object or NDJSON.
    public var jsonRecordsKeyPath: [String]?
    /// The most bytes one value may hold (a CSV field, a JSON string or number as written): a CSV
    /// row or NDJSON line with a larger one is a reject, a JSON document with one stops the run.
    public var maxValueBytes: Int

    public init(format: SourceFormat? = nil, coercion: CoercionOptions = .init(), csv: CSVOptions = .init(),
                keyMap: [String: String] = [:], linkAttributes: [String: String] = [:], jsonRecordsKeyPath: [String]? = nil,
                maxValueBytes: Int = ValueSizeLimit.defaultMaxBytes) {
        self.format = format
        self.coercion = coercion
        self.csv = csv
        self.keyMap = keyMap
        self.linkAttributes = linkAttributes
        self.jsonRecordsKeyPath = jsonRecordsKeyPath
        self.maxValueBytes = maxValueBytes
    }

    /// A file opened for reading.
    public struct Opened {
        /// Its records, in file order.
        public let records: any RecordStream
        /// The delimiter of a CSV file, and what chose it; nil for other formats.
        public let delimiter: CSVDelimiterChoice?
    }

    /// The records of `path` as records of `schema`'s entity in `model`. The file (or standard
    /// input) is opened once: its format is decided from its first bytes (`SourceFormat.decide`),
    /// which are then read again by the format's reader.
    public func open(_ path: String, model: ManagedObjectModel, schema: RecordSchema) throws(RecordSourceError) -> Opened {
        try refuseExportWithReferences(path)
        do {
            let source = try SampledByteSource(try GzipDetectingByteSource(path: path), count: SourceContent.sampleSize)
            let content = SourceContent.sniff(source.sample, isComplete: source.sampleIsComplete)
            let format: SourceFormat
            do { format = try SourceFormat.decide(content: content, path: path, given: self.format) } catch {
                throw RecordSourceError(source: path, reason: error.description)
            }
            switch format {
            case .csv:
                let (dialect, choice) = dialect(for: path, sample: source.sample, isComplete: source.sampleIsComplete)
                let reader = try CSVReader(source: source, dialect: dialect, textPolicy: csv.textPolicy, maxFields: csv.maxColumns,
                                           maxFieldBytes: maxValueBytes)
                let records = try CSVRecordReader(csv: reader, schema: schema, keyMap: keyMap, columnMap: csv.columnMap, options: coercion)
                return Opened(records: RecordReaderBox(records), delimiter: choice)
            case .json, .ndjson:
                let layout = jsonRecordsKeyPath.map { JSONRecordLayout.nested(keyPath: $0) } ?? (format == .ndjson ? .lines : .automatic)
                let json = JSONReader(source: source, layout: layout, maxValueBytes: maxValueBytes)
                return Opened(records: RecordReaderBox(DocumentRecordReader(json: json, decoder: try decoder(model: model, schema: schema))),
                              delimiter: nil)
            case .plist:
                let plist = PlistRecordReader(source: source)
                return Opened(records: RecordReaderBox(DocumentRecordReader(plist: plist, decoder: try decoder(model: model, schema: schema))),
                              delimiter: nil)
            }
        } catch let error as RecordSourceError {
            throw error
        } catch let error as CSVError {
            throw RecordSourceError(error)
        } catch {
            throw RecordSourceError(source: path, reason: ErrorText.reason(of: error, at: path))
        }
    }

    /// A file of a Ferry export or backup (its `manifest.json` beside it lists it) whose records
    /// have relationships holds them as `Z_PK` numbers of the exported store, which would read as
    /// values of the destination's attributes and make fake records: such a folder is restored.
    private func refuseExportWithReferences(_ path: String) throws(RecordSourceError) {
        guard path != "-" else { return }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let manifest = try? ManifestFile.read(from: folder + "/" + ExportManifest.fileName),
              let entry = manifest.entities.first(where: { $0.file == name }), !entry.relationships.isEmpty else { return }
        throw RecordSourceError(source: path, reason: "a file of a Ferry export (\(ExportManifest.fileName) beside it lists it): its "
            + "relationships (\(entry.relationships.map(\.name).joined(separator: ", "))) hold Z_PK numbers of the exported store, "
            + "not values; rebuild the store with `ferry restore \(folder) --model MODEL --out STORE`")
    }

    private func decoder(model: ManagedObjectModel, schema: RecordSchema) throws(RecordSourceError) -> DocumentRecordDecoder {
        try DocumentRecordDecoder(schema: schema, model: model, keyMap: keyMap, linkAttributes: linkAttributes, options: coercion)
    }

    /// The CSV dialect (with the comment byte and quote rule asked for) and what chose its
    /// delimiter: the given delimiter, tab for `.tsv`, else sniffed from the source's first bytes.
    private func dialect(for path: String, sample: [UInt8], isComplete: Bool) -> (CSVDialect, CSVDelimiterChoice) {
        var dialect = CSVDialect.rfc4180
        dialect.comment = csv.comment
        dialect.quoteRule = csv.quoteRule
        let basis: CSVDelimiterChoice.Basis
        if let delimiter = csv.delimiter {
            dialect.delimiter = delimiter
            basis = .option
        } else if path.lowercased().hasSuffix(".tsv") || path.lowercased().hasSuffix(".tsv.gz") {
            dialect.delimiter = UInt8(ascii: "\t")
            basis = .fileName
        } else {
            dialect = CSVDialect.sniff(sample: SourceContent.text(of: sample, isComplete: isComplete), base: dialect)
            basis = .sniffed
        }
        return (dialect, CSVDelimiterChoice(delimiter: dialect.delimiter, basis: basis))
    }
}
