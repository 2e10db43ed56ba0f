import FerryFormats
import FerryModel
import FerryStore

/// A Core Data store as a pipeline source: its version found by its version hashes among the
/// chain's, every record of every entity (root by root, in store order), then the links that
/// live apart from the rows (many-to-many, ordered one-to-many, to-many without an inverse).
///
/// Its rows are counted a second time with plain SQL (`StoreCensus`), and so are its
/// relationship pairs where it keeps them: `finish` compares what the pipeline read with both,
/// and a store whose rows or pairs are not all accounted for fails the run.
///
/// Records and links name rows by `RecordKey.row`: a `Z_PK` with the root of its table's
/// hierarchy, as keys are unique only per table.
public final class StoreRecordCursor: RecordCursor {
    public let path: String
    public let version: Int
    public var total: Int? { Int(census.appRows) }
    /// Each to-one is read from its own column, both sides of a one-to-one included.
    public let keepsOneToOneSides = true
    public let bringsNewObjects = false
    private let chain: MigrationChain
    private let model: ManagedObjectModel
    private let records: StoreRecordReader
    private let census: StoreCensus
    private let pairCensus: [String: Int64]
    private let keepsIdentity: Bool
    private let location: SourceLocation
    private var pairs = PairTally()
    private var shapes: [String: RowShape?] = [:]
    private var current: RowShape?
    private var roots: [String]
    private var cursor: StoredRecordCursor?
    private var cursorRoot = ""
    /// The store's number of `cursorRoot`, the scope of the keys of its rows.
    private var cursorRootNumber = 0
    private var edges: SeparateEdges?
    private var notes: [SourceNote] = []
    /// The pairs read (the rows' to-ones, the pairs kept apart) that the last version cannot hold.
    private var unheld: UnheldPairs

    /// What turns a store's rows of one entity into records.
    private struct RowShape {
        /// Where the row's values go: attributes to the source schema's order, to-one
        /// relationships to `toOne`'s.
        let slots: StoredRowSlots
        /// Whether the version has the entity; the rows of one it lacks are read (and so
        /// checked) but not carried.
        let isCarried: Bool
        /// The source schema's attribute count.
        let attributeCount: Int
        /// The to-one relationships whose foreign keys become links, in model order.
        let toOne: [String]
        /// Where the store keeps each of `toOne`'s pairs, for the pair tally.
        let toOneStorage: [String?]
        /// The root number of each of `toOne`'s destinations (`RecordKey.row`).
        let toOneRoots: [Int]
    }
    /// The current row's to-one references in `current.toOne`'s order, reused row to row.
    private var references: [StoredReference?] = []

    /// Opens the store at `path` as records of the version of `chain` it matches.
    /// - Parameter keepsIdentity: its records keep their `Z_PK` and `Z_OPT` (`Record.identity`).
    public init(path: String, chain: MigrationChain, keepsIdentity: Bool) throws(PipelineError) {
        self.path = path
        self.chain = chain
        self.keepsIdentity = keepsIdentity
        location = SourceLocation(file: path)
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: path) } catch { throw .reading(path, error) }
        (version, model) = try Self.version(of: store, in: chain)
        unheld = UnheldPairs(chain: chain, version: version)
        do { records = try store.records(model: model) } catch { throw .reading(path, error) }
        // Values outside every record would not reach the migrated store: refused before any is read.
        let stranded: [StrandedValues]
        do { stranded = try records.strandedValues() } catch { throw .reading(path, error) }
        guard stranded.isEmpty else { throw .notAccounted(source: path, problems: stranded.map { "\($0): no record carries them" }) }
        // A row of an abstract entity is no object: refused before any record is read, as each
        // hierarchy's cursor would refuse it before its own first record.
        do { try records.refuseAbstractRows() } catch { throw .reading(path, error) }
        do { census = try StoreCensus(path: path) } catch {
            throw .store(source: path, reason: "cannot count its rows: \(ErrorText.reason(of: error, at: path))")
        }
        do { pairCensus = try store.pairCensus(layout: records.layout) } catch {
            throw .reading(path, error)
        }
        roots = model.entitiesInStoreOrder.filter { $0.parentName == nil }.map(\.name).reversed()
    }

    /// The version of `chain` the store at `path` is read as, and the entities its records can be
    /// of there, without reading a record.
    public static func entities(ofStoreAt path: String, in chain: MigrationChain) throws(PipelineError) -> (version: Int, entities: Set<String>) {
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: path) } catch { throw .reading(path, error) }
        let (version, model) = try version(of: store, in: chain)
        return (version, Set(model.entities.map(\.name)))
    }

    /// The version of `chain` a store's records are read as (`StoreVersionMatch`), and its model
    /// narrowed to the store's entities.
    public static func version(of store: CoreDataStoreReader, in chain: MigrationChain) throws(PipelineError)
        -> (index: Int, model: ManagedObjectModel)
    {
        switch StoreVersionMatch.match(try versionHashes(of: store), in: chain.versions) {
        case .success(let match): return (match.index, match.model)
        case .failure(let mismatch): throw .noMatchingVersion(source: store.path, differing: mismatch.differing)
        }
    }

    /// The entity version hashes a store's records are matched by: its metadata's, or where the
    /// metadata has none (it would match every version vacuously, and carry no row), those of the
    /// model the store carries.
    public static func versionHashes(of store: CoreDataStoreReader) throws(PipelineError) -> [String: [UInt8]] {
        let hashes = store.metadata.versionHashes
        guard hashes.isEmpty else { return hashes }
        guard let archived = try? StoreModelMatch.archivedModel(of: store) else { throw .noVersionHashes(source: store.path) }
        return VersionHasher.hashes(of: archived).entityHashes
    }

    public func next() throws(PipelineError) -> SourceItem? {
        while true {
            if let edges { return try edges.next(self).map(SourceItem.link) }
            guard let cursor = try openNextRoot() else {
                edges = SeparateEdges(model: model, chain: chain, version: version, layout: records.layout)
                continue
            }
            let row: StoredRecordCursor.Row
            var values: [AttributeValue] = []
            do {
                guard let next = try cursor.advance() else {
                    self.cursor = nil
                    continue
                }
                row = next
                if current?.slots.entity != row.entity {
                    current = shape(of: row.entity, in: cursor)
                    references = Array(repeating: nil, count: current?.toOne.count ?? 0)
                }
                if let current {
                    values = .nulls(count: current.attributeCount)
                    for index in references.indices { references[index] = nil }
                    try cursor.read(current.slots, values: &values, references: &references)
                }
            } catch {
                guard case .invalidValue = error else { throw .reading(path, error) }
                // The row's pairs are accounted for with it: rejected.
                if let entity = cursor.entityOfCurrentRow, let shape = shape(of: entity, in: cursor) {
                    for (position, name) in (cursor.toOneNames(of: entity) ?? []).enumerated() {
                        // By its key alone: an entity column naming no entity is what may have made the row unreadable.
                        guard let index = shape.toOne.firstIndex(of: name), cursor.holdsReference(at: position) else { continue }
                        pairs.add(shape.toOneStorage[index])
                    }
                }
                // The location names the store: the reason is the rest (it named the store twice).
                return .reject(Reject(location: location, entity: cursorRoot, reason: error.reason),
                               entity: cursor.entityOfCurrentRow ?? cursorRoot)
            }
            guard let shape = current, shape.isCarried else { continue }
            var links: [RecordLink] = []
            for (index, name) in shape.toOne.enumerated() {
                guard let reference = references[index] else { continue }
                pairs.add(shape.toOneStorage[index])
                guard !unheld.drops(name, of: row.entity, to: reference.entity) else { continue }
                links.append(RecordLink(relationship: name, targets: [.key(.row(reference.primaryKey, root: shape.toOneRoots[index]))]))
            }
            let identity = keepsIdentity ? ObjectIdentity(primaryKey: row.primaryKey, version: cursor.versionOfCurrentRow) : nil
            let record = Record(values: values, location: location, key: .row(row.primaryKey, root: cursorRootNumber), links: links,
                                identity: identity)
            return .record(record, entity: row.entity, defaulted: false, row: row.primaryKey)
        }
    }

    /// Compares the rows the pipeline read, per entity, with the census, and the pairs taken
    /// with the pair census.
    public func finish(read: [String: Int], stopped: Bool) throws(PipelineError) -> SourceEnd {
        guard !stopped else { return SourceEnd() }
        var delivered: [Int64: Int64] = [:]
        for (entity, count) in read {
            let number = records.layout.entityNumbers[entity].map(Int64.init) ?? -1
            delivered[number, default: 0] += Int64(count)
        }
        let problems = census.discrepancies(delivered: delivered) + pairs.discrepancies(census: pairCensus)
        guard problems.isEmpty else { throw .notAccounted(source: path, problems: problems) }
        let leftBehind = census.leftBehind(readWith: records.layout)
        return SourceEnd(notes: notes + unheld.notes(source: path) + (leftBehind.isEmpty ? [] : [.leftBehind(source: path, leftBehind)]))
    }

    /// The cursor of the root being read, or of the next one; nil once every root is read.
    private func openNextRoot() throws(PipelineError) -> StoredRecordCursor? {
        if let cursor { return cursor }
        guard let root = roots.popLast() else { return nil }
        do { cursor = try records.records(of: root) } catch { throw .reading(path, error) }
        cursorRoot = root
        cursorRootNumber = rootNumber(of: root)
        return cursor
    }

    /// The store's number of the root of `entity`'s hierarchy: the scope of its rows' keys.
    private func rootNumber(of entity: String) -> Int {
        model.rootEntity(of: entity).flatMap { records.layout.entityNumbers[$0.name] } ?? 0
    }

    /// The to-ones read from each row's own column: all but optional ones whose inverse is
    /// ordered (their links come with the parent's list, read after the rows). A required one is
    /// read from its column too, so that a row whose parent is not carried (rejected, or named by
    /// a dangling key) is rejected with it, as Core Data could not save it; it was written
    /// without one and the run failed verification (exit 5). Its pairs are counted with the list.
    private func rowToOnes(of entity: String) -> [Relationship] {
        model.allRelationships(of: entity).filter { !$0.isToMany && (!listsPairs(of: $0) || !$0.isOptional) }
    }

    /// Whether the pairs of the to-one `relationship` come with its inverse's ordered lists.
    private func listsPairs(of relationship: Relationship) -> Bool {
        model.inverse(of: relationship)?.isOrdered == true
    }

    public func relationshipsInRecords(of entity: String) -> Set<String>? {
        Set(rowToOnes(of: entity).map(\.name))
    }

    /// What reading rows of `entity` from `cursor` needs; nil when the cursor reads no such entity.
    private func shape(of entity: String, in cursor: StoredRecordCursor) -> RowShape? {
        if let known = shapes[entity] { return known }
        var made: RowShape?
        let schema = chain.schema(version: version, entity: entity)
        let toOne = schema == nil ? [] : rowToOnes(of: entity)
        let attributeNames = schema?.attributes.map(\.name) ?? []
        if let slots = cursor.slots(of: entity, attributes: attributeNames, toOne: toOne.map(\.name)) {
            made = RowShape(slots: slots, isCarried: schema != nil, attributeCount: attributeNames.count, toOne: toOne.map(\.name),
                            toOneStorage: toOne.map { listsPairs(of: $0) ? nil : records.layout.placement(of: $0.name, of: entity)?.storageName },
                            toOneRoots: toOne.map { rootNumber(of: $0.destinationEntity) })
        }
        shapes[entity] = made
        return made
    }

    /// The links a store keeps apart from its rows, one relationship after another: many-to-many
    /// pairs (from one side, `ManagedObjectModel.readsManyToManyPairs`: the ordered one when only
    /// one is), ordered one-to-many children (from the parent, to keep their order) and the
    /// destinations of to-many relationships without an inverse (no record of the other side
    /// carries them), each with its position among its source record's links.
    ///
    /// A many-to-many ordered on both sides is read from both, each side for its own order; its
    /// pairs are tallied from the side `readsManyToManyPairs` chooses, so each is counted once.
    ///
    /// Every pair is counted in the pair tally; the pairs of a relationship the chain does not
    /// carry are counted as the census has them, dropped on purpose, and noted, and so is each
    /// pair the last version cannot hold (`UnheldPairs`), read naming its ends' entities. A pair whose
    /// source key names no row of the store (a dangling foreign key) is handed on with the place
    /// of that key (`SeparateLink.missingSourceAt`), to be reported as a link that found nothing.
    private final class SeparateEdges {
        private var relationships: [(entity: String, relationship: Relationship, tallied: Bool)]
        private var edges: RelationshipEdgeCursor?
        private var carried = (entity: "", relationship: "")
        /// Whether the inverse of the relationship being read becomes a to-one (`SeparateLink.inverseWasToMany`).
        private var inverseWasToMany = false
        /// The root numbers of the sources' and the destinations' hierarchies (`RecordKey.row`).
        private var roots = (source: 0, destination: 0)
        private var storage: String?
        private var previous: Int64?
        private var position = 0
        /// The relationship being read (version `version`'s name), when some of its pairs the last
        /// version cannot hold: each pair is then asked about (`UnheldPairs`).
        private var asking: String?
        /// The store's entities by `Z_ENT`.
        private let entityNames: [Int64: String]

        /// A to-many whose pairs another side delivers (its to-one inverse's column, the other
        /// side of a many-to-many) is read too, untallied, when the chain carries both and the last
        /// version does not fill it from that inverse (`MigrationChain.losesInverse`: the inverse
        /// was removed): it lost every pair.
        init(model: ManagedObjectModel, chain: MigrationChain, version: Int, layout: StoreLayout) {
            entityNames = layout.entityNames
            relationships = model.entities.flatMap { entity in
                entity.relationships.compactMap { relationship in
                    guard relationship.isToMany, !relationship.isTransient else { return nil }
                    guard let inverse = model.inverse(of: relationship) else { return (entity.name, relationship, true) }
                    let tallied = inverse.isToMany ? model.readsManyToManyPairs(from: relationship, of: entity.name, inverse: inverse) : relationship.isOrdered
                    let ownSide = inverse.isToMany ? tallied || model.isOrderedOnBothSides(relationship) : relationship.isOrdered
                    guard !ownSide else { return (entity.name, relationship, tallied) }
                    let carriedAlone = model.hierarchy(below: entity.name).contains {
                        !$0.isAbstract && chain.losesInverse(relationship, of: $0.name, from: version)
                    }
                    return carriedAlone ? (entity.name, relationship, false) : nil
                }
            }.reversed()
        }

        func next(_ store: StoreRecordCursor) throws(PipelineError) -> SeparateLink? {
            while true {
                if let edges {
                    let edge: RelationshipEdge?
                    do { edge = try edges.next() } catch { throw .reading(store.path, error) }
                    if let edge {
                        store.pairs.add(storage)
                        if let asking, let source = edge.sourceEntity.flatMap({ entityNames[$0] }),
                           let destination = edge.destinationEntity.flatMap({ entityNames[$0] }),
                           store.unheld.drops(asking, of: source, to: destination) {
                            continue
                        }
                        position = edge.source == previous ? position + 1 : 0
                        previous = edge.source
                        return SeparateLink(entity: carried.entity, relationship: carried.relationship,
                                            source: .row(edge.source, root: roots.source), target: .row(edge.destination, root: roots.destination),
                                            position: position, missingSourceAt: edge.sourceIsMissing ? edges.placeOfSource(of: edge) : nil,
                                            inverseWasToMany: inverseWasToMany)
                    }
                    self.edges = nil
                }
                guard let (entity, relationship, tallied) = relationships.popLast() else { return nil }
                storage = tallied ? store.records.layout.placement(of: relationship.name, of: entity)?.storageName : nil
                guard let final = store.chain.finalRelationship(relationship.name, of: entity, from: store.version) else {
                    let dropped = storage.flatMap { store.pairCensus[$0] } ?? 0
                    store.pairs.add(storage, dropped)
                    if dropped > 0 {
                        store.notes.append(.droppedPairs(source: store.path, count: dropped, entity: entity, relationship: relationship.name,
                                                         reason: "\(store.chain.last.name) has no relationship they become"))
                    }
                    continue
                }
                carried = final
                inverseWasToMany = store.chain.inverseBecomesToOne(relationship, of: entity, from: store.version)
                roots = (store.rootNumber(of: entity), store.rootNumber(of: relationship.destinationEntity))
                previous = nil
                position = 0
                asking = store.unheld.mayDrop(relationship.name, below: entity, to: relationship.destinationEntity) ? relationship.name : nil
                // Pairs leading to records dropped with their entity are dropped with them.
                let concrete = store.model.hierarchy(below: relationship.destinationEntity).filter { !$0.isAbstract }.count
                let carriedDestinations = store.chain.carriedEntities(below: relationship.destinationEntity, from: store.version)
                do {
                    edges = try store.records.edges(of: relationship.name, of: entity, findingMissingSources: true, namingEntities: asking != nil,
                                                    destinations: tallied || carriedDestinations.count == concrete ? nil : carriedDestinations)
                } catch {
                    throw .reading(store.path, error)
                }
            }
        }
    }
}
