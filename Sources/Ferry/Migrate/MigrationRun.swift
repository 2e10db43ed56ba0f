import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryVerify

/// The state of one migration while it runs: the graph writer, the ledgers, the reject log and,
/// when the store is to be verified, the fingerprints of the values records carry unchanged.
struct MigrationRun {
    let request: MigrateRequest
    let chain: MigrationChain
    let graph: StoreGraphWriter
    var summary: MigrationSummary
    /// The carried values of the records written; nil when the store is not verified.
    private(set) var carriedValues: CarriedValueCheck?
    private var rejects: RejectCollector
    private var finalSchemas: [String: RecordSchema] = [:]
    /// The source (by position) whose objects keep their `Z_PK` and `Z_OPT`: the store whose
    /// UUID the new store keeps.
    var identitySource: Int?
    /// Told how far the run is, every `JobProgress.interval` records.
    var onProgress: (JobProgress) -> Void = { _ in }
    private var progress = JobProgress(phase: "")

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
        carriedValues = request.verify && !request.dryRun ? CarriedValueCheck() : nil
        rejects = RejectCollector(limit: request.maxErrors)
    }

    // MARK: Sources

    /// A store: its version found by its hashes, every record of every entity, then the edges
    /// that live apart from the rows (many-to-many, ordered one-to-many).
    mutating func migrateStore(_ path: String, namespace: Int) throws(MigrateError) {
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: path) } catch { throw .store(source: path, reason: ErrorText.reason(of: error, at: path)) }
        var hashes = store.metadata.versionHashes
        if hashes.isEmpty {
            // Metadata without hashes matches every version vacuously (and would carry no row):
            // the model the store carries says which version it is, or nothing does.
            guard let archived = try? StoreModelMatch.archivedModel(of: store) else { throw .noVersionHashes(source: path) }
            hashes = VersionHasher.hashes(of: archived).entityHashes
        }
        let version: Int, model: ManagedObjectModel
        switch StoreVersionMatch.match(hashes, in: chain.versions) {
        case .success(let match): (version, model) = (match.index, match.model)
        case .failure(let mismatch): throw .noMatchingVersion(source: path, differing: mismatch.differing)
        }
        let records: StoreRecordReader
        do { records = try store.records(model: model) } catch { throw .store(source: path, reason: ErrorText.reason(of: error, at: path)) }
        let census: StoreCensus
        do { census = try StoreCensus(path: path) } catch { throw .store(source: path, reason: "cannot count its rows: \(ErrorText.reason(of: error, at: path))") }
        let pairCensus: [String: Int64]
        do { pairCensus = try store.pairCensus(layout: records.layout) } catch {
            throw .store(source: path, reason: ErrorText.reason(of: error, at: path))
        }
        var pairs = PairTally()
        let readBefore = reads(from: path, version: version)
        startPhase("reading \(path)", total: Int(census.appRows))
        let location = SourceLocation(file: path)
        var plans: [String: StoreEntityPlan] = [:]
        var current: StoreEntityPlan?
        for root in model.entitiesInStoreOrder where root.parentName == nil {
            let cursor: StoredRecordCursor
            do { cursor = try records.records(of: root.name) } catch { throw .store(source: path, reason: ErrorText.reason(of: error, at: path)) }
            while true {
                let stored: StoredRecord
                do {
                    guard let next = try cursor.next() else { break }
                    stored = next
                } catch {
                    guard case .invalidValue = error else { throw .store(source: path, reason: ErrorText.reason(of: error, at: path)) }
                    // The row's pairs are accounted for with it: rejected.
                    if let entity = cursor.entityOfCurrentRow, let plan = plans[entity] ?? storePlan(entity, model: model, layout: records.layout, version: version, source: path) {
                        for (position, name) in (cursor.toOneNames(of: entity) ?? []).enumerated() {
                            guard let index = plan.toOne.firstIndex(of: name), (try? cursor.reference(at: position)) != nil else { continue }
                            pairs.add(plan.toOneStorage[index])
                        }
                    }
                    let ledger = ledger(source: path, entity: cursor.entityOfCurrentRow ?? root.name, version: version)
                    summary.ledgers[ledger].read += 1
                    try reject(Reject(location: location, entity: root.name, reason: error.description), ledger: ledger)
                    continue
                }
                if current?.entity.entity != stored.entity {
                    current = plans[stored.entity] ?? storePlan(stored.entity, model: model, layout: records.layout, version: version, source: path)
                    plans[stored.entity] = current
                }
                guard let plan = current else { continue }
                let values = plan.attributeNames.map { stored.attributes[$0] ?? .null }
                var links: [RecordLink] = []
                for (index, name) in plan.toOne.enumerated() {
                    guard let reference = stored.toOne[name] else { continue }
                    links.append(RecordLink(relationship: name, targets: [.key(.integer(reference.primaryKey))]))
                    pairs.add(plan.toOneStorage[index])
                }
                let identity = identitySource == namespace ? ObjectIdentity(primaryKey: stored.primaryKey, version: stored.version) : nil
                let record = Record(values: values, location: location, key: .integer(stored.primaryKey), links: links,
                                    identity: identity)
                try process(record, plan: plan.entity, namespace: namespace, storeRow: stored.primaryKey)
                if summary.stoppedEarly { return }
            }
        }
        try stageSeparateEdges(records, model: model, version: version, source: path, namespace: namespace,
                               pairs: &pairs, census: pairCensus)
        var delivered: [Int64: Int64] = [:]
        for (entity, count) in reads(from: path, version: version) {
            let number = records.layout.entityNumbers[entity].map(Int64.init) ?? -1
            delivered[number, default: 0] += Int64(count - readBefore[entity, default: 0])
        }
        let problems = census.discrepancies(delivered: delivered) + pairs.discrepancies(census: pairCensus)
        guard problems.isEmpty else { throw .notAccounted(source: path, problems: problems) }
    }

    /// Begins a phase of the run and reports it.
    mutating func startPhase(_ phase: String, total: Int?) {
        progress = JobProgress(phase: phase, total: total)
        onProgress(progress)
    }

    /// Records of the source's own version read from it so far, by entity: records made from
    /// them (`MadeRecordRule`), which enter at a later version, have ledgers of their own.
    private func reads(from source: String, version: Int) -> [String: Int] {
        let name = chain.versions[version].name
        return summary.ledgers.reduce(into: [:]) { reads, ledger in
            if ledger.source == source, ledger.version == name { reads[ledger.entity, default: 0] += ledger.read }
        }
    }

    /// What reading rows of one entity of a store needs; nil when the version has no such entity.
    private mutating func storePlan(_ entity: String, model: ManagedObjectModel, layout: StoreLayout, version: Int,
                                    source: String) -> StoreEntityPlan? {
        guard let schema = chain.schema(version: version, entity: entity) else { return nil }
        let toOne = model.allRelationships(of: entity).filter { relationship in
            !relationship.isToMany && model.inverse(of: relationship)?.isOrdered != true
        }
        let plan = entityPlan(entity, schema: schema, version: version, source: source)
        return StoreEntityPlan(entity: plan, attributeNames: schema.attributes.map(\.name), toOne: toOne.map(\.name),
                               toOneStorage: toOne.map { layout.placement(of: $0.name, of: entity)?.storageName })
    }

    /// Many-to-many pairs (from one side), ordered one-to-many children (from the parent, to
    /// keep their order) and the destinations of to-many relationships without an inverse (no
    /// record of the other side carries them), staged by source key once their records are in,
    /// one edge at a time (their position counted per source record).
    ///
    /// Every pair is counted in `pairs`; the pairs of a relationship the chain does not carry
    /// are counted as the census has them, dropped on purpose, and named in the summary.
    private mutating func stageSeparateEdges(_ records: StoreRecordReader, model: ManagedObjectModel, version: Int,
                                             source: String, namespace: Int, pairs: inout PairTally,
                                             census: [String: Int64]) throws(MigrateError) {
        for entity in model.entities {
            for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient {
                if let inverse = model.inverse(of: relationship) {
                    let isManyToMany = inverse.isToMany
                    guard (isManyToMany && (entity.name, relationship.name) <= (relationship.destinationEntity, inverse.name))
                            || (!isManyToMany && relationship.isOrdered) else { continue }
                }
                let storage = records.layout.placement(of: relationship.name, of: entity.name)?.storageName
                guard let carried = chain.finalRelationship(relationship.name, of: entity.name, from: version) else {
                    let dropped = storage.flatMap { census[$0] } ?? 0
                    pairs.add(storage, dropped)
                    if dropped > 0 {
                        summary.suggestions.append("\(source): \(dropped) pairs of \(entity.name).\(relationship.name) not carried: "
                            + "\(chain.last.name) has no relationship they become")
                    }
                    continue
                }
                let cursor: RelationshipEdgeCursor
                do { cursor = try records.edges(of: relationship.name, of: entity.name) } catch {
                    throw .store(source: source, reason: ErrorText.reason(of: error, at: source))
                }
                var previous: Int64?
                var position = 0
                while true {
                    let edge: RelationshipEdge?
                    do { edge = try cursor.next() } catch { throw .store(source: source, reason: ErrorText.reason(of: error, at: source)) }
                    guard let edge else { break }
                    position = edge.source == previous ? position + 1 : 0
                    previous = edge.source
                    pairs.add(storage)
                    do {
                        try graph.stageLink(to: .key(.integer(edge.destination)), position: position, relationship: carried.relationship,
                                            ofRecordWithKey: .integer(edge.source), entity: carried.entity, namespace: namespace,
                                            file: source)
                    } catch {
                        throw .links(error)
                    }
                }
            }
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
        let opened: FileRecordSource.Opened
        do { opened = try request.files.open(source.path, model: chain.versions[index], schema: schema) } catch { throw .source(error) }
        let reader = opened.records
        startPhase("reading \(source.path)", total: nil)
        if let delimiter = opened.delimiter { summary.delimiters[source.path] = delimiter }
        var plan: EntityPlan?
        var read = 0
        while true {
            let result: RecordReadResult
            do {
                guard let next = try reader.next() else { break }
                result = next
            } catch {
                throw .source(error)
            }
            let current = plan ?? entityPlan(entity, schema: schema, version: index, source: source.path)
            plan = current
            read += 1
            switch result {
            case .record(let record, _):
                try process(record, plan: current, namespace: namespace, storeRow: nil)
            case .reject(let rejected):
                summary.ledgers[current.ledger].read += 1
                try reject(rejected, ledger: current.ledger)
            }
            if summary.stoppedEarly { return }
        }
        if read > 0, !reader.matchesAnyKey {
            throw .source(.noMatchingKey(source: source.path, keys: reader.unknownKeys, entity: entity))
        }
        if reader.skippedLines > 0 {
            let ledger = plan?.ledger ?? ledger(source: source.path, entity: entity, version: index)
            summary.ledgers[ledger].read += reader.skippedLines
            summary.ledgers[ledger].skipped += reader.skippedLines
        }
        summary.duplicateKeys += reader.duplicateKeys
        if !reader.unknownKeys.isEmpty {
            summary.suggestions.append("\(source.path): keys matching nothing in \(entity) (\(chain.versions[index].name)), ignored: "
                + NameListText.summary(reader.unknownKeys))
        }
    }

    // MARK: Records

    /// What carrying records of one source entity needs, found once per source and entity.
    private struct EntityPlan {
        let entity: String
        let route: MigrationChain.Route
        /// The schema of the entity the records become in the last version.
        let finalSchema: RecordSchema?
        /// The index of the source and entity's ledger in `summary.ledgers`.
        let ledger: Int
        /// The source, and the index of the model version its records are read as.
        let source: String
        let version: Int
        /// What the route carries unchanged, when carried values are checked.
        let carried: CarriedAttributes?
    }

    /// An entity plan with what turns a store's rows into records.
    private struct StoreEntityPlan {
        let entity: EntityPlan
        /// The source schema's attribute names, in its order.
        let attributeNames: [String]
        /// The to-one relationships whose foreign keys become links, in model order.
        let toOne: [String]
        /// Where the store keeps each of `toOne`'s pairs, for the pair tally.
        let toOneStorage: [String?]
    }

    /// - Parameter topLevel: records read from the source itself (not carried by others), whose
    ///   carried values are checked.
    private mutating func entityPlan(_ entity: String, schema: RecordSchema, version: Int, source: String,
                                     topLevel: Bool = true) -> EntityPlan {
        let route = chain.route(entity: entity, from: version)
        let carried = topLevel && carriedValues != nil ? CarriedAttributes(route: route, chain: chain, schema: schema) : nil
        return EntityPlan(entity: entity, route: route, finalSchema: route.finalEntity.flatMap { finalSchema($0) },
                          ledger: ledger(source: source, entity: entity, version: version), source: source, version: version,
                          carried: carried)
    }

    /// Carries one record through the chain and writes it, keeping its ledger. `storeRow` is the
    /// `Z_PK` of a store's row, named in the location of its rejects.
    ///
    /// The records it carries (nested objects of a file) are carried first, each by the route of
    /// its own entity from the same version, and counted in the ledger of their source and entity
    /// once the record is written or merged: a carried record that a mapping rejects rejects the
    /// record; one that a mapping filters out is counted as filtered and the record's link to it
    /// is dropped. Records a mapping makes from the record's values (`folder = Folder(name: …)`)
    /// are carried the same way from the version they are made in, once the record has been.
    private mutating func process(_ record: Record, plan: EntityPlan, namespace: Int, storeRow: Int64?) throws(MigrateError) {
        let ledger = plan.ledger
        summary.ledgers[ledger].read += 1
        progress.done += 1
        if progress.done % JobProgress.interval == 0 { onProgress(progress) }
        var carried = CarriedRecords()
        if !record.embedded.isEmpty {
            if let rejected = try carry(EmbeddedRecord.flattened(record).map { (plan.version, $0) }, source: plan.source, into: &carried) {
                try reject(rejected, ledger: ledger)
                return
            }
        }
        let outcome: MigrationChain.Outcome
        do { outcome = try chain.carry(record, route: plan.route) } catch { throw .mapping(error) }
        switch outcome {
        case .filtered:
            summary.ledgers[ledger].filtered += 1
        case .reject(var rejected):
            rejected.location = location(of: record, plan: plan, storeRow: storeRow)
            try reject(rejected, ledger: ledger)
        case .record(var mapped, let finalEntity, let converted, let made):
            summary.ledgers[ledger].converted += converted
            guard let schema = plan.finalSchema else {
                summary.ledgers[ledger].filtered += 1
                return
            }
            if !made.isEmpty, var rejected = try carry(made, source: plan.source, into: &carried) {
                if storeRow != nil { rejected.location = location(of: record, plan: plan, storeRow: storeRow) }
                try reject(rejected, ledger: ledger)
                return
            }
            mapped.embedded = carried.records
            carried.dropLinks(of: &mapped)
            var outcomes: [StoreGraphWriter.EmbeddedOutcome] = []
            let written: StoreGraphWriter.Outcome
            do { written = try graph.write(mapped, schema: schema, namespace: namespace, embedded: &outcomes) } catch { throw .links(error) }
            switch written {
            case .inserted:
                summary.ledgers[ledger].written += 1
                summary.written[finalEntity, default: 0] += 1
                if let attributes = plan.carried {
                    carriedValues?.written(record.values, carried: attributes, entity: finalEntity, row: graph.lastPrimaryKey,
                                           remembering: graph.policy(for: finalEntity) == .keepNewest)
                }
            case .merged:
                summary.ledgers[ledger].merged += 1
                if let attributes = plan.carried, graph.policy(for: finalEntity) == .keepNewest {
                    carriedValues?.written(record.values, carried: attributes, entity: finalEntity, row: graph.lastPrimaryKey,
                                           replacing: true)
                }
            case .rejected(let reason):
                try self.reject(Reject(location: location(of: record, plan: plan, storeRow: storeRow), entity: plan.entity, reason: reason),
                                ledger: ledger)
                return
            }
            for (ledger, converted) in carried.counts {
                summary.ledgers[ledger].read += 1
                summary.ledgers[ledger].converted += converted
            }
            for ledger in carried.filtered { summary.ledgers[ledger].filtered += 1 }
            for outcome in outcomes {
                guard let key = outcome.key, let ledger = carried.ledgers[key] else { continue }
                if case .merged = outcome.outcome {
                    summary.ledgers[ledger].merged += 1
                } else {
                    summary.ledgers[ledger].written += 1
                    summary.written[outcome.entity, default: 0] += 1
                    carriedValues?.exclude(outcome.entity, because: "records carried or made by other records")
                }
            }
        }
    }

    /// The records a record carries, carried to the last version and not yet counted.
    private struct CarriedRecords {
        /// The carried records in writing order (each before its carrier), nothing nested.
        var records: [EmbeddedRecord] = []
        /// Each carried record's ledger, by its key, for the writer's outcomes.
        var ledgers: [RecordKey: Int] = [:]
        /// One entry per carried record read: its ledger, and the values its mapping converted.
        var counts: [(ledger: Int, converted: Int)] = []
        /// The ledger of each carried record a mapping filtered out.
        var filtered: [Int] = []
        /// The keys of the records filtered out, which links must no longer name.
        var dropped: Set<RecordKey> = []

        /// Removes the links to records filtered out, from a record and the records it carries.
        func dropLinks(of record: inout Record) {
            guard !dropped.isEmpty else { return }
            func strip(_ links: [RecordLink]) -> [RecordLink] {
                links.map { link in
                    RecordLink(relationship: link.relationship, targets: link.targets.filter { target in
                        if case .key(let key) = target { !dropped.contains(key) } else { true }
                    })
                }
            }
            record.links = strip(record.links)
            for index in record.embedded.indices { record.embedded[index].record.links = strip(record.embedded[index].record.links) }
        }
    }

    /// Carries records a record carries (flattened, in writing order), each through the chain
    /// from the version it is in, and the records mappings make from their values on the way;
    /// the reject of the first that a mapping rejects, located at its key path.
    private mutating func carry(_ embedded: [(version: Int, record: EmbeddedRecord)], source: String,
                                into carried: inout CarriedRecords) throws(MigrateError) -> Reject? {
        for (version, item) in embedded {
            guard let schema = chain.schema(version: version, entity: item.entity) else {
                return Reject(location: item.record.location, entity: item.entity,
                              reason: "\(item.entity) is not in \(chain.versions[version].name)")
            }
            let itemPlan = entityPlan(item.entity, schema: schema, version: version, source: source, topLevel: false)
            let outcome: MigrationChain.Outcome
            do { outcome = try chain.carry(item.record, route: itemPlan.route) } catch { throw .mapping(error) }
            switch outcome {
            case .reject(var rejected):
                rejected.location = item.record.location
                return rejected
            case .filtered:
                carried.counts.append((itemPlan.ledger, 0))
                carried.filtered.append(itemPlan.ledger)
                if let key = item.record.key { carried.dropped.insert(key) }
            case let .record(mapped, finalEntity, converted, made):
                carried.counts.append((itemPlan.ledger, converted))
                guard itemPlan.finalSchema != nil else {
                    carried.filtered.append(itemPlan.ledger)
                    if let key = item.record.key { carried.dropped.insert(key) }
                    continue
                }
                if !made.isEmpty, let rejected = try carry(made, source: source, into: &carried) { return rejected }
                if let key = mapped.key { carried.ledgers[key] = itemPlan.ledger }
                carried.records.append(EmbeddedRecord(entity: finalEntity, record: mapped, findByValues: item.findByValues))
            }
        }
        return nil
    }

    /// Where a record came from, for its reject: a store row is named by entity and `Z_PK`
    /// (made only when a record is rejected).
    private func location(of record: Record, plan: EntityPlan, storeRow: Int64?) -> SourceLocation {
        guard let storeRow else { return record.location }
        var location = record.location
        location.path = "\(plan.entity) Z_PK \(storeRow)"
        return location
    }

    private mutating func finalSchema(_ entity: String) -> RecordSchema? {
        if let known = finalSchemas[entity] { return known }
        let made = RecordSchema(model: chain.last, entityName: entity)
        finalSchemas[entity] = made
        return made
    }

    private mutating func reject(_ reject: Reject, ledger: Int) throws(MigrateError) {
        summary.ledgers[ledger].rejected += 1
        do { summary.stoppedEarly = try rejects.add(reject) || summary.stoppedEarly } catch {
            throw .failedRejectLog(error)
        }
        summary.sampleRejects = rejects.samples
    }

    /// The index of the ledger of a source and entity, added on first use.
    private mutating func ledger(source: String, entity: String, version: Int) -> Int {
        if let index = summary.ledgers.firstIndex(where: { $0.source == source && $0.entity == entity }) { return index }
        summary.ledgers.append(MigrationSummary.SourceLedger(source: source, entity: entity, version: chain.versions[version].name))
        return summary.ledgers.count - 1
    }

    // MARK: Reject log

    mutating func openRejectLog() throws(MigrateError) {
        do { try rejects.openLog(at: request.rejectLogPath) } catch {
            throw .failedRejectLog(error)
        }
    }

    /// Resolves the staged links; those that find nothing go to the reject log.
    mutating func resolveLinks() throws(MigrateError) {
        startPhase("resolving links", total: nil)
        do { summary.links = try graph.resolveLinks { rejects.logUnresolved($0) } } catch { throw .links(error) }
    }

    func closeRejectLog() throws(MigrateError) {
        do { try rejects.close() } catch { throw .failedRejectLog(error) }
    }
}
