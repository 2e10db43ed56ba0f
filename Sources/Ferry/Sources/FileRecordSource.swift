import FerryFormats
import FerryMigration
import FerryModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// row or JSON record (an NDJSON line, an array's element) with a larger one is a reject.
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
        /// The file's records counted a second time, by a scanner of its own, as the reader reads
        /// it (`CensusTap`): known once the reader reached the end.
        public let census: FileCensus
        /// The digest of the bytes the records were read from (`ReadDigestTap`), known once the
        /// reader reached the end.
        let digest: ReadDigest
        /// The file's stamp when it was opened (its reading fails when it changed before its
        /// end), for the job to check once more before its store is put in place
        /// (`firstChanged`); nil for a stream.
        public let openingStamp: SourceFileStamp?
    }

    /// A file (or standard input) opened once, its format decided from its first bytes
    /// (`SourceFormat.decide`) and how that format's reader is to read it: the one place a
    /// source's format, CSV dialect and JSON layout are chosen, for `open` and for `model infer`.
    public struct DecidedSource {
        public let path: String
        public let format: SourceFormat
        /// The file's bytes, gzip undone, its first bytes read ahead and read again from the start.
        public let bytes: SampledByteSource
        /// For CSV: the dialect (delimiter, comment byte, quote rule) and what chose its delimiter.
        public let csv: (dialect: CSVDialect, choice: CSVDelimiterChoice)?
        /// For JSON and NDJSON: where the records are.
        public let jsonLayout: JSONRecordLayout?
        /// Where the digest of the bytes read is left (`ReadDigestTap`).
        let digest: ReadDigest
        /// The file's stamp when it was opened; nil for a stream.
        let openingStamp: SourceFileStamp?

        /// The CSV dialect decided (RFC 4180 for other formats).
        public var csvDialect: CSVDialect { csv?.dialect ?? .rfc4180 }
    }

    /// Refuses a source that is not there, cannot be opened or is a folder, in the words its
    /// reading would use, before any destination is looked at: an existing `--out` hid a missing
    /// source behind "exists; use --force", and the forced run only then said the source was missing.
    public static func checkReadable(_ path: String) throws(RecordSourceError) {
        let target = FileInfo.linkTarget(of: path)
        guard access(target, R_OK) == 0 else {
            throw RecordSourceError(source: FileByteSource.name(of: path), reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        if FileInfo.kind(atPath: target) == .directory { throw RecordSourceError(source: FileByteSource.name(of: path), reason: "cannot read: \(String(cString: strerror(EISDIR)))") }
    }

    /// The error of the first of the files a job read (`stamps`: the stamps they had when they
    /// were opened) that is no longer as it was, written, truncated or replaced after it was
    /// read: checked just before the job's store is put in place; nil when none changed.
    public static func firstChanged(_ stamps: [String: SourceFileStamp]) -> RecordSourceError? {
        stamps.sorted { $0.key < $1.key }.first { SourceFileStamp(path: $0.key) != $0.value }.map {
            RecordSourceError(source: $0.key, reason: ByteSourceError.changedWhileRead(path: $0.key).reason)
        }
    }

    /// Opens `path` and decides its format.
    public func decide(_ path: String) throws(RecordSourceError) -> DecidedSource {
        do {
            let file = try FileByteSource(path: path)
            let tap = ReadDigestTap(file)
            let source = try SampledByteSource(try GzipDetectingByteSource(tap), count: SourceContent.sampleSize)
            let content = SourceContent.sniff(source.sample, isComplete: source.sampleIsComplete)
            let format: SourceFormat
            do { format = try SourceFormat.decide(content: content, path: path, given: self.format) } catch {
                throw RecordSourceError(source: FileByteSource.name(of: path), reason: error.description)
            }
            let csv = format == .csv ? dialect(for: path, sample: source.sample, isComplete: source.sampleIsComplete) : nil
            let layout: JSONRecordLayout? = switch format {
            case .json, .ndjson: jsonRecordsKeyPath.map { JSONRecordLayout.nested(keyPath: $0) } ?? (format == .ndjson ? .lines : .automatic)
            case .csv, .plist: nil
            }
            return DecidedSource(path: path, format: format, bytes: source, csv: csv, jsonLayout: layout, digest: tap.digest,
                                 openingStamp: file.openingStamp)
        } catch let error as RecordSourceError {
            throw error
        } catch {
            throw RecordSourceError(source: FileByteSource.name(of: path), failure: error, at: path)
        }
    }

    /// The CSV reader of a source decided as CSV, with the column and value-size limits.
    public func csvReader(_ decided: DecidedSource) throws -> CSVReader {
        try csvReader(decided, reading: decided.bytes)
    }

    /// The CSV reader of a source decided as CSV, reading `source` (its bytes through a tap).
    private func csvReader(_ decided: DecidedSource, reading source: some ByteSource) throws -> CSVReader {
        try CSVReader(source: source, dialect: decided.csvDialect, textPolicy: csv.textPolicy, maxFields: csv.maxColumns,
                      maxFieldBytes: maxValueBytes)
    }

    /// The JSON reader of a source decided as JSON or NDJSON, with the value-size limit.
    public func jsonReader(_ decided: DecidedSource) -> JSONReader {
        jsonReader(decided, reading: decided.bytes)
    }

    /// The JSON reader of a source decided as JSON or NDJSON, reading `source` (its bytes through a tap).
    private func jsonReader(_ decided: DecidedSource, reading source: some ByteSource) -> JSONReader {
        JSONReader(source: source, layout: decided.jsonLayout ?? .automatic, maxValueBytes: maxValueBytes)
    }

    /// The records of `path` as records of `schema`'s entity in `model`, read by the reader of
    /// the format `decide` chose.
    public func open(_ path: String, model: ManagedObjectModel, schema: RecordSchema) throws(RecordSourceError) -> Opened {
        try refuseExportWithReferences(path)
        let decided = try byHeader(try decide(path), schema: schema)
        do {
            switch decided.format {
            case .csv:
                let tap = CensusTap(decided.bytes, census: CSVRecordCensus(dialect: decided.csvDialect))
                let records = try CSVRecordReader(csv: try csvReader(decided, reading: tap), schema: schema, keyMap: keyMap,
                                                  columnMap: csv.columnMap, model: model, linkAttributes: linkAttributes, options: coercion)
                return Opened(records: RecordReaderBox(records), delimiter: decided.csv?.choice, census: tap.census, digest: decided.digest, openingStamp: decided.openingStamp)
            case .json, .ndjson:
                let tap = CensusTap(decided.bytes, census: JSONRecordCensus(layout: decided.jsonLayout ?? .automatic))
                let records = DocumentRecordReader(json: jsonReader(decided, reading: tap), decoder: try decoder(model: model, schema: schema))
                return Opened(records: RecordReaderBox(records), delimiter: nil, census: tap.census, digest: decided.digest, openingStamp: decided.openingStamp)
            case .plist:
                let tap = CensusTap(decided.bytes, census: PlistRecordCensus())
                let records = DocumentRecordReader(plist: PlistRecordReader(source: tap), decoder: try decoder(model: model, schema: schema))
                return Opened(records: RecordReaderBox(records), delimiter: nil, census: tap.census, digest: decided.digest, openingStamp: decided.openingStamp)
            }
        } catch let error as RecordSourceError {
            throw error
        } catch let error as CSVError {
            throw RecordSourceError(error)
        } catch {
            throw RecordSourceError(source: FileByteSource.name(of: path), failure: error, at: path)
        }
    }

    /// A sniffed CSV delimiter that another one fitting the first lines as well beats by the
    /// header: the one that splits it into the most names of the entity's attributes. When none
    /// does and the header read with the one chosen names a column no attribute has, the choice
    /// is in doubt and the file is refused: a tab-separated file whose lines held one comma each
    /// was read as comma-separated, and two of its three values were lost (exit 0, with a
    /// warning naming columns that matched nothing).
    private func byHeader(_ decided: DecidedSource, schema: RecordSchema) throws(RecordSourceError) -> DecidedSource {
        guard decided.format == .csv, let (dialect, choice) = decided.csv, choice.basis == .sniffed, csv.columnMap.isEmpty else { return decided }
        let sample = SourceContent.text(of: decided.bytes.sample, isComplete: decided.bytes.sampleIsComplete).text
        let candidates = CSVDialect.fittingDelimiters(sample: sample, base: dialect)
        guard candidates.count > 1 else { return decided }
        let attributes = Set(schema.attributes.map(\.name))
        let names = Dictionary(uniqueKeysWithValues: candidates.map { ($0, CSVDialect.headerNames(sample: sample, delimiter: $0, base: dialect)) })
        func named(_ delimiter: UInt8) -> Int { names[delimiter, default: []].filter(attributes.contains).count }
        guard let best = candidates.max(by: { named($0) < named($1) }), named(best) > named(dialect.delimiter) else {
            let unknown = CSVDialect.headerNames(sample: sample, delimiter: dialect.delimiter, base: dialect).filter { !attributes.contains($0) }
            guard unknown.isEmpty else {
                let shown = candidates.map { CSVDelimiterChoice(delimiter: $0, basis: .sniffed).shownDelimiter }
                throw RecordSourceError(source: FileByteSource.name(of: decided.path), reason: "the delimiter is in doubt: "
                    + "\(shown.joined(separator: " and ")) split the first lines alike, and the header read with "
                    + "\(CSVDelimiterChoice(delimiter: dialect.delimiter, basis: .sniffed).shownDelimiter) names columns no attribute "
                    + "of \(schema.entity.name) has (\(unknown.map { "'\($0)'" }.joined(separator: ", "))): give --delimiter")
            }
            return decided
        }
        var better = dialect
        better.delimiter = best
        return DecidedSource(path: decided.path, format: .csv, bytes: decided.bytes, csv: (better, CSVDelimiterChoice(delimiter: best, basis: .header)),
                             jsonLayout: decided.jsonLayout, digest: decided.digest, openingStamp: decided.openingStamp)
    }

    /// A file of a Ferry export or backup (its `manifest.json` beside it lists it) whose records
    /// have relationships holds them as `Z_PK` numbers of the exported store, which would read as
    /// values of the destination's attributes and make fake records: such a folder is restored.
    private func refuseExportWithReferences(_ path: String) throws(RecordSourceError) {
        guard path != "-" else { return }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let manifest = try? ManifestFile.read(inFolder: folder, strictly: false),
              let entry = manifest.entities.first(where: { $0.file == name }), !entry.relationships.isEmpty else { return }
        throw RecordSourceError(source: FileByteSource.name(of: path), reason: "a file of a Ferry export (\(ExportManifest.fileName) beside it lists it): its "
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
            dialect = CSVDialect.sniff(sample: SourceContent.text(of: sample, isComplete: isComplete).text, base: dialect)
            basis = .sniffed
        }
        return (dialect, CSVDelimiterChoice(delimiter: dialect.delimiter, basis: basis))
    }
}
