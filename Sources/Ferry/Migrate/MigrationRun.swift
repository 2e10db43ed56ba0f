import FerryMigration
import FerryModel
import FerryStore

/// The state of one migration while it runs: the graph writer, the ledgers and the reject log.
struct MigrationRun {
    let request: MigrateRequest
    let chain: MigrationChain
    let graph: StoreGraphWriter
    var summary: MigrationSummary
    private var rejectLog: RejectLog?
    private var rejectCount = 0
    private var finalSchemas: [String: RecordSchema] = [:]

    init(request: MigrateRequest, chain: MigrationChain, writer: CoreDataStoreWriter, final: ManagedObjectModel) {
        self.request = request
        self.chain = chain
        let entities = final.entities.map(\.name)
        var policies: [String: DuplicatePolicy] = [:]
        var identities: [String: [String]] = [:]
        for mapping in chain.steps.last?.entities ?? [] {
            if let policy = mapping.duplicates { policies[mapping.destination] = policy }
            if let identity = mapping.identity { identities[mapping.destination] = identity }
        }
        graph = StoreGraphWriter(
            writer: writer, model: final, duplicates: request.duplicates, duplicatesByEntity: policies, identityKeys: identities,
            createMissing: LinkCreation.relationships(in: final, entities: entities, linkAttributes: request.files.linkAttributes,
                                                      requested: []))
        summary = MigrationSummary(chain: chain.versions.map(\.name), outputPath: request.outputPath)
    }

    // MARK: Sources

    /// A store: its version found by its hashes, every record of every entity, then the edges
    /// that live apart from the rows (many-to-many, ordered one-to-many).
    mutating func migrateStore(_ path: String, namespace: Int) throws(MigrateError) {
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: path) } catch { throw .store(source: path, reason: error.description) }
        let (version, model) = try StoreVersion.match(store.metadata.versionHashes, in: chain.versions, source: path)
        let records: StoreRecordReader
        do { records = try store.records(model: model) } catch { throw .store(source: path, reason: error.description) }
        for root in model.entitiesInStoreOrder where root.parentName == nil {
            let cursor: StoredRecordCursor
            do { cursor = try records.records(of: root.name) } catch { throw .store(source: path, reason: error.description) }
            while true {
                let stored: StoredRecord
                do {
                    guard let next = try cursor.next() else { break }
                    stored = next
                } catch {
                    guard case .invalidValue = error else { throw .store(source: path, reason: error.description) }
                    var ledger = ledger(source: path, entity: root.name, version: version)
                    ledger.read += 1
                    try reject(Reject(location: SourceLocation(file: path), entity: root.name, reason: error.description), ledger: &ledger)
                    keep(ledger)
                    continue
                }
                guard let schema = chain.schema(version: version, entity: stored.entity) else { continue }
                let values = schema.attributes.map { stored.attributes[$0.name] ?? .null }
                let links = stored.toOne.compactMap { name, reference -> RecordLink? in
                    guard let relationship = model.allRelationships(of: stored.entity).first(where: { $0.name == name }),
                          model.inverse(of: relationship)?.isOrdered != true else { return nil }
                    return RecordLink(relationship: name, targets: [.key(.integer(reference.primaryKey))])
                }
                let record = Record(values: values, location: SourceLocation(file: path, path: "\(stored.entity) Z_PK \(stored.primaryKey)"),
                                    key: .integer(stored.primaryKey), links: links)
                try process(record, entity: stored.entity, version: version, source: path, namespace: namespace)
                if summary.stoppedEarly { return }
            }
        }
        try stageSeparateEdges(records, model: model, version: version, source: path, namespace: namespace)
    }

    /// Many-to-many pairs (from one side) and ordered one-to-many children (from the parent, to
    /// keep their order), staged by source key once their records are in.
    private mutating func stageSeparateEdges(_ records: StoreRecordReader, model: ManagedObjectModel, version: Int,
                                             source: String, namespace: Int) throws(MigrateError) {
        for entity in model.entities {
            for relationship in entity.relationships where relationship.isToMany {
                guard let inverse = model.inverse(of: relationship) else { continue }
                let isManyToMany = inverse.isToMany
                guard (isManyToMany && (entity.name, relationship.name) <= (relationship.destinationEntity, inverse.name))
                        || (!isManyToMany && relationship.isOrdered) else { continue }
                guard let carried = chain.finalRelationship(relationship.name, of: entity.name, from: version) else { continue }
                let cursor: RelationshipEdgeCursor
                do { cursor = try records.edges(of: relationship.name, of: entity.name) } catch {
                    throw .store(source: source, reason: error.description)
                }
                var current: (source: Int64, targets: [RecordLink.Target])?
                while true {
                    let edge: RelationshipEdge?
                    do { edge = try cursor.next() } catch { throw .store(source: source, reason: error.description) }
                    if let pending = current, edge?.source != pending.source {
                        try stage(RecordLink(relationship: carried.relationship, targets: pending.targets), key: pending.source,
                                  entity: carried.entity, namespace: namespace)
                        current = nil
                    }
                    guard let edge else { break }
                    current = (edge.source, (current?.targets ?? []) + [.key(.integer(edge.destination))])
                }
            }
        }
    }

    private func stage(_ link: RecordLink, key: Int64, entity: String, namespace: Int) throws(MigrateError) {
        do { try graph.stageLinks(link, ofRecordWithKey: .integer(key), entity: entity, namespace: namespace) } catch {
            throw .links(error)
        }
    }

    /// A legacy file, read as records of `entity` in the oldest version that has it (or `version`).
    mutating func migrateFile(_ source: MigrationSource, entity: String, version: String?, namespace: Int) throws(MigrateError) {
        let index: Int
        if let version {
            guard let found = chain.versions.firstIndex(where: { $0.name == version }) else {
                throw .unknownVersion(version, available: chain.versions.map(\.name))
            }
            index = found
        } else {
            guard let found = chain.versions.firstIndex(where: { $0.entity(named: entity) != nil }) else {
                throw .unknownEntity(source: source.path, entity: entity)
            }
            index = found
        }
        guard let schema = chain.schema(version: index, entity: entity) else { throw .unknownEntity(source: source.path, entity: entity) }
        let reader: any RecordStream
        do { reader = try request.files.open(source.path, model: chain.versions[index], schema: schema) } catch { throw .source(error) }
        while true {
            let result: RecordReadResult
            do {
                guard let next = try reader.next() else { break }
                result = next
            } catch {
                throw .source(error)
            }
            switch result {
            case .record(let record, _):
                try process(record, entity: entity, version: index, source: source.path, namespace: namespace)
            case .reject(let rejected):
                var ledger = ledger(source: source.path, entity: entity, version: index)
                ledger.read += 1
                try reject(rejected, ledger: &ledger)
                keep(ledger)
            }
            if summary.stoppedEarly { return }
        }
        if !reader.unknownKeys.isEmpty {
            summary.suggestions.append("\(source.path): keys matching nothing in \(entity) (\(chain.versions[index].name)), ignored: \(reader.unknownKeys.joined(separator: ", "))")
        }
    }

    // MARK: Records

    /// Carries one record through the chain and writes it, keeping its ledger.
    private mutating func process(_ record: Record, entity: String, version: Int, source: String, namespace: Int) throws(MigrateError) {
        var ledger = ledger(source: source, entity: entity, version: version)
        ledger.read += 1
        defer { keep(ledger) }
        let outcome: MigrationChain.Outcome
        do { outcome = try chain.carry(record, entity: entity, from: version) } catch { throw .mapping(error) }
        switch outcome {
        case .filtered:
            ledger.filtered += 1
        case .reject(let rejected):
            try reject(rejected, ledger: &ledger)
        case let .record(mapped, finalEntity, converted):
            ledger.converted += converted
            guard let schema = finalSchema(finalEntity) else {
                ledger.filtered += 1
                return
            }
            let written: StoreGraphWriter.Outcome
            do { written = try graph.write(mapped, schema: schema, namespace: namespace) } catch { throw .links(error) }
            switch written {
            case .inserted:
                ledger.written += 1
                summary.written[finalEntity, default: 0] += 1
            case .merged:
                ledger.merged += 1
            case .rejected(let reason):
                try self.reject(Reject(location: record.location, entity: entity, reason: reason), ledger: &ledger)
            }
        }
    }

    private mutating func finalSchema(_ entity: String) -> RecordSchema? {
        if let known = finalSchemas[entity] { return known }
        let made = RecordSchema(model: chain.last, entityName: entity)
        finalSchemas[entity] = made
        return made
    }

    private mutating func reject(_ reject: Reject, ledger: inout MigrationSummary.SourceLedger) throws(MigrateError) {
        ledger.rejected += 1
        rejectCount += 1
        if summary.sampleRejects.count < 20 { summary.sampleRejects.append(reject) }
        do { try rejectLog?.append(reject) } catch { throw .rejectLog(path: error.path, reason: error.reason) }
        if let limit = request.maxErrors, rejectCount >= limit { summary.stoppedEarly = true }
    }

    private func ledger(source: String, entity: String, version: Int) -> MigrationSummary.SourceLedger {
        summary.ledgers.first { $0.source == source && $0.entity == entity }
            ?? MigrationSummary.SourceLedger(source: source, entity: entity, version: chain.versions[version].name)
    }

    private mutating func keep(_ ledger: MigrationSummary.SourceLedger) {
        if let index = summary.ledgers.firstIndex(where: { $0.source == ledger.source && $0.entity == ledger.entity }) {
            summary.ledgers[index] = ledger
        } else {
            summary.ledgers.append(ledger)
        }
    }

    // MARK: Reject log

    mutating func openRejectLog() throws(MigrateError) {
        guard let path = request.rejectLogPath else { return }
        do { rejectLog = try RejectLog(path: path) } catch { throw .rejectLog(path: error.path, reason: error.reason) }
    }

    func closeRejectLog() throws(MigrateError) {
        do { try rejectLog?.close() } catch { throw .rejectLog(path: error.path, reason: error.reason) }
    }
}
