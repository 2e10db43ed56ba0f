import FerryModel

/// The one record pipeline of `import`, `migrate` and `restore`: reads each source's records,
/// carries each through the chain of model versions (a chain of one version carries nothing),
/// writes it with the records it carries into the store graph, and keeps the ledgers; links are
/// resolved once every source is in. Verifying the store and renaming it into place are the
/// job's.
///
/// Every record read is written, merged, rejected or filtered, per source and entity
/// (`ledgers`), and for the sources' own records alone (`records`). Rejects go to the
/// `RejectCollector`, which stops the run at its limit (`stoppedEarly`).
public struct RecordPipeline {
    public let chain: MigrationChain
    public let graph: StoreGraphWriter
    public private(set) var ledgers: [SourceLedger] = []
    /// Destination entity → records written into it (carried ones included), once each source is read.
    public private(set) var written: [String: Int] = [:]
    /// The sources' own records, all sources together.
    public private(set) var records = RecordTally()
    /// The records carried by others, per destination entity.
    public private(set) var carried: [String: CarriedCount] = [:]
    /// What the sources told about themselves, in order.
    public private(set) var notes: [SourceNote] = []
    /// The attributes whose model default records took for want of their key, added up over the sources.
    public private(set) var absentDefaults: [AbsentDefault] = []
    public private(set) var stoppedEarly = false
    /// Watches the records written (nil: none).
    public var observer: (any RecordPipelineObserver)?
    /// Whether records keep the `Z_PK` their source gives them (`SourceItem.record`'s `row`),
    /// each hierarchy's records coming in key order: a restore.
    public var keepsSourceKeys = false
    /// Told the phase and how far it is, every `JobProgress.interval` records.
    public var onProgress: (JobProgress) -> Void = { _ in }
    /// The entities the run's sources hold records of, by version (a store: every entity of its
    /// version; a file: its entity), set before the first is read: a required relationship that
    /// none of them can fill then rejects each record lacking it (`needingDestinations`). Nil:
    /// not known, and such records are left to verification.
    public var sourceEntities: [Int: Set<String>]?
    private var rejects: RejectCollector
    private var progress = JobProgress(phase: "")
    private var finalSchemas: [String: RecordSchema] = [:]
    private var sourceKeys = SourceKeyOrder()

    public init(chain: MigrationChain, graph: StoreGraphWriter, rejects: RejectCollector) {
        self.chain = chain
        self.graph = graph
        self.rejects = rejects
    }

    /// The first rejects, for the terminal.
    public var sampleRejects: [Reject] { rejects.samples }

    /// Begins a phase of the run and reports it.
    public mutating func startPhase(_ phase: String, total: Int?) {
        progress = JobProgress(phase: phase, total: total)
        onProgress(progress)
    }

    /// Reads every item of `cursor` into the graph; `namespace` tells sources apart, so the same
    /// key in two sources names two records.
    public mutating func read(_ cursor: any RecordCursor, namespace: Int) throws(PipelineError) {
        startPhase("reading \(cursor.path)", total: cursor.total)
        graph.validatesValues = cursor.bringsNewObjects
        var plans: [String: EntityPlan] = [:]
        var current: EntityPlan?
        let readBefore = reads(from: cursor.path, version: cursor.version)
        reading: while !stoppedEarly {
            // A file's records are handed over where its reader holds them (not copied).
            let step = try cursor.step { record, entity, defaulted, row throws(PipelineError) in
                try readRecord(record, entity: entity, defaulted: defaulted, row: row, of: cursor, namespace: namespace, plans: &plans,
                               current: &current)
            }
            let item: SourceItem
            switch consume step {
            case .item(let next): item = next
            case .handed: continue
            case .end: break reading
            }
            switch consume item {
            case let .record(record, entity, defaulted, row):
                try readRecord(record, entity: entity, defaulted: defaulted, row: row, of: cursor, namespace: namespace, plans: &plans,
                               current: &current)
            case let .reject(reject, entity):
                let known = plans[entity] ?? plan(entity, of: cursor)
                plans[entity] = known
                let ledger = known?.ledger ?? self.ledger(source: cursor.path, entity: entity, version: cursor.version)
                ledgers[ledger].read += 1
                records.read += 1
                try self.reject(reject, ledger: ledger)
            case .link(let link):
                do {
                    try graph.stageLink(to: .key(link.target), position: link.position, relationship: link.relationship,
                                        ofRecordWithKey: link.source, entity: link.entity, namespace: namespace, file: cursor.path,
                                        missingSourceAt: link.missingSourceAt, inverseWasToMany: link.inverseWasToMany)
                } catch {
                    throw .links(error)
                }
            }
        }
        for plan in plans.values where plan.inserted > 0 { written[plan.finalEntity, default: 0] += plan.inserted }
        let read = reads(from: cursor.path, version: cursor.version).reduce(into: [String: Int]()) { read, entry in
            read[entry.key] = entry.value - readBefore[entry.key, default: 0]
        }
        let end = try cursor.finish(read: read, stopped: stoppedEarly)
        if end.skippedLines > 0, let entity = end.entity {
            let ledger = ledger(source: cursor.path, entity: entity, version: cursor.version)
            ledgers[ledger].read += end.skippedLines
            ledgers[ledger].skipped += end.skippedLines
            records.read += end.skippedLines
            records.skipped += end.skippedLines
        }
        notes += end.notes
        absentDefaults = AbsentDefault.merged(absentDefaults + end.absentDefaults)
    }

    /// Carries one record of `cursor` and writes it (`process`), by the plan of its entity:
    /// `current`, the last record's, unless the entity differs (then found in `plans`, or made).
    private mutating func readRecord(_ record: borrowing Record, entity: String, defaulted: Bool, row: Int64?, of cursor: any RecordCursor,
                                     namespace: Int, plans: inout [String: EntityPlan], current: inout EntityPlan?) throws(PipelineError) {
        if current?.entity != entity {
            current = plans[entity] ?? plan(entity, of: cursor)
            plans[entity] = current
        }
        guard let plan = current else { return }
        if defaulted { records.defaulted += 1 }
        try process(record, plan: plan, namespace: namespace, storeRow: row)
    }

    /// Records of the source's own version read from it so far, by entity (ledgers count every
    /// record read): records made from them (`MadeRecordRule`), which enter at a later version,
    /// have ledgers of their own.
    private func reads(from source: String, version: Int) -> [String: Int] {
        let name = chain.versions[version].name
        return ledgers.reduce(into: [:]) { reads, ledger in
            if ledger.source == source, ledger.version == name { reads[ledger.entity, default: 0] += ledger.read }
        }
    }

    /// Ends the run once every source is read: resolves the staged links (those that find
    /// nothing go to the reject log; none when the run stopped early) and closes the reject log.
    /// A record whose required to-one found nothing was removed again: it moves from written
    /// (or merged) to rejected in its ledger.
    public mutating func finish() throws(PipelineError) -> [LinkReport] {
        var links: [LinkReport] = []
        if !stoppedEarly {
            startPhase("resolving links", total: nil)
            var removed: [RejectedRecords] = []
            var carriedChanges: [CarriedRecordsChange] = []
            do {
                links = try graph.resolveLinks(unresolved: { rejects.logUnresolved($0) }, rejected: { removed.append($0) },
                                               removedWith: { rejects.logRemoved($0) },
                                               carried: { carriedChanges.append($0) })
            } catch {
                throw .links(error)
            }
            for change in carriedChanges { account(change) }
            for records in removed {
                account(records)
                stoppedEarly = rejects.countRemoved(records.count) || stoppedEarly
            }
        }
        do { try rejects.close() } catch { throw .rejectLog(error) }
        return links
    }

    /// Moves carried records between the counts of their ledger and of the carried summary as
    /// `change` says: gone with a removed carrier (no longer counted, as those of a carrier rejected
    /// when it is written are not, `process`), dropped with a copy not kept (merged), or holding a
    /// row another one went from (written).
    private mutating func account(_ change: CarriedRecordsChange) {
        let (entity, ledger, count) = (change.entity, change.ledger, change.count)
        switch change.change {
        case .removed(merged: true):
            ledgers[ledger].read -= count
            ledgers[ledger].merged -= count
            carried[entity, default: .init()].merged -= count
        case .removed(merged: false):
            ledgers[ledger].read -= count
            ledgers[ledger].written -= count
            written[entity, default: 0] -= count
            carried[entity, default: .init()].written -= count
        case .dropped:
            ledgers[ledger].written -= count
            ledgers[ledger].merged += count
            written[entity, default: 0] -= count
            carried[entity, default: .init()].written -= count
            carried[entity, default: .init()].droppedWithCopies += count
        case .handedOver:
            ledgers[ledger].merged -= count
            ledgers[ledger].written += count
            written[entity, default: 0] += count
            carried[entity, default: .init()].merged -= count
            carried[entity, default: .init()].written += count
        }
    }

    /// Moves records removed at link resolution from written (or merged) to rejected.
    private mutating func account(_ removed: RejectedRecords) {
        if removed.merged {
            ledgers[removed.ledger].merged -= removed.count
            records.merged -= removed.count
        } else {
            ledgers[removed.ledger].written -= removed.count
            records.written -= removed.count
            written[removed.entity, default: 0] -= removed.count
        }
        ledgers[removed.ledger].rejected += removed.count
        records.rejected += removed.count
    }

    // MARK: Records

    /// What carrying records of one source entity needs, found once per source and entity (a
    /// class, so that handing it to each record copies one reference, not its fields).
    private final class EntityPlan {
        let entity: String
        let route: MigrationChain.Route
        /// The schema of the entity the records become in the last version, and the root of its hierarchy.
        let finalSchema: RecordSchema?
        let finalRoot: String?
        /// The index of the source and entity's ledger in `ledgers`.
        let ledger: Int
        /// The source, and the index of the model version its records are read as.
        let source: String
        let version: Int
        /// The observer's token for the records, when it watches them.
        let watched: Int?
        /// The entity the records become in the last version ("" when they become none).
        let finalEntity: String
        /// Whether the records' route has no mapping step: they are written as read.
        let writtenAsRead: Bool
        /// What the version read says of the other sides of the records' relationships
        /// (`StoreGraphWriter.write`'s `sides`).
        let sides: LinkSides
        /// The relationships of the last version that need a destination (a required to-one, a
        /// to-many with a minimum count) and that the records' own links fill
        /// (`RecordCursor.relationshipsInRecords`): a new object without one is rejected, as Core
        /// Data would refuse to save it (`StoreGraphWriter.write`'s `emptyRequired`).
        let requiredInRecord: [String]
        /// The records inserted so far (counted into `written` once the source is read).
        var inserted = 0

        init(entity: String, route: MigrationChain.Route, finalSchema: RecordSchema?, finalRoot: String?, ledger: Int, source: String,
             version: Int, watched: Int?, sides: LinkSides, requiredInRecord: [String]) {
            self.entity = entity
            self.route = route
            self.finalSchema = finalSchema
            self.finalRoot = finalRoot
            self.ledger = ledger
            self.source = source
            self.version = version
            self.watched = watched
            self.sides = sides
            self.requiredInRecord = requiredInRecord
            finalEntity = route.finalEntity ?? ""
            writtenAsRead = route.mappings.isEmpty && route.refusal == nil && route.finalEntity != nil && finalSchema != nil
        }
    }

    /// The plan of records of `entity` read from `cursor` itself; nil when the version has no
    /// such entity.
    private mutating func plan(_ entity: String, of cursor: any RecordCursor) -> EntityPlan? {
        guard let schema = chain.schema(version: cursor.version, entity: entity) else { return nil }
        return entityPlan(entity, schema: schema, version: cursor.version, source: cursor.path, topLevel: true,
                          keepsOneToOneSides: cursor.keepsOneToOneSides, inRecords: cursor.relationshipsInRecords(of: entity))
    }

    /// - Parameters:
    ///   - topLevel: records read from the source itself (not carried by others), which the
    ///     observer may watch.
    ///   - keepsOneToOneSides: the source gives both sides of its one-to-ones (`RecordCursor`).
    ///   - inRecords: the relationships the records' own links fill (`RecordCursor`).
    private mutating func entityPlan(_ entity: String, schema: RecordSchema, version: Int, source: String, topLevel: Bool,
                                     keepsOneToOneSides: Bool = false, inRecords: Set<String>? = nil) -> EntityPlan {
        let route = chain.route(entity: entity, from: version)
        let watched = topLevel ? observer?.watch(route: route, schema: schema) : nil
        return EntityPlan(entity: entity, route: route, finalSchema: route.finalEntity.flatMap { finalSchema($0) },
                          finalRoot: route.finalEntity.flatMap { chain.last.rootEntity(of: $0)?.name },
                          ledger: ledger(source: source, entity: entity, version: version), source: source, version: version,
                          watched: watched,
                          sides: chain.linkSides(of: entity, from: version, keepsOneToOneSides: keepsOneToOneSides),
                          requiredInRecord: needingDestinations(in: inRecords ?? [], of: entity, from: version, becoming: route.finalEntity))
    }

    /// Those of `names` (relationships of `entity` in version `from`) that become relationships of
    /// `final` in the last version that need a destination (a required to-one, a to-many with a
    /// minimum count: Core Data refuses an object without), by their names there.
    /// With `sourceEntities` known, also those that nothing in the run fills
    /// (`MigrationChain.unfilledRequired`): each record is rejected for them, as Core Data would
    /// refuse it, not left for verification to fail the whole run.
    private func needingDestinations(in names: Set<String>, of entity: String, from version: Int, becoming final: String?) -> [String] {
        guard let final else { return [] }
        let required = chain.last.allRelationships(of: final).filter { $0.minimumDestinations > 0 }
        let filled = names.sorted().compactMap { name -> String? in
            guard let carried = chain.finalRelationship(name, of: entity, from: version), carried.entity == final,
                  required.contains(where: { $0.name == carried.relationship }) else { return nil }
            return carried.relationship
        }
        guard let sourceEntities else { return filled }
        return filled + chain.unfilledRequired(of: final, for: entity, from: version, sources: sourceEntities).filter { !filled.contains($0) }
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
    private mutating func process(_ record: Record, plan: EntityPlan, namespace: Int, storeRow: Int64?) throws(PipelineError) {
        let ledger = plan.ledger
        ledgers[ledger].read += 1
        records.read += 1
        progress.done += 1
        if progress.done % JobProgress.interval == 0 { onProgress(progress) }
        if plan.writtenAsRead, record.embedded.isEmpty {
            // No mapping step and nothing carried: what the chain would hand back is the record.
            try write(record, read: record, plan: plan, carried: nil, namespace: namespace, storeRow: storeRow)
            return
        }
        var carried = CarriedRecords()
        if !record.embedded.isEmpty {
            if let rejected = try carry(EmbeddedRecord.flattened(record).map { (plan.version, $0) }, source: plan.source, namespace: namespace,
                                        into: &carried) {
                try reject(rejected, ledger: ledger)
                return
            }
        }
        let outcome: MigrationChain.Outcome
        do { outcome = try chain.carry(record, route: plan.route) } catch { throw .mapping(error) }
        switch outcome {
        case .filtered:
            try leaveOut(record, ledger: ledger, namespace: namespace)
            try writeAlone(carried, namespace: namespace)
        case .reject(var rejected):
            rejected.location = location(of: record, plan: plan, storeRow: storeRow)
            try reject(rejected, ledger: ledger)
        case .record(var mapped, _, let converted, let made):
            ledgers[ledger].converted += converted
            guard plan.finalSchema != nil else {
                try leaveOut(record, ledger: ledger, namespace: namespace)
                try writeAlone(carried, namespace: namespace)
                return
            }
            if !made.isEmpty, var rejected = try carry(made, source: plan.source, namespace: namespace, into: &carried) {
                if storeRow != nil { rejected.location = location(of: record, plan: plan, storeRow: storeRow) }
                try reject(rejected, ledger: ledger)
                return
            }
            mapped.embedded = carried.records
            try write(mapped, read: record, plan: plan, carried: carried, namespace: namespace, storeRow: storeRow)
        }
    }

    /// Counts `record` as filtered, and marks its key left out, so that links to it are dropped
    /// with it rather than reported as finding nothing.
    private mutating func leaveOut(_ record: Record, ledger: Int, namespace: Int) throws(PipelineError) {
        ledgers[ledger].filtered += 1
        records.filtered += 1
        try leaveOut(carried: record, namespace: namespace)
    }

    /// Marks the key of `record`, filtered out, left out.
    private func leaveOut(carried record: Record, namespace: Int) throws(PipelineError) {
        guard let key = record.key else { return }
        do { try graph.markLeftOut(key, namespace: namespace) } catch { throw .links(error) }
    }

    /// Writes `mapped` (what `record`, as read, became in the last version: a record of the
    /// plan's final schema) with the records it carries, and counts the outcome in the ledgers.
    /// The schema is read from the plan where it is used, not copied per record.
    private mutating func write(_ mapped: Record, read record: Record, plan: EntityPlan, carried: CarriedRecords?, namespace: Int,
                                storeRow: Int64?) throws(PipelineError) {
        let ledger = plan.ledger
        var keptKey: (key: Int64, root: String)?
        if keepsSourceKeys, let storeRow, let root = plan.finalRoot {
            try sourceKeys.reserve(storeRow, root: root, graph: graph, source: record.location.file)
            keptKey = (storeRow, root)
        }
        let emptyRequired = plan.requiredInRecord.isEmpty ? []
            : plan.requiredInRecord.filter { name in !mapped.links.contains { $0.relationship == name && !$0.targets.isEmpty } }
        var outcomes: [StoreGraphWriter.EmbeddedOutcome] = []
        let written: StoreGraphWriter.Outcome
        do {
            written = try graph.write(mapped, schema: plan.finalSchema!, namespace: namespace, sides: plan.sides, embedded: &outcomes,
                                      ledger: ledger, carriedLedgers: carried?.ledgers ?? [:], emptyRequired: emptyRequired)
        } catch {
            throw .links(error)
        }
        if let keptKey { try sourceKeys.written(written, key: keptKey.key, root: keptKey.root, source: record.location.file) }
        tallyCarried(outcomes)
        switch written {
        case .inserted:
            ledgers[ledger].written += 1
            records.written += 1
            plan.inserted += 1
            if let token = plan.watched {
                observer?.written(record.values, identity: record.identity?.primaryKey, token: token, entity: plan.finalEntity,
                                  row: graph.lastPrimaryKey, merged: false, policy: graph.policy(for: plan.finalEntity))
            }
        case .merged:
            ledgers[ledger].merged += 1
            records.merged += 1
            if let token = plan.watched {
                observer?.written(record.values, identity: record.identity?.primaryKey, token: token, entity: plan.finalEntity,
                                  row: graph.lastPrimaryKey, merged: true, policy: graph.policy(for: plan.finalEntity))
            }
        case .rejected(let reason):
            try self.reject(Reject(location: location(of: record, plan: plan, storeRow: storeRow), entity: plan.entity, reason: reason),
                            ledger: ledger)
            return
        }
        guard let carried else { return }
        try count(carried, outcomes: outcomes, records: mapped.embedded)
    }

    /// Writes the records a record left out carries, on their own: a filter leaves out only the
    /// records it says no to (they were dropped with their carrier, counted nowhere).
    private mutating func writeAlone(_ carried: CarriedRecords, namespace: Int) throws(PipelineError) {
        guard !carried.counts.isEmpty else { return }
        let outcomes: [StoreGraphWriter.EmbeddedOutcome]
        do { outcomes = try graph.writeCarried(carried.records, namespace: namespace) } catch { throw .links(error) }
        tallyCarried(outcomes)
        try count(carried, outcomes: outcomes, records: carried.records)
    }

    /// Counts what became of carried records in the summary of carried records.
    private mutating func tallyCarried(_ outcomes: [StoreGraphWriter.EmbeddedOutcome]) {
        for outcome in outcomes {
            switch outcome.outcome {
            case .merged: self.carried[outcome.entity, default: .init()].merged += 1
            case .inserted: self.carried[outcome.entity, default: .init()].written += 1
            case .rejected: break
            }
        }
    }

    /// Counts carried records in their ledgers: each read, and written, merged, filtered or
    /// rejected as `outcomes` (one per record of `records`, the records written) say.
    private mutating func count(_ carried: CarriedRecords, outcomes: [StoreGraphWriter.EmbeddedOutcome],
                                records: [EmbeddedRecord]) throws(PipelineError) {
        for (ledger, converted) in carried.counts {
            ledgers[ledger].read += 1
            ledgers[ledger].converted += converted
        }
        for ledger in carried.filtered { ledgers[ledger].filtered += 1 }
        for (index, outcome) in outcomes.enumerated() {
            guard let key = outcome.key, let ledger = carried.ledgers[key] else { continue }
            switch outcome.outcome {
            case .merged:
                ledgers[ledger].merged += 1
            case .inserted:
                ledgers[ledger].written += 1
                self.written[outcome.entity, default: 0] += 1
                observer?.carriedRecordWritten(entity: outcome.entity)
            case .rejected(let reason):
                try reject(Reject(location: records[index].record.location, entity: outcome.entity, reason: reason), ledger: ledger)
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
    }

    /// Carries records a record carries (flattened, in writing order), each through the chain
    /// from the version it is in, and the records mappings make from their values on the way;
    /// the reject of the first that a mapping rejects, located at its key path. A record a
    /// mapping filters out is marked left out in source `namespace` (`StoreGraphWriter.markLeftOut`):
    /// links to it are dropped with it.
    private mutating func carry(_ embedded: [(version: Int, record: EmbeddedRecord)], source: String, namespace: Int,
                                into carried: inout CarriedRecords) throws(PipelineError) -> Reject? {
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
                try leaveOut(carried: item.record, namespace: namespace)
            case let .record(mapped, finalEntity, converted, made):
                carried.counts.append((itemPlan.ledger, converted))
                guard itemPlan.finalSchema != nil else {
                    carried.filtered.append(itemPlan.ledger)
                    try leaveOut(carried: item.record, namespace: namespace)
                    continue
                }
                if !made.isEmpty, let rejected = try carry(made, source: source, namespace: namespace, into: &carried) { return rejected }
                if let key = mapped.key { carried.ledgers[key] = itemPlan.ledger }
                carried.records.append(EmbeddedRecord(entity: finalEntity, record: mapped, findByValues: item.findByValues,
                                                      onlyNamesItsRecord: item.onlyNamesItsRecord))
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

    private mutating func reject(_ reject: Reject, ledger: Int) throws(PipelineError) {
        ledgers[ledger].rejected += 1
        records.rejected += 1
        do { stoppedEarly = try rejects.add(reject) || stoppedEarly } catch {
            throw .rejectLog(error)
        }
    }

    /// The index of the ledger of a source and entity, added on first use.
    private mutating func ledger(source: String, entity: String, version: Int) -> Int {
        if let index = ledgers.firstIndex(where: { $0.source == source && $0.entity == entity }) { return index }
        ledgers.append(SourceLedger(source: source, entity: entity, version: chain.versions[version].name))
        return ledgers.count - 1
    }
}
