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

    /// The records of `path` as records of `schema`'s entity in `model`.
    public func open(_ path: String, model: ManagedObjectModel, schema: RecordSchema) throws(RecordSourceError) -> Opened {
        try refuseExportWithReferences(path)
        let format = format ?? SourceFormat.detect(path: path)
        do {
            switch format {
            case .csv:
                let (dialect, choice) = try dialect(for: path)
                let source = UTF8TranscodingByteSource(try GzipDetectingByteSource(path: path))
                let reader = try CSVReader(source: source, dialect: dialect, textPolicy: csv.textPolicy, maxFields: csv.maxColumns,
                                           maxFieldBytes: maxValueBytes)
                let records = try CSVRecordReader(csv: reader, schema: schema, keyMap: keyMap, columnMap: csv.columnMap, options: coercion)
                return Opened(records: RecordReaderBox(records), delimiter: choice)
            case .json:
                let json = JSONReader(source: try GzipDetectingByteSource(path: path), layout: jsonLayout(for: path), maxValueBytes: maxValueBytes)
                return Opened(records: RecordReaderBox(DocumentRecordReader(json: json, decoder: try decoder(model: model, schema: schema))),
                              delimiter: nil)
            case .plist:
                let plist = PlistRecordReader(source: try GzipDetectingByteSource(path: path))
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

    /// How a JSON file's records are laid out: under `jsonRecordsKeyPath` when given, one per
    /// line for `.ndjson` and `.jsonl`, else as the document's start says.
    func jsonLayout(for path: String) -> JSONRecordLayout {
        let name = path.lowercased()
        let isLines = [".ndjson", ".jsonl", ".ndjson.gz", ".jsonl.gz"].contains(where: name.hasSuffix)
        return jsonRecordsKeyPath.map { JSONRecordLayout.nested(keyPath: $0) } ?? (isLines ? .lines : .automatic)
    }

    /// The CSV dialect (with the comment byte asked for) and what chose its delimiter: the given
    /// delimiter, tab for `.tsv`, else sniffed from the first 64 KB (not on standard input).
    func dialect(for path: String) throws -> (CSVDialect, CSVDelimiterChoice) {
        var dialect = CSVDialect.rfc4180
        dialect.comment = csv.comment
        let basis: CSVDelimiterChoice.Basis
        if let delimiter = csv.delimiter {
            dialect.delimiter = delimiter
            basis = .option
        } else if path.lowercased().hasSuffix(".tsv") || path.lowercased().hasSuffix(".tsv.gz") {
            dialect.delimiter = UInt8(ascii: "\t")
            basis = .fileName
        } else if path == "-" {
            basis = .standardInput
        } else {
            var sample = UTF8TranscodingByteSource(try GzipDetectingByteSource(path: path))
            var bytes = [UInt8](repeating: 0, count: 64 * 1024)
            let count = try bytes.withUnsafeMutableBytes { try sample.read(into: $0) }
            dialect = CSVDialect.sniff(sample: Array(bytes.prefix(count)), base: dialect)
            basis = .sniffed
        }
        return (dialect, CSVDelimiterChoice(delimiter: dialect.delimiter, basis: basis))
    }
}
