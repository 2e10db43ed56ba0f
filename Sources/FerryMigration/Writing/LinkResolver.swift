import FerryModel
import FerryStore

/// Resolves staged links of one kind through FerryStore's `LinkResolution`, and reports what it
/// found: the counts, destinations created (find or create, with the model's defaults), and
/// every link that found nothing as a reject located where its record was read.
struct LinkResolver {
    let staging: LinkStaging
    let model: ManagedObjectModel
    let createMissing: Set<String>
    /// How many unresolved links a report keeps as samples.
    private static let sampleSize = 5

    /// Resolves the links of one kind; each that finds nothing goes to `unresolved`, the records
    /// removed because it left them short of destinations (`removesRecords`) to `rejected`, each
    /// of them removed with a row another record's link made fail (one merged with it) as a
    /// reject to `removedWith`, and what became of the records they carried to `carried`.
    func resolve(_ kind: LinkKind, removesRecords: Bool, unresolved: (Reject) -> Void, rejected: (RejectedRecords) -> Void,
                 removedWith: (Reject) -> Void, carried: (CarriedRecordsChange) -> Void) throws(GraphWriteError) -> LinkReport {
        let relationship = kind.relationship
        let destination = relationship.destinationEntity
        var report = LinkReport(relationship: "\(kind.entity).\(relationship.name)",
                                matchedBy: kind.matchAttribute.map { "\(destination).\($0.name)" } ?? "source key")
        // A destination that needs a destination of its own cannot be made from one value (the
        // link's own inverse is filled by the link).
        let inverse = model.inverse(of: relationship)?.name
        let needed = model.allRelationships(of: destination).first { other in
            other.name != inverse && other.minimumDestinations > 0
        }
        if kind.matchAttribute != nil, createMissing.contains("\(kind.entity).\(relationship.name)"), needed == nil {
            report.created = try Self.links { () throws(LinkResolutionError) in
                try staging.tables.createMissingDestinations(of: kind) { () throws(LinkResolutionError) in
                    do throws(GraphWriteError) { return try defaultValues(of: kind) } catch {
                        guard case let .unsupportedLink(entity, relationship, reason) = error else {
                            throw .unsupported(entity: kind.entity, relationship: kind.relationship.name, reason: error.description)
                        }
                        throw .unsupported(entity: entity, relationship: relationship, reason: reason)
                    }
                }
            }
        }
        let sharesPairs = Self.sharesPairs(kind, among: staging.kinds, model: model)
        let narrowed = Self.narrowedSides(of: kind, among: staging.kinds, model: model)
        let resolution = try Self.links { () throws(LinkResolutionError) in
            try LinkResolution(kind, in: staging.tables, removesRecords: removesRecords, sharesPairs: sharesPairs, narrowed: narrowed)
        }
        report.links = resolution.links
        report.unresolved = resolution.unresolved
        report.droppedWithDestinations = resolution.droppedWithDestinations
        report.resolved = report.links - report.unresolved
        let uncreated = kind.matchAttribute != nil && createMissing.contains("\(kind.entity).\(relationship.name)")
            ? needed.map { " (none is created: its relationship '\($0.name)' is required)" } : nil
        report.unresolvedSamples = try reportUnresolved(resolution, kind, note: uncreated ?? "", to: unresolved)
        if resolution.rejectedSources > 0 { report.rejectedBecause = LinkReport.rejectionCause(of: relationship) }
        try reportRemovedCopies(resolution, kind, to: removedWith)
        for (account, count) in try Self.links({ () throws(LinkResolutionError) in try resolution.removeRejectedSources() }) {
            report.rejectedRecords += count
            rejected(RejectedRecords(entity: kind.entity, account: account, count: count))
        }
        for carriers in resolution.rejectedCarriers {
            report.rejectedRecords += carriers.count
            rejected(RejectedRecords(entity: carriers.entity, account: carriers.account, count: carriers.count))
        }
        if report.rejectedRecords > 0, report.rejectedBecause == nil { report.rejectedBecause = LinkReport.rejectionCause(of: relationship) }
        Self.handOver(resolution.carriedRemovals, counting: &report, to: carried)
        report.ambiguous = resolution.ambiguous
        (report.conflicts, report.duplicatePairs) = try Self.links { () throws(LinkResolutionError) in try resolution.apply() }
        return report
    }

    /// Removes the rows whose required to-one `required` their records left empty and no link of
    /// the run filled from the other side, with the rows of this run that needed them
    /// (`UnfilledRequiredRows`): each record that gave them is a reject handed to `removedWith`,
    /// located where it was read, and counted under its account in `rejected`; what they carried
    /// goes to `carried`. Returns the relationship's report; nil when no row was left empty.
    func removeUnfilled(_ required: RequiredToOne, rejected: (RejectedRecords) -> Void, removedWith: (Reject) -> Void,
                        carried: (CarriedRecordsChange) -> Void) throws(GraphWriteError) -> LinkReport? {
        let ownKinds = staging.kinds.filter { $0.relationship == required.relationship }.map(\.id)
        let rows = try Self.links { () throws(LinkResolutionError) in
            try UnfilledRequiredRows(entity: required.entity, relationship: required.relationship, need: required.need, ownKinds: ownKinds,
                                     in: staging.tables)
        }
        guard rows.count > 0 else { return nil }
        try Self.links { () throws(LinkResolutionError) in
            try rows.forEachRecord { record in
                removedWith(Reject(location: record.origin.location, entity: record.entity,
                                   reason: required.rejectReason(followsAnother: record.followsAnother)))
            }
        }
        let removal = try Self.links { () throws(LinkResolutionError) in try rows.remove() }
        var report = LinkReport(relationship: "\(required.entity).\(required.relationship.name)", matchedBy: "source key")
        for records in removal.records {
            report.rejectedRecords += records.count
            rejected(RejectedRecords(entity: records.entity, account: records.account, count: records.count))
        }
        report.rejectedBecause = "\(LinkReport.rejectionCause(of: required.relationship)) and no record of the run gives it"
        Self.handOver(removal.carried, counting: &report, to: carried)
        return report
    }

    /// Hands what became of the records removed rows carried to `carried`, counting those removed
    /// in `report`.
    private static func handOver(_ removals: [CarriedRows.Removal], counting report: inout LinkReport, to carried: (CarriedRecordsChange) -> Void) {
        for removal in removals {
            if removal.change == .inserted { report.carriedRecordsRemoved += removal.count }
            let change: CarriedRecordsChange.Change = switch removal.change {
            case .inserted: .removed(merged: false)
            case .merged: .removed(merged: true)
            case .handedOver: .handedOver
            }
            carried(CarriedRecordsChange(entity: removal.entity, ledger: removal.ledger, change: change, count: removal.count))
        }
    }

    /// The values a destination created for a link gets besides the matched one: the model's
    /// default of every other stored attribute that has one, in its storage form (asked for
    /// only when a destination is missing: a model that could not make one is no error otherwise).
    private func defaultValues(of kind: LinkKind) throws(GraphWriteError) -> [(attribute: String, value: StoreValue)] {
        let destination = kind.relationship.destinationEntity
        guard let entity = model.entity(named: destination), !entity.isAbstract else {
            throw .unsupportedLink(entity: kind.entity, relationship: kind.relationship.name,
                                   reason: "cannot create \(destination) records (abstract or unknown)")
        }
        var values: [(attribute: String, value: StoreValue)] = []
        for other in model.allAttributes(of: entity.name) where other.name != kind.matchAttribute?.name && !other.isTransient {
            let value: AttributeValue
            do { value = try RecordAssembler.defaultValue(of: other, entity: destination) } catch {
                throw .unsupportedLink(entity: kind.entity, relationship: kind.relationship.name, reason: error.description)
            }
            if value == .null {
                guard other.isOptional else {
                    throw .unsupportedLink(entity: kind.entity, relationship: kind.relationship.name,
                                           reason: "cannot create \(destination) records: '\(other.name)' is required and has no default")
                }
                continue
            }
            values.append((other.name, StoreValue(value, externallyStorable: other.allowsExternalBinaryDataStorage)))
        }
        return values
    }

    /// Hands every link that found nothing to `unresolved`, in the order they were given, as a
    /// reject of the relationship located where its record was read (`note` added to its
    /// reason), or, for one whose source key names no record of its source, where the source
    /// keeps that key; returns the first few as samples for the report.
    private func reportUnresolved(_ resolution: LinkResolution, _ kind: LinkKind, note: String,
                                  to unresolved: (Reject) -> Void) throws(GraphWriteError) -> [String] {
        let destination = kind.relationship.destinationEntity
        var samples: [String] = []
        try Self.links { () throws(LinkResolutionError) in
            try resolution.forEachUnresolved { link in
                let made = kind.matchAttribute == nil ? EmbeddedRecord.description(ofKey: link.label) : nil
                let found = if link.sourceIsMissing {
                    "no \(kind.entity) was written for the key '\(link.label)' (no row of the store has it)"
                } else if let made {
                    "\(made) (a \(destination)) names no record the run kept"
                } else if link.destinationRejected {
                    "the \(destination) with \(kind.matchAttribute.map { "\($0.name)" } ?? "the key") '\(link.label)' was rejected"
                } else if let attribute = kind.matchAttribute {
                    "no \(destination) has \(attribute.name) '\(link.label)'\(note)"
                } else {
                    "no \(destination) was written for the key '\(link.label)'\(note)"
                }
                let cause = LinkReport.rejectionCause(of: kind.relationship)
                let consequence = link.rejectsRecord ? "; \(cause), so the record is rejected"
                    : link.rejectsCarrier ? "; \(cause), so the record that carried it is rejected" : ""
                let reject = Reject(location: link.origin.location, entity: kind.entity, attribute: kind.relationship.name, value: made ?? link.label,
                                    reason: "unresolved link: \(found)\(consequence)")
                if samples.count < Self.sampleSize { samples.append(reject.summary) }
                unresolved(reject)
            }
        }
        return samples
    }

    /// Hands every record removed with a row that a record merged with it made fail
    /// (`LinkResolution.forEachRemovedCopy`) to `removedWith`, as a reject located where it was
    /// read that names that record.
    private func reportRemovedCopies(_ resolution: LinkResolution, _ kind: LinkKind, to removedWith: (Reject) -> Void) throws(GraphWriteError) {
        let cause = LinkReport.rejectionCause(of: kind.relationship)
        try Self.links { () throws(LinkResolutionError) in
            try resolution.forEachRemovedCopy { copy in
                removedWith(Reject(location: copy.origin.location, entity: kind.entity, attribute: kind.relationship.name, value: copy.label,
                                   reason: "merged with \(copy.failedAt.location) into one record, whose link found nothing ('\(copy.label)'); "
                                       + "\(cause), so the record is rejected with it"))
            }
        }
    }

    /// Whether the unresolved links of `kind` remove the records they leave short of the
    /// relationship's minimum: a required to-one's always; a to-many's with a `minCount` when no
    /// other of the run's `kinds` links the same pairs (its inverse, or the relationship matched
    /// another way), whose links could still give the record its destinations.
    static func removesRecords(_ kind: LinkKind, among kinds: [LinkKind], model: ManagedObjectModel) -> Bool {
        let relationship = kind.relationship
        if relationship.isRequiredToOne { return true }
        guard relationship.isToMany, relationship.minCount > 0 else { return false }
        return !sharesPairs(kind, among: kinds, model: model)
    }

    /// Whether another of the run's `kinds` links the pairs `kind` links (its inverse, or the
    /// relationship matched another way).
    static func sharesPairs(_ kind: LinkKind, among kinds: [LinkKind], model: ManagedObjectModel) -> Bool {
        let relationship = kind.relationship
        let inverse = model.inverse(of: relationship)
        return kinds.contains { other in
            other.id != kind.id && (other.relationship == relationship || inverse.map { other.relationship == $0 } == true)
        }
    }

    /// The sides of `kind`'s pairs whose to-one was a to-many, or no relationship, where some of
    /// the run's `kinds` linking them from its inverse were read (`LinkKind.inverseWasToMany`):
    /// a claim by several there is refused, whichever kind of the pairs meets it.
    static func narrowedSides(of kind: LinkKind, among kinds: [LinkKind], model: ManagedObjectModel) -> LinkResolution.NarrowedSides {
        let relationship = kind.relationship
        guard let inverse = model.inverse(of: relationship) else { return [] }
        var sides: LinkResolution.NarrowedSides = []
        if !inverse.isToMany, kinds.contains(where: { $0.inverseWasToMany && $0.relationship == relationship }) { sides.insert(.inverse) }
        if !relationship.isToMany, kinds.contains(where: { $0.inverseWasToMany && $0.relationship == inverse }) { sides.insert(.own) }
        return sides
    }

    /// One step of link resolution.
    enum Step {
        /// The links of a kind (`resolve`).
        case kind(LinkKind, removesRecords: Bool)
        /// The rows whose required to-one their records left empty, once the kinds that fill it
        /// are resolved (`removeUnfilled`).
        case unfilled(RequiredToOne)
    }

    /// The order to resolve `kinds` in, with the removal of the rows the run left without a
    /// required to-one (`unfilled`): first the steps that remove records (`removesRecords`, and
    /// the unfilled rows), each before the kinds whose destination shares a table with the rows it
    /// removes or with records their records carried (`carries`: root entity → the root entities
    /// of the rows its records carried), so no link already written names a removed row, and
    /// links to it find nothing; an unfilled relationship's rows after the kinds that fill it
    /// (its own and its inverse's), which come after the steps that remove rows at either of
    /// their ends (so links from removed rows are dropped); then the rest, whose links from
    /// removed rows are dropped. Otherwise in the order given; steps that wait on each other in a
    /// cycle keep that order.
    static func resolutionOrder(_ kinds: [LinkKind], unfilled: [RequiredToOne] = [], model: ManagedObjectModel,
                                carries: [String: Set<String>] = [:]) -> [Step] {
        func fills(_ kind: LinkKind, _ required: RequiredToOne) -> Bool {
            kind.relationship == required.relationship || model.inverse(of: required.relationship).map { kind.relationship == $0 } == true
        }
        var waiting: [Step] = []
        var others: [Step] = []
        for kind in kinds {
            let removes = removesRecords(kind, among: kinds, model: model)
            if removes || unfilled.contains(where: { fills(kind, $0) }) {
                waiting.append(.kind(kind, removesRecords: removes))
            } else {
                others.append(.kind(kind, removesRecords: false))
            }
        }
        waiting += unfilled.map { .unfilled($0) }
        func root(_ entity: String) -> String { model.rootEntity(of: entity)?.name ?? entity }
        func removesRows(of table: String, _ step: Step) -> Bool {
            let own: String
            switch step {
            case .kind(let kind, let removes):
                guard removes else { return false }
                own = root(kind.entity)
            case .unfilled(let required): own = root(required.entity)
            }
            if own == table || carries[own]?.contains(table) == true { return true }
            // A carried record's required link that finds nothing removes its carriers, and what they carried.
            return carries.contains { carrier, carried in carried.contains(own) && (carrier == table || carried.contains(table)) }
        }
        // A step is ready when no other waiting step removes rows it must not run before.
        func isReady(_ index: Int) -> Bool {
            switch waiting[index] {
            case let .kind(kind, removes):
                let filled = unfilled.filter { fills(kind, $0) }
                let tables = [root(kind.relationship.destinationEntity)] + (removes || filled.isEmpty ? [] : [root(kind.entity)])
                return !waiting.indices.contains { other in
                    if other == index { return false }
                    if case .unfilled(let required) = waiting[other], filled.contains(where: { $0.need == required.need }) { return false }
                    return tables.contains { removesRows(of: $0, waiting[other]) }
                }
            case .unfilled(let required):
                return !waiting.contains { step in
                    guard case .kind(let kind, _) = step else { return false }
                    return fills(kind, required)
                }
            }
        }
        var ordered: [Step] = []
        while !waiting.isEmpty {
            let index = waiting.indices.first(where: isReady) ?? waiting.firstIndex {
                if case .kind = $0 { return true } else { return false }
            } ?? 0
            ordered.append(waiting.remove(at: index))
        }
        return ordered + others
    }

    /// Numbers the lists of many-to-manys ordered on both sides once every kind is resolved
    /// (`LinkResolution.numberOrderedLists`).
    static func numberOrderedLists(of kinds: [LinkKind], in staged: StagedLinks) throws(GraphWriteError) {
        try links { () throws(LinkResolutionError) in try LinkResolution.numberOrderedLists(of: kinds, in: staged) }
    }

    /// Runs link resolution, reporting its failures as the graph writer's.
    private static func links<T>(_ body: () throws(LinkResolutionError) -> T) throws(GraphWriteError) -> T {
        do { return try body() } catch {
            switch error {
            case .store(let failure): throw .store(failure)
            case .unknownEntity(let name): throw .unknownEntity(name)
            case let .unsupported(entity, relationship, reason): throw .unsupportedLink(entity: entity, relationship: relationship, reason: reason)
            case .severalForToOne(let claims): throw ToOneGivenSeveral.namedBySeveral(claims)
            }
        }
    }
}
