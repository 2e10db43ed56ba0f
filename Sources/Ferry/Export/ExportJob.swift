import FerryFormats
import FerryModel
import FerryStore
import FoundationEssentials

/// `ferry export`: writes the records of a Core Data store into one file per concrete entity,
/// plus `manifest.json`, reading everything in one read transaction so the files agree with
/// each other even while another process writes the store.
///
/// Records are streamed: each entity hierarchy is read once in `Z_PK` order, to-many
/// relationships are merged in from edge cursors sorted the same way, and bytes go to the files
/// in chunks. Memory does not grow with the store (binary plists excepted, see `ExportFormat`).
public struct ExportJob {
    public let request: ExportRequest

    public init(request: ExportRequest) {
        self.request = request
    }

    /// Writes the files and the manifest; returns the manifest.
    public func run() throws(ExportError) -> ExportManifest {
        if let level = request.gzipLevel, !(0...9).contains(level) {
            throw .invalidRequest("the gzip level must be 0 to 9, not \(level)")
        }
        if (request.predicate != nil || request.sort != nil) && request.entities.count != 1 {
            throw .invalidRequest("--where and --sort apply to one entity: give exactly one --entity")
        }
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: request.storePath) } catch { throw .store(error) }
        let (model, modelInfo) = try ExportModelSource.resolve(bundlePath: request.modelPath, store: store)
        let reader: StoreRecordReader
        do { reader = try store.records(model: model) } catch { throw .store(error) }
        let units = try readUnits(model)
        try makeFolder(request.outputFolder)
        let state: StoreReadState
        do { state = try store.beginRead() } catch { throw .store(error) }
        var files: [ExportManifest.EntityFile] = []
        do {
            for unit in units { files += try export(unit, reader: reader, model: model) }
            try store.endRead()
            if !state.liveConnection, store.fileStamp() != state.fileStamp {
                throw ExportError.changedWhileReading(request.storePath)
            }
        } catch let error as StoreReaderError {
            throw .store(error)
        } catch let error as ExportError {
            throw error
        } catch {
            throw .store(.cannotOpen(path: store.path, reason: "\(error)"))
        }
        let manifest = ExportManifest(
            formatVersion: ExportManifest.currentFormatVersion, tool: "ferry \(FerryVersion.current)",
            createdAt: ExportDateText.format(Date().timeIntervalSinceReferenceDate) ?? "", source: request.storePath,
            storeUUID: store.metadata.storeUUID.uuidString, model: modelInfo, format: request.format,
            gzip: request.gzipLevel != nil, predicate: request.predicate, sort: request.sort, state: state, entities: files)
        try ManifestFile.write(manifest, to: request.outputFolder + "/" + ExportManifest.fileName, durable: request.durable)
        return manifest
    }

    /// The entities whose hierarchies are read: every root, or those asked for (an entity whose
    /// ancestor is also asked for is read with it).
    private func readUnits(_ model: ManagedObjectModel) throws(ExportError) -> [String] {
        guard !request.entities.isEmpty else { return model.entitiesInStoreOrder.filter { $0.parentName == nil }.map(\.name) }
        for name in request.entities where model.entity(named: name) == nil {
            throw .invalidRequest("no entity \(name) in model \(model.name) (entities: \(model.entities.map(\.name).sorted().joined(separator: ", ")))")
        }
        let asked = Set(request.entities)
        return request.entities.filter { name in !model.ancestry(of: name).dropFirst().contains { asked.contains($0.name) } }
    }

    /// Exports one entity hierarchy; returns the manifest entries of its concrete entities.
    private func export(_ unit: String, reader: StoreRecordReader, model: ManagedObjectModel) throws -> [ExportManifest.EntityFile] {
        var outputs: [String: EntityFileOutput] = [:]
        var order: [String] = []
        var streams: [String: ToManyStream] = [:]
        for entity in model.hierarchy(below: unit) where !entity.isAbstract {
            guard let layout = EntityExportLayout(model: model, entity: entity.name) else { continue }
            outputs[entity.name] = try EntityFileOutput(layout: layout, format: request.format, folder: request.outputFolder,
                                                        fileName: request.fileName(for: entity.name), gzipLevel: request.gzipLevel,
                                                        durable: request.durable)
            order.append(entity.name)
            for (relationship, owner) in zip(layout.toMany, layout.toManyOwners) where streams[owner + "." + relationship.name] == nil {
                streams[owner + "." + relationship.name] = ToManyStream(cursor: try reader.edges(of: relationship.name, of: owner))
            }
        }
        let selection = try RecordSelection(request: request, entity: unit, reader: reader)
        let sortOrder = try ExportSortOrder(request: request, entity: unit, reader: reader)
        var held: [Int64: (EntityFileOutput, ExportRow)] = [:]
        let records = try reader.records(of: unit)
        while let record = try records.next() {
            guard try selection.contains(record.primaryKey), let output = outputs[record.entity] else { continue }
            let layout = output.layout
            var row = ExportRow(primaryKey: record.primaryKey,
                                attributes: layout.attributes.map { record.attributes[$0.name] ?? .null },
                                toOne: layout.toOne.map { record.toOne[$0.name]?.primaryKey }, toMany: [])
            row.toMany.reserveCapacity(layout.toMany.count)
            for (relationship, owner) in zip(layout.toMany, layout.toManyOwners) {
                row.toMany.append(try streams[owner + "." + relationship.name]?.destinations(of: record.primaryKey) ?? [])
            }
            if sortOrder == nil { try output.write(row) } else { held[row.primaryKey] = (output, row) }
        }
        for key in sortOrder?.keys ?? [] {
            guard let (output, row) = held.removeValue(forKey: key) else { continue }
            try output.write(row)
        }
        return try order.compactMap { name throws(ExportError) in try outputs[name]?.finish(model: model) }
    }

    private func makeFolder(_ path: String) throws(ExportError) {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw .cannotWrite(path: path, reason: "\(error)")
        }
    }
}
