import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FoundationEssentials

/// `ferry import`: reads legacy files into a store of one model version, all or nothing.
///
/// Each source streams through a record reader; every record is written, merged into an earlier
/// one on a uniqueness constraint, or rejected with its location and reason, so
/// `read == written + merged + rejected` always holds. Links named by the records (a task's
/// attachments, its tags) are resolved once everything is in. The store is built beside the
/// destination (a new one, or a copy of the existing one when appending) and renamed into place
/// only when everything is written.
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
        let writer = try openWriter(model: model)
        let rejectLog: RejectLog?
        do { rejectLog = try request.rejectLogPath.map { path throws(ImportError) in try RejectLog(path: path) } } catch {
            writer.discard()
            throw error
        }
        var summary = ImportSummary(entity: request.entity, modelVersion: model.name, outputPath: request.outputPath)
        do throws(ImportError) {
            let graph = StoreGraphWriter(writer: writer, model: model, duplicates: request.duplicates,
                                         createMissing: createMissing(model: model, entity: request.entity))
            for (index, source) in request.sources.enumerated() where !summary.stoppedEarly {
                let reader = try openReader(source, model: model, schema: schema)
                reading: while let result = try next(reader) {
                    summary.read += 1
                    let reject: Reject?
                    switch result {
                    case let .record(record, defaulted):
                        summary.defaulted += defaulted > 0 ? 1 : 0
                        switch try write(record, schema: schema, namespace: index, into: graph) {
                        case .inserted:
                            summary.written += 1
                            reject = nil
                        case .merged:
                            summary.merged += 1
                            reject = nil
                        case .rejected(let reason):
                            reject = Reject(location: record.location, entity: schema.entity.name, reason: reason)
                        }
                    case let .reject(rejected):
                        reject = rejected
                    }
                    if let reject {
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
                if !reader.unknownKeys.isEmpty { summary.unknownKeys[source] = reader.unknownKeys }
            }
            try rejectLog?.close()
            if summary.stoppedEarly {
                writer.discard()
            } else {
                do { summary.links = try graph.resolveLinks() } catch { throw ImportError.links(error) }
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

    /// A writer for a new store, or for a copy of the existing one when appending.
    private func openWriter(model: ManagedObjectModel) throws(ImportError) -> CoreDataStoreWriter {
        let exists = FileManager.default.fileExists(atPath: request.outputPath)
        do {
            if exists, request.existingStore == .append {
                return try CoreDataStoreWriter.append(to: request.outputPath, model: model, batchSize: request.batchSize)
            }
            guard !exists || request.existingStore == .replace else { throw ImportError.destinationExists(request.outputPath) }
            let hashes = VersionHasher.hashes(of: model)
            return try CoreDataStoreWriter.create(
                at: request.outputPath, model: model, versionHashes: hashes.entityHashes,
                versionIdentifiers: [model.versionIdentifier ?? ""], hashesDigest: hashes.digest, checksum: hashes.checksum,
                batchSize: request.batchSize)
        } catch let error as ImportError {
            throw error
        } catch let error as StoreWriterError {
            throw .store(error)
        } catch {
            throw .store(.existingStore(path: request.outputPath, reason: "\(error)"))
        }
    }

    /// The relationships (`Entity.relationship`) whose missing destinations are created: those
    /// asked for, and those matched on the destination's single-attribute uniqueness constraint.
    private func createMissing(model: ManagedObjectModel, entity: String) -> Set<String> {
        var result = Set(request.createMissing.map { $0.contains(".") ? $0 : "\(entity).\($0)" })
        for relationship in model.allRelationships(of: entity) {
            let unique = model.ancestry(of: relationship.destinationEntity).flatMap(\.uniquenessConstraints).filter { $0.count == 1 }
            let matched = request.linkAttributes[relationship.name] ?? (unique.count == 1 ? unique[0][0] : nil)
            if let matched, unique.contains([matched]) { result.insert("\(entity).\(relationship.name)") }
        }
        return result
    }

    private func openReader(_ path: String, model: ManagedObjectModel, schema: RecordSchema) throws(ImportError) -> any RecordStream {
        let format = request.format ?? SourceFormat.detect(path: path)
        do {
            switch format {
            case .csv:
                let source = UTF8TranscodingByteSource(try GzipDetectingByteSource(path: path))
                let csv = try CSVReader(source: source, dialect: try dialect(for: path))
                return RecordReaderBox(try CSVRecordReader(csv: csv, schema: schema, keyMap: request.keyMap, options: request.coercion))
            case .json:
                let name = path.lowercased()
                let isLines = [".ndjson", ".jsonl", ".ndjson.gz", ".jsonl.gz"].contains(where: name.hasSuffix)
                let json = JSONReader(source: try GzipDetectingByteSource(path: path), layout: isLines ? .lines : .automatic)
                return RecordReaderBox(JSONRecordReader(json: json, decoder: try decoder(model: model, schema: schema)))
            case .plist:
                let plist = PlistRecordReader(source: try GzipDetectingByteSource(path: path))
                return RecordReaderBox(PropertyListRecordReader(plist: plist, decoder: try decoder(model: model, schema: schema)))
            }
        } catch let error as RecordSourceError {
            throw .source(error)
        } catch {
            throw .source(RecordSourceError(source: path, reason: "\(error)"))
        }
    }

    private func decoder(model: ManagedObjectModel, schema: RecordSchema) throws(RecordSourceError) -> DocumentRecordDecoder {
        try DocumentRecordDecoder(schema: schema, model: model, keyMap: request.keyMap,
                                  linkAttributes: request.linkAttributes, options: request.coercion)
    }

    /// The CSV dialect: the user's delimiter, tab for `.tsv`, else sniffed from the first 64 KB.
    private func dialect(for path: String) throws -> CSVDialect {
        var dialect = CSVDialect.rfc4180
        if let delimiter = request.delimiter {
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

    private func next(_ reader: any RecordStream) throws(ImportError) -> RecordReadResult? {
        do { return try reader.next() } catch { throw .source(error) }
    }

    private func write(_ record: Record, schema: RecordSchema, namespace: Int, into graph: StoreGraphWriter)
        throws(ImportError) -> StoreGraphWriter.Outcome
    {
        do { return try graph.write(record, schema: schema, namespace: namespace) } catch { throw .links(error) }
    }
}
