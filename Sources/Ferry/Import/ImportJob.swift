import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FoundationEssentials

/// `ferry import`: reads legacy files into a new store of one model version, all or nothing.
///
/// Each source streams through a record reader; every record is written or rejected with its
/// location and reason, so `read == written + rejected` always holds. The store is built beside
/// the destination and renamed into place only when everything is written.
public struct ImportJob {
    public let request: ImportRequest

    public init(request: ImportRequest) {
        self.request = request
    }

    /// Runs the import. `progress` is called now and then with the running totals.
    public func run(progress: (ImportSummary) -> Void = { _ in }) throws(ImportError) -> ImportSummary {
        let model = try resolveModel()
        guard let schema = RecordSchema(model: model, entityName: request.entity) else {
            throw .unknownEntity(request.entity, version: model.name, available: model.entities.map(\.name))
        }
        guard !schema.entity.isAbstract else { throw .abstractEntity(request.entity) }
        if !request.replaceExisting, FileManager.default.fileExists(atPath: request.outputPath) {
            throw .destinationExists(request.outputPath)
        }
        let rejectLog = try request.rejectLogPath.map { path throws(ImportError) in try RejectLog(path: path) }
        let hashes = VersionHasher.hashes(of: model)
        let writer: CoreDataStoreWriter
        do {
            writer = try CoreDataStoreWriter.create(
                at: request.outputPath, model: model, versionHashes: hashes.entityHashes,
                versionIdentifiers: [model.versionIdentifier ?? ""], hashesDigest: hashes.digest, checksum: hashes.checksum,
                batchSize: request.batchSize)
        } catch {
            throw .store(error)
        }
        var summary = ImportSummary(entity: request.entity, modelVersion: model.name, outputPath: request.outputPath)
        do throws(ImportError) {
            let sink = try RecordSink(writer: writer, schema: schema)
            for source in request.sources where !summary.stoppedEarly {
                var reader = try openReader(source, schema: schema)
                summary.unknownKeys[source] = reader.unknownKeys.isEmpty ? nil : reader.unknownKeys
                reading: while let result = try readNext(&reader) {
                    summary.read += 1
                    switch result {
                    case let .record(record, defaulted):
                        try sink.write(record)
                        summary.written += 1
                        summary.defaulted += defaulted > 0 ? 1 : 0
                    case let .reject(reject):
                        summary.rejected += 1
                        if summary.sampleRejects.count < 20 { summary.sampleRejects.append(reject) }
                        try rejectLog?.append(reject)
                        if let limit = request.maxErrors, summary.rejected >= limit {
                            summary.stoppedEarly = true
                            break reading
                        }
                    }
                    if summary.read % 50_000 == 0 { progress(summary) }
                }
            }
            try rejectLog?.close()
            if summary.stoppedEarly {
                writer.discard()
            } else {
                do { try writer.finish() } catch { throw ImportError.store(error) }
            }
        } catch {
            writer.discard()
            throw error
        }
        progress(summary)
        return summary
    }

    private func resolveModel() throws(ImportError) -> ManagedObjectModel {
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: request.modelPath) } catch { throw .model(error) }
        let name = request.modelVersion ?? bundle.currentVersionName
        guard let model = bundle.version(named: name) else {
            throw .unknownVersion(name, available: bundle.versions.map(\.name))
        }
        return model
    }

    private func openReader(_ path: String, schema: RecordSchema) throws(ImportError) -> CSVRecordReader {
        let lowered = path.lowercased()
        guard path == "-" || lowered.hasSuffix(".csv") || lowered.hasSuffix(".tsv") || lowered.hasSuffix(".txt") else {
            throw .unsupportedSource(path, reason: "not a CSV file (.csv, .tsv, .txt or - for standard input)")
        }
        do {
            let file = try FileByteSource(path: path)
            let dialect = try sniffedDialect(path: path, isTabSeparated: lowered.hasSuffix(".tsv"))
            let csv = try CSVReader(source: UTF8TranscodingByteSource(file), dialect: dialect)
            return try CSVRecordReader(csv: csv, schema: schema, keyMap: request.keyMap, options: request.coercion)
        } catch let error as RecordSourceError {
            throw .source(error)
        } catch {
            throw .source(RecordSourceError(source: path, reason: "\(error)"))
        }
    }

    /// The dialect: the user's delimiter, tab for `.tsv`, else sniffed from the first 64 KB of a file.
    private func sniffedDialect(path: String, isTabSeparated: Bool) throws -> CSVDialect {
        var dialect = CSVDialect.rfc4180
        if let delimiter = request.delimiter {
            dialect.delimiter = delimiter
        } else if isTabSeparated {
            dialect.delimiter = UInt8(ascii: "\t")
        } else if path != "-" {
            var sample = UTF8TranscodingByteSource(try FileByteSource(path: path))
            var bytes = [UInt8](repeating: 0, count: 64 * 1024)
            let count = try bytes.withUnsafeMutableBytes { try sample.read(into: $0) }
            dialect = CSVDialect.sniff(sample: Array(bytes.prefix(count)), base: dialect)
        }
        return dialect
    }

    private func readNext(_ reader: inout CSVRecordReader) throws(ImportError) -> RecordReadResult? {
        do { return try reader.next() } catch { throw .source(error) }
    }
}
