import FerryModel
import FerryStore

/// Writes records of one concrete entity: puts each attribute value into its column, and on a
/// uniqueness conflict finds the record already there so a duplicate policy can be applied.
final class EntityRowWriter {
    /// What became of one record.
    enum Outcome {
        case inserted(Int64)
        /// A duplicate of a row already there.
        case duplicate(of: ExistingRow)
    }

    /// The row a record's values duplicate on a uniqueness constraint: its `Z_PK`, the
    /// constraint's attributes, and the row's entity (a constraint of an ancestor spans its
    /// sub-entities, so it may be a sibling of the record's).
    struct ExistingRow {
        let primaryKey: Int64
        let constraint: [String]
        let entity: String?
    }

    let entity: String
    let schema: RecordSchema
    private let inserter: EntityInserter
    /// For each inserter column, the schema attribute that fills it.
    private let attributeForColumn: [Int?]
    /// For each schema attribute, whether it allows external binary storage (tagged values).
    private let externallyStorable: [Bool]
    /// Each uniqueness constraint of the entity and its ancestors, with a lookup of the row holding given values.
    private let constraints: [(names: [String], attributes: [Int], lookup: UniqueRowLookup)]
    /// Entity names by the store's entity numbers, for the rows the lookups find.
    private let entityNames: [Int: String]

    init(writer: CoreDataStoreWriter, model: ManagedObjectModel, schema: RecordSchema) throws(GraphWriteError) {
        let entity = schema.entity.name
        guard writer.layout.table(forEntity: entity) != nil else { throw .unknownEntity(entity) }
        self.entity = entity
        self.schema = schema
        inserter = try GraphWriteError.wrap { () throws(StoreWriterError) in try writer.inserter(for: entity) }
        var attributeForColumn = [Int?](repeating: nil, count: inserter.columns.count)
        for (index, attribute) in schema.attributes.enumerated() {
            let role = ColumnRole.attribute(entity: schema.declaringEntities[index], name: attribute.name)
            if let column = inserter.columnIndex(for: role) { attributeForColumn[column] = index }
        }
        self.attributeForColumn = attributeForColumn
        externallyStorable = schema.attributes.map(\.allowsExternalBinaryDataStorage)
        var constraints: [(names: [String], attributes: [Int], lookup: UniqueRowLookup)] = []
        for owner in model.ancestry(of: entity) {
            for names in owner.uniquenessConstraints {
                let attributes = names.compactMap { schema.index(of: $0) }
                guard attributes.count == names.count else { continue }
                let roles = attributes.map { ColumnRole.attribute(entity: schema.declaringEntities[$0], name: schema.attributes[$0].name) }
                let lookup = try GraphWriteError.wrap { () throws(StoreWriterError) in
                    try writer.uniqueRowLookup(for: entity, matching: roles)
                }
                guard let lookup else { continue }
                constraints.append((names, attributes, lookup))
            }
        }
        self.constraints = constraints
        entityNames = Dictionary(writer.layout.entityNumbers.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
    }

    /// Inserts a record (keeping `identity` when its key is free), or reports which existing
    /// record it duplicates.
    func insert(_ values: [AttributeValue], identity: ObjectIdentity? = nil) throws(GraphWriteError) -> Outcome {
        do {
            return .inserted(try inserter.insert(values, sources: attributeForColumn, identity: identity))
        } catch let error {
            guard case let .sqlite(failure) = error, failure.primaryCode == 19, !constraints.isEmpty else { throw .store(error) }
            guard let existing = try existingRow(for: values) else { throw .store(error) }
            return .duplicate(of: existing)
        }
    }

    /// Replaces the attribute values of an existing row (keep-newest). When the new values are
    /// another row's on a uniqueness constraint (a copy found by `--key` whose values take a
    /// unique value of another record), nothing changes and that row is returned.
    func replace(_ primaryKey: Int64, with values: [AttributeValue]) throws(GraphWriteError) -> ExistingRow? {
        do { try inserter.replace(primaryKey, with: values, sources: attributeForColumn) } catch {
            guard case let .sqlite(failure) = error, failure.primaryCode == 19,
                  let other = try existingRow(for: values, excluding: primaryKey) else { throw .store(error) }
            return other
        }
        return nil
    }

    /// Whether the entity (or an ancestor) has a uniqueness constraint the store enforces.
    var hasUniquenessConstraints: Bool { !constraints.isEmpty }

    /// The values of a record on each uniqueness constraint that has no nil among them, each
    /// encoded into one key (`IdentityKey.append`).
    func uniqueKeys(of values: [AttributeValue]) -> [(names: [String], key: [UInt8])] {
        constraints.compactMap { constraint in
            let keyValues = constraint.attributes.map { values[$0] }
            guard !keyValues.contains(.null) else { return nil }
            var key: [UInt8] = []
            for value in keyValues { IdentityKey.append(value, to: &key) }
            return (constraint.names, key)
        }
    }

    /// The first row (other than `excluded`) that holds this record's values on one of the
    /// uniqueness constraints.
    func existingRow(for values: [AttributeValue], excluding excluded: Int64? = nil) throws(GraphWriteError) -> ExistingRow? {
        for constraint in constraints {
            guard !constraint.attributes.contains(where: { values[$0] == .null }) else { continue }
            let keyValues = constraint.attributes.map { StoreValue(values[$0], externallyStorable: externallyStorable[$0]) }
            let found = try GraphWriteError.wrap { () throws(StoreWriterError) in try constraint.lookup.row(of: keyValues) }
            if let found, found.primaryKey != excluded {
                return ExistingRow(primaryKey: found.primaryKey, constraint: constraint.names, entity: entityNames[found.entityNumber])
            }
        }
        return nil
    }
}
