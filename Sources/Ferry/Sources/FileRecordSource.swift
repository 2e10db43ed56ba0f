import FerryFormats
import FerryMigration
import FerryModel

/// Opens a legacy file (CSV, JSON/NDJSON, property list; gzip or not; `-` for standard input) as
/// a stream of records of one entity. Shared by import and migrate.
public struct FileRecordSource: Sendable {
    public var format: SourceFormat?
    public var coercion: CoercionOptions
    /// A CSV delimiter that overrides sniffing.
    public var delimiter: UInt8?
    /// Source key → attribute name.
    public var keyMap: [String: String]
    /// Relationship → the destination attribute its values match.
    public var linkAttributes: [String: String]

    public init(format: SourceFormat? = nil, coercion: CoercionOptions = .init(), delimiter: UInt8? = nil,
                keyMap: [String: String] = [:], linkAttributes: [String: String] = [:]) {
        self.format = format
        self.coercion = coercion
        self.delimiter = delimiter
        self.keyMap = keyMap
        self.linkAttributes = linkAttributes
    }

    /// The records of `path` as records of `schema`'s entity in `model`.
    public func open(_ path: String, model: ManagedObjectModel, schema: RecordSchema) throws(RecordSourceError) -> any RecordStream {
        try refuseExportWithReferences(path)
        let format = format ?? SourceFormat.detect(path: path)
        do {
            switch format {
            case .csv:
                let source = UTF8TranscodingByteSource(try GzipDetectingByteSource(path: path))
                let csv = try CSVReader(source: source, dialect: try dialect(for: path))
                return RecordReaderBox(try CSVRecordReader(csv: csv, schema: schema, keyMap: keyMap, options: coercion))
            case .json:
                let name = path.lowercased()
                let isLines = [".ndjson", ".jsonl", ".ndjson.gz", ".jsonl.gz"].contains(where: name.hasSuffix)
                let json = JSONReader(source: try GzipDetectingByteSource(path: path), layout: isLines ? .lines : .automatic)
                return RecordReaderBox(DocumentRecordReader(json: json, decoder: try decoder(model: model, schema: schema)))
            case .plist:
                let plist = PlistRecordReader(source: try GzipDetectingByteSource(path: path))
                return RecordReaderBox(DocumentRecordReader(plist: plist, decoder: try decoder(model: model, schema: schema)))
            }
        } catch let error as RecordSourceError {
            throw error
        } catch {
            throw RecordSourceError(source: path, reason: "\(error)")
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

    /// The CSV dialect: the given delimiter, tab for `.tsv`, else sniffed from the first 64 KB.
    private func dialect(for path: String) throws -> CSVDialect {
        var dialect = CSVDialect.rfc4180
        if let delimiter {
            dialect.delimiter = delimiter
        } else if path.lowercased().hasSuffix(".tsv") || path.lowercased().hasSuffix(".tsv.gz") {
            dialect.delimiter = UInt8(ascii: "\t")
        } else if path != "-" {
            var sample = UTF8TranscodingByteSource(try GzipDetectingByteSource(path: path))
            var bytes = [UInt8](repeating: 0, count: 64 * 1024)
            let count = try bytes.withUnsafeMutableBytes { try sample.read(into: $0) }
            dialect = CSVDialect.sniff(sample: Array(bytes.prefix(count)), base: dialect)
        }
        return dialect
    }
}
