import FerryModel
import FerryStore

/// Computes fingerprints of a store: of records, as `StoreRecordReader` gives them (the same
/// attribute values any reader of the store sees; read straight from the columns by
/// `RecordFingerprintScan` when every row is plainly readable), and of relationship pairs, read
/// by one join of the pairs' table with both ends' key columns (FerryStore's `PairKeyScan`).
struct StoreFingerprints {
    let context: StoreContext
    /// The record reader, for entities the scan hands over (made when first needed).
    let records: () throws(StoreReaderError) -> StoreRecordReader

    /// What `verify` reports: record fingerprints of every entity over all its stored attributes,
    /// each record tied to its `Z_PK` (`RecordKeying.all`; the entry's attributes start with
    /// `Z_PK`), with the records left out as unreadable, and pair fingerprints of every relationship.
    struct Results: Sendable {
        var records: [(entry: FingerprintEntry, unreadable: [StoreReaderError])] = []
        var edges: [FingerprintEntry] = []
    }

    /// Every stored attribute an entity has (inherited ones included), in encoding order.
    func defaultAttributes(of entity: String) -> [String] {
        CanonicalEncoding.ordered(context.model.allAttributes(of: entity)
            .filter { !$0.isTransient && $0.type.sqlColumnType != nil }.map(\.name))
    }

    /// The fingerprint of an entity's records (its sub-entities' included) over `attributes`, the
    /// records `keying` names tied to their `Z_PK`. Rows whose values cannot be read are counted
    /// apart and left out.
    func records(of entity: String, attributes: [String], keying: RecordKeying = .none)
        throws(StoreReaderError) -> (fingerprint: Fingerprint, unreadable: [StoreReaderError])
    {
        let names = CanonicalEncoding.ordered(attributes)
        if let fingerprint = RecordFingerprintScan(entity: entity, attributes: names, keying: keying, context: context)?
            .run(on: context.connection) {
            return (fingerprint, [])
        }
        let cursor: StoredRecordCursor
        do { cursor = try records().records(of: entity) } catch {
            // The reader refuses a hierarchy holding a row of an abstract entity; the store checks
            // report the row (`entity-number`), and the records cannot be fingerprinted.
            guard case .abstractEntityRow = error else { throw error }
            return (Fingerprint(), [error])
        }
        var fingerprint = Fingerprint()
        var unreadable: [StoreReaderError] = []
        while true {
            do {
                guard let record = try cursor.next() else { break }
                fingerprint.add(record.attributes, attributes: names, key: keying.key(for: record.primaryKey))
            } catch {
                guard case .invalidValue = error else { throw error }
                unreadable.append(error)
            }
        }
        return (fingerprint, unreadable)
    }

    /// Every entity's records and every relationship's pairs, their ends named as `pairKeying` says
    /// (with `pairsBetweenRecordsOnly`, only pairs whose ends are both records: `PairKeyScan`).
    func all(pairKeying: PairKeying = .preferred, pairsBetweenRecordsOnly: Bool = false) throws(VerificationError) -> Results {
        var results = Results()
        for entity in context.model.entitiesInStoreOrder {
            let attributes = defaultAttributes(of: entity.name)
            do {
                let found = try records(of: entity.name, attributes: attributes, keying: .all)
                results.records.append((FingerprintEntry(subject: entity.name, attributes: [EdgeKey.primaryKey.label] + attributes,
                                                         fingerprint: found.fingerprint),
                                        found.unreadable))
            } catch {
                throw .unreadableStore(error)
            }
        }
        results.edges = try edges(pairKeying, betweenRecordsOnly: pairsBetweenRecordsOnly)
        return results
    }

    /// Pairs of every to-one relationship, of each many-to-many once (from the side its join
    /// table is named after), and of every to-many without an inverse, each end keyed as
    /// `pairKeying` says, with their ranks where a side is ordered. A to-many with a to-one
    /// inverse is its inverse's pairs reversed.
    private func edges(_ pairKeying: PairKeying, betweenRecordsOnly: Bool) throws(VerificationError) -> [FingerprintEntry] {
        var entries: [FingerprintEntry] = []
        for (entity, relationship) in context.storedRelationships {
            if relationship.isToMany, !isFingerprintedFromThisSide(relationship, of: entity.name) { continue }
            guard let storage = RelationshipPairs(relationship, declaredBy: entity.name, rowsOf: entity.name,
                                                  model: context.model, layout: context.layout) else { continue }
            let sourceKey = pairKeying.key(for: entity.name, in: context.model)
            let destinationKey = pairKeying.key(for: relationship.destinationEntity, in: context.model)
            let fingerprint = try edges(of: storage, sourceKey: sourceKey, destinationKey: destinationKey, betweenRecordsOnly: betweenRecordsOnly)
            entries.append(FingerprintEntry(subject: "\(entity.name).\(relationship.name)",
                                            attributes: [sourceKey.label, destinationKey.label], fingerprint: fingerprint))
        }
        return entries
    }

    /// Whether a to-many relationship's pairs are fingerprinted from its side: its own key (it has
    /// no inverse), or a join table named after it.
    private func isFingerprintedFromThisSide(_ relationship: Relationship, of entity: String) -> Bool {
        switch context.layout.placement(of: relationship.name, of: entity) {
        case .destinationRows(let key): key.isToManyKey
        case .joinTable: context.layout.joinTables.contains { $0.kind == .join(entity: entity, relationship: relationship.name) }
        case .sourceRow, nil: false
        }
    }

    /// The fingerprint of a relationship's pairs, each end named by its key, with each pair's
    /// rank in the ordered lists at `rankedEnds` (every ordered side when nil): the order of an
    /// ordered to-many is part of what a store holds. `reversed` names each pair's destination
    /// first: the pairs as the inverse relationship holds them. With `keeping` (both keys
    /// `Z_PK`), only the pairs it keeps count, ranked among themselves. `ownSourceRowsOnly`:
    /// only pairs whose source is a row of the source entity itself. `betweenRecordsOnly`: only
    /// pairs whose ends are both records (`PairKeyScan`).
    func edges(of storage: RelationshipPairs, sourceKey: EdgeKey, destinationKey: EdgeKey, rankedEnds: Set<PairOrder.End>? = nil,
               reversed: Bool = false, keeping: KeptPairEnds? = nil, ownSourceRowsOnly: Bool = false,
               betweenRecordsOnly: Bool = false) throws(VerificationError) -> Fingerprint {
        let source = try keyColumns(sourceKey, of: storage.sourceEntity)
        let destination = try keyColumns(destinationKey, of: storage.destinationEntity)
        let ranked = storage.orders.filter { rankedEnds?.contains($0.end) ?? true }
        let scan = try pairKeyScan(storage, sourceKey: source.key, destinationKey: destination.key, ranked: ranked,
                                   ownSourceRowsOnly: ownSourceRowsOnly, betweenRecordsOnly: betweenRecordsOnly)
        let sourceReader = KeyValueReader(attributes: source.attributes, storePath: context.connection.path)
        let destinationReader = KeyValueReader(attributes: destination.attributes, storePath: context.connection.path)
        let destinationColumn = Int32(source.attributes.count)
        let rankColumns = (0..<ranked.count).map { Int32(source.attributes.count + destination.attributes.count + $0) }
        var fingerprint = Fingerprint()
        var kept = KeptPairs(orders: ranked, reversed: reversed)
        var bytes: [UInt8] = []
        do {
            try scan.forEachPair(on: context.connection) { statement in
                if let keeping {
                    let ends = (source: statement.int64(at: 0), destination: statement.int64(at: destinationColumn))
                    guard keeping.keeps(source: ends.source, destination: ends.destination) else { return }
                    kept.add(ends, ranks: rankColumns.map { statement.int64(at: $0) }, to: &fingerprint)
                    return
                }
                bytes.removeAll(keepingCapacity: true)
                if reversed {
                    destinationReader.appendKey(statement, from: destinationColumn, to: &bytes)
                    sourceReader.appendKey(statement, from: 0, to: &bytes)
                } else {
                    sourceReader.appendKey(statement, from: 0, to: &bytes)
                    destinationReader.appendKey(statement, from: destinationColumn, to: &bytes)
                }
                for column in rankColumns { CanonicalEncoding.append(.integer(statement.int64(at: column)), to: &bytes) }
                bytes.withUnsafeBytes { fingerprint.add(encoded: $0) }
            }
        } catch {
            throw .unreadableStore(.sqlite(error))
        }
        kept.finish(into: &fingerprint)
        return fingerprint
    }

    /// The pairs of a relationship, both ends by `Z_PK` (source first), those `keeping` keeps
    /// (every one when nil); with `ownSourceRowsOnly`, of the source entity's own rows.
    func primaryKeyPairs(of storage: RelationshipPairs, ownSourceRowsOnly: Bool,
                         keeping: KeptPairEnds?) throws(VerificationError) -> [(source: Int64, destination: Int64)] {
        let scan = try pairKeyScan(storage, sourceKey: .primaryKey, destinationKey: .primaryKey, ranked: [], ownSourceRowsOnly: ownSourceRowsOnly)
        var pairs: [(source: Int64, destination: Int64)] = []
        do {
            try scan.forEachPair(on: context.connection) { statement in
                let pair = (source: statement.int64(at: 0), destination: statement.int64(at: 1))
                if keeping?.keeps(source: pair.source, destination: pair.destination) ?? true { pairs.append(pair) }
            }
        } catch {
            throw .unreadableStore(.sqlite(error))
        }
        return pairs
    }

    /// The scan of a relationship's pairs between its ends' tables (`PairKeyScan`).
    private func pairKeyScan(_ storage: RelationshipPairs, sourceKey: PairKeyScan.Key, destinationKey: PairKeyScan.Key, ranked: [PairOrder],
                             ownSourceRowsOnly: Bool, betweenRecordsOnly: Bool = false) throws(VerificationError) -> PairKeyScan {
        guard let sourceTable = context.table(of: storage.sourceEntity),
              let destinationTable = context.table(of: storage.destinationEntity) else {
            throw .invalidModel(path: context.connection.path, reason: "an end of \(storage.label) has no table")
        }
        return PairKeyScan(storage, sourceTable: sourceTable.name, destinationTable: destinationTable.name, sourceKey: sourceKey,
                           destinationKey: destinationKey, ranked: ranked, ownSourceRowsOnly: ownSourceRowsOnly,
                           betweenRecordsOnly: betweenRecordsOnly, model: context.model, layout: context.layout)
    }

    /// The columns naming an end of a pair by `key`, with the attribute each holds (nil for `Z_PK`).
    private func keyColumns(_ key: EdgeKey, of entity: String) throws(VerificationError) -> (key: PairKeyScan.Key, attributes: [Attribute?]) {
        switch key {
        case .primaryKey:
            return (.primaryKey, [nil])
        case .attributes(let names):
            let attributes = context.model.allAttributes(of: entity)
            var columns: [String] = []
            var found: [Attribute?] = []
            for name in names {
                guard let attribute = attributes.first(where: { $0.name == name }),
                      let column = context.propertyColumn(name, of: entity) else {
                    throw .invalidModel(path: context.connection.path, reason: "\(entity) has no stored attribute \(name) to use as a key")
                }
                columns.append(column.name)
                found.append(attribute)
            }
            return (.columns(columns), found)
        }
    }
}
