import FerryModel
import FerryStore

/// Writes records of several entities into a new store and links them, without holding the
/// object graph in memory.
///
/// Rows go in as they come. A record's source key and the `Z_PK` it got are kept in a key map,
/// and its links are staged, both in a scratch database beside the store's connection. When
/// every record is in, `resolveLinks()` turns the staged links into foreign keys, join-table
/// rows and order keys with set-based SQL. Records that collide on a uniqueness constraint are
/// handled by a `DuplicatePolicy`.
public final class StoreGraphWriter {
    /// What became of one record.
    public enum Outcome: Sendable, Equatable {
        case inserted
        /// Merged into the record already there (a duplicate on `constraint`).
        case merged(constraint: [String])
        case rejected(reason: String)
    }

    public let writer: CoreDataStoreWriter
    let model: ManagedObjectModel
    let duplicates: DuplicatePolicy
    /// Per destination entity policies that override `duplicates`.
    let duplicatesByEntity: [String: DuplicatePolicy]
    /// Per destination entity, attributes whose values identify a record although the model has
    /// no uniqueness constraint on them (a written mapping's `unique ATTRIBUTE …`).
    let identityKeys: [String: [String]]
    private var identities: IdentityKeyTable?
    /// `Entity.relationship` whose match destinations are created when missing.
    let createMissing: Set<String>
    /// The entities the run's files hold records of: a nested reference to one of them that no
    /// record of the files fills stands for no record, and its row goes (`resolveLinks`).
    let filesEntities: Set<String>
    private var writing: [String: EntityWriting] = [:]
    // Touched for every record by the one thread that writes: no run-time exclusivity checks.
    @exclusivity(unchecked) private var lastWriting: EntityWriting?
    private var staging: LinkStaging?
    /// Rows that no record has given its values yet, as root entity number and `Z_PK`: made by a
    /// reference (`EmbeddedRecord.onlyNamesItsRecord`), or held by a copy a duplicate policy did
    /// not keep (dropped unless a record merges into them). The first fuller copy to come is their
    /// record's first: its values and relationships are kept, whatever the policy.
    private var rowsToFill = Set<SIMD2<Int64>>()
    /// The rows (root entity number and `Z_PK`) inserted for the records the record being
    /// written carries: a merge into one of them is no merge into a row another record holds
    /// (`CarriedRows.share`).
    private var rowsOfCarrier = Set<SIMD2<Int64>>()
    /// The required to-ones of the entities written, by the number rows are noted under when
    /// their records leave one empty (`noteUnfilled`).
    private var requiredToOnes: [RequiredToOne] = []
    /// The numbers some row was noted under.
    private var notedNeeds = Set<Int>()
    /// Whether the carried records being written are kept in `CarriedRows` by their carrier.
    @exclusivity(unchecked) private var tracksCarried = false
    /// The policy the last record written merged under (nil: it did not merge).
    @exclusivity(unchecked) private var lastMerge: DuplicatePolicy?
    /// The `Z_PK` of the row the last record written went to (inserted, or merged into); nil
    /// after a reject. After `write`, the written record's own (its carried records go first).
    @exclusivity(unchecked) public private(set) var lastPrimaryKey: Int64?
    /// Whether records are held to the model's validation (`RecordValidation`: bounds, regular
    /// expressions, rules): set per source by the pipeline, true for new objects
    /// (`RecordCursor.bringsNewObjects`).
    @exclusivity(unchecked) public var validatesValues = false

    /// - Parameters:
    ///   - duplicates: what to do with records that collide on a uniqueness constraint;
    ///     `duplicatesByEntity` overrides it per entity.
    ///   - createMissing: relationships (`Entity.relationship`) whose destinations found by an
    ///     attribute value are created when no record has that value (find or create).
    ///   - filesEntities: the entities the run's files hold records of.
    public init(writer: CoreDataStoreWriter, model: ManagedObjectModel, duplicates: DuplicatePolicy = .reject,
                duplicatesByEntity: [String: DuplicatePolicy] = [:], identityKeys: [String: [String]] = [:],
                createMissing: Set<String> = [], filesEntities: Set<String> = []) {
        self.writer = writer
        self.model = model
        self.duplicates = duplicates
        self.duplicatesByEntity = duplicatesByEntity
        self.identityKeys = identityKeys
        self.createMissing = createMissing
        self.filesEntities = filesEntities
    }

    /// What became of one record a written record carried (`Record.embedded`).
    public struct EmbeddedOutcome: Sendable, Equatable {
        /// The carried record's entity.
        public var entity: String
        /// The carried record's source key.
        public var key: RecordKey?
        /// `.inserted` or `.merged` (a carried record is never rejected on its own).
        public var outcome: Outcome
    }

    /// Writes one record of the schema's entity. `namespace` tells sources apart, so the same key
    /// in two sources names two records.
    public func write(_ record: Record, schema: RecordSchema, namespace: Int) throws(GraphWriteError) -> Outcome {
        var carried: [EmbeddedOutcome] = []
        return try write(record, schema: schema, namespace: namespace, embedded: &carried)
    }

    /// Writes one record and, before it, the records it carries (depth first), appending what
    /// became of each carried record to `embedded`.
    ///
    /// A link of a one-to-one fills its inverse's column too, as Core Data keeps the two sides,
    /// except for the one-to-ones `sides` keeps (of the record's entity): their source keeps each
    /// side in a column of its own and gives both (`RecordCursor.keepsOneToOneSides`), so the
    /// link fills its own column only and a side the source left empty stays empty. A link of a
    /// relationship whose inverse `sides` says was a to-many where the record was read may not
    /// share its destination with another such link when that inverse is a to-one
    /// (`LinkKind.inverseWasToMany`): `resolveLinks` refuses it.
    ///
    /// A carried record is found or created: when it duplicates a record already written (or in
    /// the store) on a uniqueness constraint or identity key, it *is* that record, and its key
    /// maps there. Its entity's own policy applies when one is set (`duplicatesByEntity`), else
    /// keep-newest when the run's policy is keep-newest, else keep-first. When a policy that
    /// applies is `reject` and a duplicate is found (the record itself, or a carried record,
    /// against the store or against another record of the same carrier), the record is rejected
    /// before anything of it is written, with the carried record's key path in the reason: a
    /// link is never dropped in silence.
    ///
    /// `ledger`: the caller's number for the ledger the record is counted in. A record given one
    /// whose required to-one finds no destination when the links are resolved is removed again
    /// and handed back under it (`resolveLinks`), with the rows its carried records were
    /// inserted into that no other record merged into, and its carried records handed back under
    /// their ledgers in `carriedLedgers` (by key); so is one that leaves a required to-one empty
    /// when no link of the run fills it from the other side either (`UnfilledRequiredRows`).
    /// Without one (and for carried records) its row stays, and verification reports the missing
    /// destination. `emptyRequired`: required to-ones the record gives no destination and nothing
    /// else can: a record that would be a new object is rejected for them (one merged into an
    /// existing row keeps that row's).
    public func write(_ record: Record, schema: RecordSchema, namespace: Int, sides: LinkSides = LinkSides(),
                      embedded: inout [EmbeddedOutcome], ledger: Int? = nil, carriedLedgers: [RecordKey: Int] = [:],
                      emptyRequired: [String] = []) throws(GraphWriteError) -> Outcome
    {
        lastPrimaryKey = nil
        let target = try entityWriting(for: schema)
        if record.embedded.isEmpty {
            let outcome = try writeOne(record, target: target, policy: target.duplicates, byValues: false, namespace: namespace,
                                       sides: sides, ledger: ledger, emptyRequired: emptyRequired)
            if case .merged = outcome, staging?.tables.carriedRows != nil { try noteCarried([], of: record, target: target, ledger: ledger) }
            return outcome
        }
        let carried = EmbeddedRecord.flattened(record)
        var targets: [EntityWriting] = []
        for item in carried { targets.append(try entityWriting(for: carriedSchema(item.entity))) }
        // Whatever would reject the record, or one it carries, is found before any is written:
        // nothing of a rejected record is written.
        for (item, carriedTarget) in zip(carried, targets) {
            if let problem = valueProblem(item.record.values, target: carriedTarget) {
                return .rejected(reason: (item.record.location.path.map { "\($0): " } ?? "") + problem)
            }
        }
        if let problem = valueProblem(record.values, target: target) { return .rejected(reason: problem) }
        if let empty = emptyRequired.first,
           try !isKnown(record, identity: try identity(of: record, target: target), target: target) {
            return .rejected(reason: RelationshipKeys.emptyRequiredReason(of: empty))
        }
        let mentions = try mentionsOfCarrier(record, target: target, carried: Array(zip(carried, targets)))
        // A mention's relationships are the carrier's, where the carrier gives none of its own.
        var carrier = record
        for position in mentions.keys.sorted() {
            for link in carried[position].record.links where !link.targets.isEmpty
                && !carrier.links.contains(where: { $0.relationship == link.relationship }) {
                carrier.links.append(link)
            }
        }
        let made = zip(carried, targets).enumerated().filter { mentions[$0.offset] == nil }.map(\.element)
        if let reason = try rejectedDuplicate(carrier, target: target, carried: made) {
            return .rejected(reason: reason)
        }
        if let reason = try emptyRequiredOfCarried(carrier, entity: target.entity, carried: made) {
            return .rejected(reason: reason)
        }
        for (member, writing) in made.map({ ($0.0.record, $0.1) }) + [(carrier, target)] {
            if let reason = try heldByAnotherEntity(member, target: writing) { return .rejected(reason: reason) }
        }
        rowsOfCarrier.removeAll(keepingCapacity: true)
        tracksCarried = ledger != nil
        defer {
            rowsOfCarrier.removeAll(keepingCapacity: true)
            tracksCarried = false
        }
        let places = ledger == nil ? [] : CarriedOwnership(of: carrier, entity: target.entity, carried: carried, model: model).places
        var went: [CarriedRows.Entry] = []
        for (position, (item, carriedTarget)) in zip(carried, targets).enumerated() {
            if let constraint = mentions[position] {
                embedded.append(EmbeddedOutcome(entity: item.entity, key: item.record.key, outcome: .merged(constraint: constraint)))
                continue
            }
            let outcome = try writeCarried(item, target: carriedTarget, namespace: namespace)
            if let pk = lastPrimaryKey {
                if outcome.outcome == .inserted { rowsOfCarrier.insert(SIMD2(carriedTarget.rootNumber, pk)) }
                if ledger != nil, let key = outcome.key, let carriedLedger = carriedLedgers[key] {
                    went.append(CarriedRows.Entry(root: carriedTarget.rootNumber, pk: pk, merged: outcome.outcome != .inserted, ledger: carriedLedger,
                                                  relationship: places[position].relationship, owned: places[position].owned))
                }
            }
            embedded.append(outcome)
        }
        let outcome = try writeOne(carrier, target: target, policy: target.duplicates, byValues: false, namespace: namespace, sides: sides,
                                   ledger: ledger, emptyRequired: emptyRequired)
        if let row = lastPrimaryKey, !mentions.isEmpty {
            let staging = try linkStaging()
            for position in mentions.keys.sorted() {
                if let key = carried[position].record.key { try staging.mapKey(key, namespace: namespace, root: target.rootNumber, to: row) }
            }
        }
        if outcome != .inserted || !went.isEmpty { try noteCarried(went, of: carrier, target: target, ledger: ledger) }
        return outcome
    }

    /// The carried records that are their carrier itself, mentioned inside it (a child's
    /// `parent` giving the carrier's unique values), by position, with the constraint they share:
    /// of the carrier's root entity, with the carrier's values on its identity key or on a
    /// uniqueness constraint (and of its very entity when it gives relationships). A mention is not
    /// written: its key names the carrier's row, its values give way to the carrier's (the record
    /// it is inside), its relationships count where the carrier gives none of its own, and it
    /// counts as merged into it.
    private func mentionsOfCarrier(_ record: Record, target: EntityWriting,
                                   carried: [(EmbeddedRecord, EntityWriting)]) throws(GraphWriteError) -> [Int: [String]] {
        guard carried.contains(where: { $0.1.rootNumber == target.rootNumber }) else { return [:] }
        let own = try identityKeys(of: record, target: target)
        guard !own.isEmpty else { return [:] }
        var mentions: [Int: [String]] = [:]
        for (position, (item, writing)) in carried.enumerated()
            where writing.rootNumber == target.rootNumber && (writing.entity == target.entity || item.record.links.allSatisfy({ $0.targets.isEmpty })) {
            let shared = try identityKeys(of: item.record, target: writing).first { key in
                own.contains { $0.names == key.names && $0.key == key.key }
            }
            if let shared { mentions[position] = shared.names }
        }
        return mentions
    }

    /// The keys that identify `record` as one object: its identity key, or else its values on
    /// each uniqueness constraint that it gives every value of.
    private func identityKeys(of record: Record, target: EntityWriting) throws(GraphWriteError) -> [(names: [String], key: [UInt8])] {
        if let identity = try identity(of: record, target: target) { return [(identityNames(target), identity)] }
        return target.rows.uniqueKeys(of: record.values)
    }

    /// Keeps where the records a record carried went (`CarriedRows`), once the record is written
    /// (with a ledger: only such a record is removed again when its links are resolved). When it
    /// merged into a row, the copy not kept has the rows it owns dropped: under keep-first the
    /// record's own, under keep-newest the earlier copies' that hang from the relationships the
    /// record gives (as its links replace theirs).
    private func noteCarried(_ went: [CarriedRows.Entry], of record: Record, target: EntityWriting, ledger: Int?) throws(GraphWriteError) {
        guard let ledger, let carrier = lastPrimaryKey else { return }
        let tables = try linkStaging().tables
        let merging = lastMerge
        try GraphWriteError.wrap { () throws(StoreWriterError) in
            if merging == .keepNewest, let rows = tables.carriedRows {
                try rows.drop(ownedBy: carrier, carrierRoot: target.rootNumber, through: Set(record.links.map(\.relationship)))
            }
            guard !went.isEmpty else { return }
            let rows = try tables.carried()
            let account = RejectedRecords.account(ledger: ledger, merged: merging != nil)
            for entry in went {
                try rows.add(entry, carrierRoot: target.rootNumber, carrierRow: carrier, carrierAccount: account, dropped: merging == .keepFirst)
            }
            if merging == .keepFirst {
                for entry in went where entry.owned && !entry.merged { rowsToFill.insert(SIMD2(entry.root, entry.pk)) }
            }
        }
    }

    /// Writes the records a record carries when the record itself is not written (a mapping's
    /// filter left it out): each as `write` writes it before its carrier. One outcome per record,
    /// in their order.
    public func writeCarried(_ carried: [EmbeddedRecord], namespace: Int) throws(GraphWriteError) -> [EmbeddedOutcome] {
        lastPrimaryKey = nil
        var outcomes: [EmbeddedOutcome] = []
        for item in carried {
            outcomes.append(try writeCarried(item, target: try entityWriting(for: carriedSchema(item.entity)), namespace: namespace))
        }
        return outcomes
    }

    private func writeCarried(_ item: EmbeddedRecord, target: EntityWriting, namespace: Int) throws(GraphWriteError) -> EmbeddedOutcome {
        // A reference finds its record and leaves its values as they are.
        let policy = item.onlyNamesItsRecord && carriedPolicy(item.entity) == .keepNewest ? .keepFirst : carriedPolicy(item.entity)
        let outcome = try writeOne(item.record, target: target, policy: policy, byValues: item.findByValues, namespace: namespace, isCarried: true,
                                   isReference: item.onlyNamesItsRecord)
        return EmbeddedOutcome(entity: item.entity, key: item.record.key, outcome: outcome)
    }

    /// The duplicate policy of records of `entity` written on their own.
    public func policy(for entity: String) -> DuplicatePolicy {
        duplicatesByEntity[entity] ?? duplicates
    }

    /// The duplicate policy of records of `entity` carried by others.
    private func carriedPolicy(_ entity: String) -> DuplicatePolicy {
        duplicatesByEntity[entity] ?? (duplicates == .keepNewest ? .keepNewest : .keepFirst)
    }

    /// Why `values` cannot be a row of `target`'s entity (too large a row, a Decimal the store
    /// cannot hold, a value outside the model's validation rules when values are validated); nil
    /// when they can.
    private func valueProblem(_ values: [AttributeValue], target: EntityWriting) -> String? {
        StoreRowSize.problem(values) ?? target.required.problem(values) ?? StoredDecimal.problem(values, schema: target.rows.schema)
            ?? (validatesValues ? target.validation?.problem(values) : nil)
    }

    /// Why `record` cannot be written: an object of another entity (a sibling under a parent's
    /// constraint) already holds its values on a unique constraint, and the record cannot merge
    /// into it. Nil when none does.
    private func heldByAnotherEntity(_ record: Record, target: EntityWriting) throws(GraphWriteError) -> String? {
        guard let row = try target.rows.existingRow(for: record.values), let other = row.entity, other != target.entity else { return nil }
        return (record.location.path.map { "\($0): " } ?? "") + Self.heldByAnotherEntity(row, entity: target.entity)
    }

    private static func heldByAnotherEntity(_ row: EntityRowWriter.ExistingRow, entity: String) -> String {
        "a \(row.entity ?? "?") (Z_PK \(row.primaryKey)) already holds these values on unique (\(row.constraint.joined(separator: ", "))); "
            + "a \(entity) cannot be merged into an object of another entity"
    }

    /// Why a record's carried records cannot all be written: one that would be a new object
    /// without a destination its entity requires (a required to-one it gives no link for, which
    /// no record of its group links through the inverse either). A reference (`{"code": …}`) and
    /// a record that merges into an object already there are left alone. Nil when none is short.
    private func emptyRequiredOfCarried(_ record: Record, entity: String, carried: [(EmbeddedRecord, EntityWriting)])
        throws(GraphWriteError) -> String?
    {
        var filledFromTheOtherSide: [RecordKey: Set<String>] = [:]
        for (member, memberEntity) in carried.map({ ($0.0.record, $0.0.entity) }) + [(record, entity)] {
            for link in member.links where !link.targets.isEmpty {
                guard let relationship = model.allRelationships(of: memberEntity).first(where: { $0.name == link.relationship }),
                      let inverse = model.inverse(of: relationship) else { continue }
                for case .key(let key) in link.targets { filledFromTheOtherSide[key, default: []].insert(inverse.name) }
            }
        }
        for (item, writing) in carried where !item.onlyNamesItsRecord {
            let given = Set(item.record.links.filter { !$0.targets.isEmpty }.map(\.relationship))
                .union(item.record.key.flatMap { filledFromTheOtherSide[$0] } ?? [])
            guard let empty = model.allRelationships(of: item.entity).first(where: {
                $0.isRequiredToOne && !$0.isTransient && !given.contains($0.name)
            }) else { continue }
            let identity = try identity(of: item.record, target: writing, byValues: item.findByValues)
            if try isKnown(item.record, identity: identity, target: writing) { continue }
            return (item.record.location.path.map { "\($0): " } ?? "") + "\(item.entity): " + RelationshipKeys.emptyRequiredReason(of: empty.name)
        }
        return nil
    }

    /// Why a record with carried records must be rejected before any of them is written: a
    /// record under a `reject` policy (itself or a carried one) that duplicates a record in the
    /// store or one of the same group written before it (whatever that one's policy: a carrier
    /// that repeats one of its own descendants). Nil when none does.
    private func rejectedDuplicate(_ record: Record, target: EntityWriting, carried: [(EmbeddedRecord, EntityWriting)])
        throws(GraphWriteError) -> String?
    {
        var group = Set<[UInt8]>()
        let members = carried.map { ($0.0.record, $0.1, carriedPolicy($0.0.entity), $0.0.findByValues, $0.0.onlyNamesItsRecord) }
            + [(record, target, target.duplicates, false, false)]
        guard members.contains(where: { $0.2 == .reject }) else { return nil }
        for (member, writing, policy, byValues, isReference) in members where !isReference || policy == .reject {
            func isNew(_ names: [String], _ key: [UInt8]) -> Bool {
                group.insert(Array("\(writing.entity)(\(names.joined(separator: ",")))".utf8) + key).inserted
            }
            let found: [String]?
            if let identity = try identity(of: member, target: writing, byValues: byValues) {
                let names = identityNames(writing)
                let stored = try GraphWriteError.wrap { () throws(StoreWriterError) in try identities?.primaryKey(for: identity, entity: writing.entity) }
                found = isNew(names, identity) && stored == nil ? nil : names
            } else if let existing = try writing.rows.existingRow(for: member.values) {
                // A row to fill is the first fuller copy's (`writeOne`).
                let toFill = rowsToFill.contains(SIMD2(writing.rootNumber, existing.primaryKey))
                found = toFill && !isReference ? nil : existing.constraint
            } else {
                found = writing.rows.uniqueKeys(of: member.values).first { !isNew($0.names, $0.key) }?.names
            }
            guard let found, policy == .reject else { continue }
            let place = member.location.path.map { "\($0): " } ?? ""
            return "\(place)\(writing.entity) is a duplicate on unique (\(found.joined(separator: ", "))) and its duplicate policy is reject"
        }
        return nil
    }

    /// Writes one record, without what it carries.
    /// `byValues`: found by all its values when the entity has no uniqueness constraint or
    /// identity key (`EmbeddedRecord.findByValues`). `isCarried`: a record another one carries,
    /// whose key is how its carrier links it (it maps to the row it merged into, whichever copy
    /// the row keeps). `isReference`: a record that only names its object
    /// (`EmbeddedRecord.onlyNamesItsRecord`). `sides`, `ledger`, `emptyRequired`: as `write` takes them.
    private func writeOne(_ record: Record, target: EntityWriting, policy: DuplicatePolicy, byValues: Bool, namespace: Int,
                          isCarried: Bool = false, isReference: Bool = false, sides: LinkSides = LinkSides(), ledger: Int? = nil,
                          emptyRequired: [String] = []) throws(GraphWriteError) -> Outcome
    {
        var policy = policy
        let rows = target.rows
        let primaryKey: Int64
        var outcome = Outcome.inserted
        lastPrimaryKey = nil
        lastMerge = nil
        if let problem = valueProblem(record.values, target: target) { return .rejected(reason: problem) }
        let identity = try identity(of: record, target: target, byValues: byValues)
        if let empty = emptyRequired.first, try !isKnown(record, identity: identity, target: target) {
            return .rejected(reason: RelationshipKeys.emptyRequiredReason(of: empty))
        }
        let inserted: EntityRowWriter.Outcome
        if let identity, let existing = try GraphWriteError.wrap({ () throws(StoreWriterError) in
            try identities?.primaryKey(for: identity, entity: target.entity)
        }) {
            inserted = .duplicate(of: .init(primaryKey: existing, constraint: identityNames(target), entity: target.entity))
        } else {
            inserted = try rows.insert(record.values, identity: record.identity)
        }
        switch inserted {
        case .inserted(let key):
            primaryKey = key
            if let identity { try remember(identity, entity: target.entity, primaryKey: key) }
            if isReference { rowsToFill.insert(SIMD2(target.rootNumber, key)) }
            if let ledger, !target.requiredToOnes.isEmpty { try noteUnfilled(record, row: key, target: target, ledger: ledger) }
        case .duplicate(let row):
            let (existing, constraint) = (row.primaryKey, row.constraint)
            // A row of another entity cannot take the record: its values would sit on an object
            // of the wrong entity, and the record would vanish from its own.
            if let other = row.entity, other != target.entity {
                return .rejected(reason: Self.heldByAnotherEntity(row, entity: target.entity))
            }
            // A row a reference made holds only the values that named it, and one a copy not kept
            // holds, values no record keeps: the first copy that gives more is the record's first
            // (no duplicate, whatever the policy), and its values and relationships are kept.
            let fills = !isReference && rowsToFill.contains(SIMD2(target.rootNumber, existing))
            if fills { policy = .keepNewest }
            switch policy {
            case .reject:
                return .rejected(reason: "duplicate of an earlier record on unique (\(constraint.joined(separator: ", ")))")
            case .keepFirst:
                break
            case .keepNewest:
                if let other = try rows.replace(existing, with: record.values) {
                    return .rejected(reason: "it duplicates Z_PK \(existing) on unique (\(constraint.joined(separator: ", "))), but its values are "
                        + "Z_PK \(other.primaryKey)'s on unique (\(other.constraint.joined(separator: ", "))): it replaces neither")
                }
                // A row the store held keeps the relationships the record gives as the record
                // gives them, as a row of the run keeps its newest copy's (`supersede` below).
                if !fills, existing <= writer.lastKeyBefore(root: target.rootName), !record.links.isEmpty {
                    let replaced = try linkStaging().tables
                    try GraphWriteError.wrap { () throws(StoreWriterError) in
                        let pairs = try replaced.replaced()
                        for link in record.links {
                            try pairs.note(row: existing, entity: target.entity, relationship: link.relationship, givesNone: link.targets.isEmpty)
                        }
                    }
                }
            }
            if fills { rowsToFill.remove(SIMD2(target.rootNumber, existing)) }
            primaryKey = existing
            outcome = .merged(constraint: constraint)
            lastMerge = policy
            // A row this run wrote is removed when a required link of it finds nothing, with every
            // record merged into it: each is a reject of its own ledger.
            if let ledger, existing > writer.lastKeyBefore(root: target.rootName) {
                let staging = try linkStaging()
                try GraphWriteError.wrap { () throws(StoreWriterError) in
                    try staging.tables.noteMergedCopy(ofRow: existing, root: target.rootNumber,
                                                      account: RejectedRecords.account(ledger: ledger, merged: true), origin: LinkOrigin(record: record))
                }
            }
            // A merge by a carried record whose carrier keeps where it went (`noteCarried`) is an
            // entry of its own; any other merge holds the row for good.
            if !(isCarried && tracksCarried), let carriedRows = staging?.tables.carriedRows, !rowsOfCarrier.contains(SIMD2(target.rootNumber, existing)) {
                try GraphWriteError.wrap { () throws(StoreWriterError) in try carriedRows.share(root: target.rootNumber, pk: existing) }
            }
        }
        if record.key != nil || !record.links.isEmpty {
            let staging = try linkStaging()
            if let key = record.key {
                // Every copy's key maps to the row. The copies it does not keep (the one dropped
                // under keep-first, those before the newest under keep-newest) are mapped away:
                // pairs the source keeps apart from its records (join rows, an ordered list read
                // from the list's side) go with them, as their own links do. A carried record's
                // key is how its carrier links it: never away.
                switch (outcome, policy) {
                case (.merged, .keepFirst) where !isCarried:
                    try staging.mapKeyAway(key, namespace: namespace, root: target.rootNumber, row: primaryKey)
                case (.merged, .keepNewest) where !isCarried:
                    try staging.mapKeysAway(ofRow: primaryKey, root: target.rootNumber, except: key, namespace: namespace)
                default:
                    break
                }
                try staging.mapKey(key, namespace: namespace, root: target.rootNumber, to: primaryKey)
            }
            let account = ledger.map { RejectedRecords.account(ledger: $0, merged: outcome != .inserted) }
            let before = staging.tables.stagedCount
            for link in record.links where !link.targets.isEmpty {
                try staging.stage(link, from: target.entity, primaryKey: primaryKey, namespace: namespace, origin: LinkOrigin(record: record),
                                  mirrorsOneToOne: !sides.kept.contains(link.relationship),
                                  inverseWasToMany: sides.inverseWasToMany.contains(link.relationship), account: account)
            }
            // A merged duplicate's row keeps the relationships of the record it keeps, as its
            // attributes: under keep-first the first one's, under keep-newest those the newest
            // one gives (an empty list included) replace what earlier records gave.
            if outcome != .inserted {
                let tables = staging.tables
                if policy == .keepFirst {
                    tables.supersede(linksOf: primaryKey, from: before + 1, through: tables.stagedCount)
                } else {
                    for kind in staging.kindIDs(of: target.entity, relationships: Set(record.links.map(\.relationship))) {
                        tables.supersede(linksOf: primaryKey, kind: kind, from: 1, through: before)
                    }
                }
            }
        }
        lastPrimaryKey = primaryKey
        return outcome
    }

    /// Notes the row `row` that `record` (counted in `ledger`) inserted under each required
    /// to-one it gives no destination (`StagedLinks.noteUnfilled`): links of the run may still
    /// fill it from the other side, and the row is removed when none does (`resolveLinks`).
    private func noteUnfilled(_ record: Record, row: Int64, target: EntityWriting, ledger: Int) throws(GraphWriteError) {
        for required in target.requiredToOnes where !record.links.contains(where: { $0.relationship == required.name && !$0.targets.isEmpty }) {
            let tables = try linkStaging().tables
            try GraphWriteError.wrap { () throws(StoreWriterError) in
                try tables.noteUnfilled(row: row, root: target.rootNumber, need: required.need,
                                        account: RejectedRecords.account(ledger: ledger, merged: false), origin: LinkOrigin(record: record))
            }
            notedNeeds.insert(required.need)
        }
    }

    /// The required to-ones of `entity` (declared or inherited), each with the number its rows
    /// are noted under, numbered on first use.
    private func requiredToOnes(of entity: String) -> [(need: Int, name: String)] {
        model.allRelationships(of: entity).filter { $0.isRequiredToOne && !$0.isTransient }.map { relationship in
            let declaring = model.declaringEntity(ofProperty: relationship.name, in: entity)?.name ?? entity
            if let known = requiredToOnes.first(where: { $0.entity == declaring && $0.relationship.name == relationship.name }) {
                return (known.need, relationship.name)
            }
            requiredToOnes.append(RequiredToOne(need: requiredToOnes.count, entity: declaring, relationship: relationship))
            return (requiredToOnes.count - 1, relationship.name)
        }
    }

    /// Whether `record` is a row already written or stored (by its identity key or a uniqueness
    /// constraint), so that writing it merges instead of inserting.
    private func isKnown(_ record: Record, identity: [UInt8]?, target: EntityWriting) throws(GraphWriteError) -> Bool {
        if let identity {
            return try GraphWriteError.wrap { () throws(StoreWriterError) in
                try identities?.primaryKey(for: identity, entity: target.entity)
            } != nil
        }
        return try target.rows.existingRow(for: record.values) != nil
    }

    /// The schema of a carried record's entity in the destination model, made once per entity.
    private func carriedSchema(_ entity: String) throws(GraphWriteError) -> RecordSchema {
        if let known = writing[entity] { return known.rows.schema }
        guard let schema = RecordSchema(model: model, entityName: entity) else { throw .unknownEntity(entity) }
        return schema
    }

    /// Stages one link target of a record already written, named by its source key, at
    /// `position` among that record's targets: for edges read apart from their records (a
    /// store's many-to-many join table), one at a time. `file` is the store the edge was read
    /// from, named (with the key) when the link finds nothing. `missingSourceAt`: where `file`
    /// keeps `key` when no record of it has that key; the link is then staged as one that found
    /// nothing, to be reported there. `inverseWasToMany`: the edge was read where the
    /// relationship's inverse was a to-many or none (`LinkKind.inverseWasToMany`).
    public func stageLink(to target: RecordLink.Target, position: Int, relationship: String, ofRecordWithKey key: RecordKey,
                          entity: String, namespace: Int, file: String, missingSourceAt: String? = nil,
                          inverseWasToMany: Bool = false) throws(GraphWriteError) {
        let origin = missingSourceAt.map { LinkOrigin(file: file, line: nil, row: nil, path: $0) }
            ?? LinkOrigin(file: file, line: nil, row: key.storeRow)
        try linkStaging().stage(target, position: position, relationship: relationship, from: entity, sourceKey: key,
                                sourceIsMissing: missingSourceAt != nil, inverseWasToMany: inverseWasToMany, namespace: namespace, origin: origin)
    }

    /// Remembers that the record with `key` in source `namespace` was left out on purpose (a
    /// mapping filtered it, or its entity is not carried): links of optional relationships to
    /// it are dropped with it (`LinkReport.droppedWithDestinations`) instead of finding nothing.
    public func markLeftOut(_ key: RecordKey, namespace: Int) throws(GraphWriteError) {
        try linkStaging().markLeftOut(key, namespace: namespace)
    }

    /// Resolves every staged link into foreign keys, join rows and order keys; one report per
    /// relationship that had links, in the order they were first given. Call once, after the last
    /// record and before `writer.finish()`. Each link that finds no destination is handed to
    /// `unresolved`, located where its record was read (`tasks.json:40`, or a store's file and
    /// `Z_PK`), with the value it looked for. Records written with a ledger whose required to-one
    /// finds no destination, or whose to-many keeps fewer than its minimum, are removed and
    /// handed to `rejected` (`write`'s `ledger`), and what they carried to `carried`. First, the
    /// rows of carried records that a copy of their carrier not kept owned are removed and handed
    /// to `carried` too (`CarriedRows`). A removed row takes every record merged into it: those
    /// whose own links did not fail are handed to `removedWith` as rejects that name the record
    /// whose link did (and counted in `rejected`). So are the records of rows left without a
    /// required to-one that their records did not give and no link filled from the other side,
    /// once the kinds that could fill it are resolved (with the rows that needed them, and what
    /// they carried; `RequiredToOne`), each handed to `removedWith` as a reject of its own and
    /// reported on the relationship (`Note.folder`). The stored pairs that records merged into a
    /// stored row under keep-newest replace are released before any kind is resolved, and those
    /// a required inverse keeps are put back after (`ReplacedStoredPairs`, `LinkReport.keptFromStore`).
    public func resolveLinks(unresolved: (Reject) -> Void = { _ in }, rejected: (RejectedRecords) -> Void = { _ in },
                             removedWith: (Reject) -> Void = { _ in },
                             carried: (CarriedRecordsChange) -> Void = { _ in }) throws(GraphWriteError) -> [LinkReport]
    {
        guard let staging else { return [] }
        try staging.finishKeys()
        let tables = staging.tables
        let kindsByRoot = Dictionary(grouping: staging.kinds) { kind in
            model.rootEntity(of: kind.entity).flatMap { writer.layout.entityNumbers[$0.name] }.map(Int64.init) ?? 0
        }.mapValues { $0.map(\.id) }
        try GraphWriteError.wrap { () throws(StoreWriterError) in try tables.noteFirstCopies(kindsByRoot: kindsByRoot) }
        for removal in try GraphWriteError.wrap({ () throws(StoreWriterError) in try tables.removeDroppedCarriedRows() }) {
            carried(CarriedRecordsChange(entity: removal.entity, ledger: removal.ledger,
                                         change: removal.change == .handedOver ? .handedOver : .dropped, count: removal.count))
        }
        // A reference to a record of the files that no record filled names nothing: an empty
        // stand-in would be made up (`LinkCreation` makes none for a link by value either).
        let ownRoots = Set(filesEntities.compactMap { model.rootEntity(of: $0)?.name }.compactMap { writer.layout.entityNumbers[$0] }.map(Int64.init))
        let unfilled = rowsToFill.filter { ownRoots.contains($0.x) }
        for removal in try GraphWriteError.wrap({ () throws(StoreWriterError) in try tables.removeRows(Array(unfilled)) }) {
            carried(CarriedRecordsChange(entity: removal.entity, ledger: removal.ledger, change: .removed(merged: removal.change == .merged),
                                         count: removal.count))
        }
        try GraphWriteError.wrap { () throws(StoreWriterError) in try tables.replacedPairs?.release() }
        let resolver = LinkResolver(staging: staging, model: model, createMissing: createMissing)
        let carries = try GraphWriteError.wrap { () throws(StoreWriterError) in try staging.tables.carriedRows?.carriedRoots() ?? [:] }
        var reports: [Int: LinkReport] = [:]
        var emptied: [LinkReport] = []
        let noted = requiredToOnes.filter { notedNeeds.contains($0.need) }
        for step in LinkResolver.resolutionOrder(staging.kinds, unfilled: noted, model: model, carries: carries) {
            switch step {
            case let .kind(kind, removesRecords):
                reports[kind.id] = try resolver.resolve(kind, removesRecords: removesRecords, unresolved: unresolved, rejected: rejected,
                                                        removedWith: removedWith, carried: carried)
            case .unfilled(let required):
                if let report = try resolver.removeUnfilled(required, rejected: rejected, removedWith: removedWith, carried: carried) {
                    emptied.append(report)
                }
            }
        }
        var ordered = staging.kinds.compactMap { reports[$0.id] }
        for report in emptied {
            guard let index = ordered.firstIndex(where: { $0.relationship == report.relationship }) else {
                ordered.append(report)
                continue
            }
            ordered[index].rejectedRecords += report.rejectedRecords
            ordered[index].carriedRecordsRemoved += report.carriedRecordsRemoved
            if ordered[index].rejectedBecause == nil { ordered[index].rejectedBecause = report.rejectedBecause }
        }
        for kept in try GraphWriteError.wrap({ () throws(StoreWriterError) in try tables.replacedPairs?.restoreRequired() ?? [] }) {
            if let index = ordered.firstIndex(where: { $0.relationship == kept.relationship }) {
                ordered[index].keptFromStore += kept.count
                ordered[index].keptBecause = kept.requiredInverse
            } else {
                var report = LinkReport(relationship: kept.relationship, matchedBy: "source key")
                (report.keptFromStore, report.keptBecause) = (kept.count, kept.requiredInverse)
                ordered.append(report)
            }
        }
        try LinkResolver.numberOrderedLists(of: staging.kinds, in: staging.tables)
        return ordered
    }

    /// Remembers a record already in the store (when appending) under its identity key, so that
    /// records written later with the same key are duplicates of it.
    public func rememberExisting(_ values: [AttributeValue], schema: RecordSchema, primaryKey: Int64) throws(GraphWriteError) {
        let target = try entityWriting(for: schema)
        let record = Record(values: values, location: SourceLocation(file: writer.path))
        guard let identity = try identity(of: record, target: target) else { return }
        try remember(identity, entity: target.entity, primaryKey: primaryKey)
    }

    private func remember(_ identity: [UInt8], entity: String, primaryKey: Int64) throws(GraphWriteError) {
        try GraphWriteError.wrap { () throws(StoreWriterError) in try identities?.remember(identity, entity: entity, primaryKey: primaryKey) }
    }

    /// The identity key of a record whose entity has one (nil values make no identity); with
    /// `byValues`, of an entity with neither an identity key nor a uniqueness constraint, all its
    /// values (nil is a value there).
    private func identity(of record: Record, target: EntityWriting, byValues: Bool = false) throws(GraphWriteError) -> [UInt8]? {
        var key: [UInt8] = []
        if let identity = target.identity {
            for index in identity.attributes {
                guard let index, record.values[index] != .null else { return nil }
                IdentityKey.append(record.values[index], to: &key)
            }
        } else if byValues, !target.rows.hasUniquenessConstraints {
            for value in record.values { IdentityKey.append(value, to: &key) }
        } else {
            return nil
        }
        if identities == nil { identities = try GraphWriteError.wrap { () throws(StoreWriterError) in try IdentityKeyTable(writer: writer) } }
        return key
    }

    /// The attributes an entity's identity keys are made of, for messages: its identity key, or
    /// every attribute when a record is found by its values.
    private func identityNames(_ target: EntityWriting) -> [String] {
        target.identity?.names ?? target.rows.schema.attributes.map(\.name)
    }

    /// What writing records of one entity needs, found once per entity.
    private final class EntityWriting {
        let entity: String
        let rows: EntityRowWriter
        let duplicates: DuplicatePolicy
        /// The model's validation of the entity's values; nil when it has none.
        let validation: RecordValidation?
        /// The attributes every object of the entity must fill.
        let required: RequiredAttributes
        /// The identity attributes (names, and their indexes in the schema) when the entity has some.
        let identity: (names: [String], attributes: [Int?])?
        /// The store's number of the entity's root, which the key map is kept by.
        let rootNumber: Int64
        /// The name of the entity's root.
        let rootName: String
        /// The entity's required to-ones, by name, with the number its rows are noted under when
        /// a record leaves one empty (`StoreGraphWriter.noteUnfilled`).
        let requiredToOnes: [(need: Int, name: String)]

        init(entity: String, rows: EntityRowWriter, duplicates: DuplicatePolicy, validation: RecordValidation?,
             identity: (names: [String], attributes: [Int?])?, rootNumber: Int64, rootName: String, requiredToOnes: [(need: Int, name: String)]) {
            self.entity = entity
            self.rows = rows
            self.duplicates = duplicates
            self.validation = validation
            required = RequiredAttributes(rows.schema)
            self.identity = identity
            self.rootNumber = rootNumber
            self.rootName = rootName
            self.requiredToOnes = requiredToOnes
        }
    }

    private func entityWriting(for schema: RecordSchema) throws(GraphWriteError) -> EntityWriting {
        let name = schema.entity.name
        if let last = lastWriting, last.entity == name { return last }
        if let known = writing[name] {
            lastWriting = known
            return known
        }
        guard let root = model.rootEntity(of: name), let number = writer.layout.entityNumbers[root.name] else {
            throw .unknownEntity(name)
        }
        let made = EntityWriting(
            entity: name, rows: try EntityRowWriter(writer: writer, model: model, schema: schema),
            duplicates: duplicatesByEntity[name] ?? duplicates, validation: RecordValidation(schema),
            identity: identityKeys[name].map { names in (names, names.map { schema.index(of: $0) }) }, rootNumber: Int64(number), rootName: root.name,
            requiredToOnes: requiredToOnes(of: name))
        writing[name] = made
        lastWriting = made
        return made
    }

    private func linkStaging() throws(GraphWriteError) -> LinkStaging {
        if let staging { return staging }
        let created = try LinkStaging(writer: writer, model: model)
        staging = created
        return created
    }
}
