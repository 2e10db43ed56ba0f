import FerryModel
import FerryStore

/// Writes records of one concrete entity: puts each attribute value into its column, and on a
/// uniqueness conflict finds the record already there so a duplicate policy can be applied.
final class EntityRowWriter {
    /// What became of one record.
    enum Outcome {
        case inserted(Int64)
        /// A duplicate on `constraint`, of the record `Z_PK` already there.
        case duplicate(of: Int64, constraint: [String])
    }

    let entity: String
    let schema: RecordSchema
    /// The store table of the entity's root.
    let table: String
    private let inserter: EntityInserter
    /// For each inserter column, the schema attribute that fills it.
    private let attributeForColumn: [Int?]
    /// For each schema attribute, whether it allows external binary storage (tagged values).
    private let externallyStorable: [Bool]
    /// Each uniqueness constraint of the entity and its ancestors, with a lookup of the row holding given values.
    private let constraints: [(names: [String], attributes: [Int], lookup: SQLiteStatement)]
    private let writer: CoreDataStoreWriter
    private var update: SQLiteStatement?

    init(writer: CoreDataStoreWriter, model: ManagedObjectModel, schema: RecordSchema) throws(GraphWriteError) {
        let entity = schema.entity.name
        let layout = writer.layout
        guard let table = layout.table(forEntity: entity), case let .entity(_, members) = table.kind else {
            throw .unknownEntity(entity)
        }
        self.entity = entity
        self.schema = schema
        self.table = table.name
        self.writer = writer
        inserter = try GraphWriteError.wrap { () throws(StoreWriterError) in try writer.inserter(for: entity) }
        var attributeForColumn = [Int?](repeating: nil, count: inserter.columns.count)
        for (index, attribute) in schema.attributes.enumerated() {
            let role = ColumnRole.attribute(entity: schema.declaringEntities[index], name: attribute.name)
            if let column = inserter.columnIndex(for: role) { attributeForColumn[column] = index }
        }
        self.attributeForColumn = attributeForColumn
        externallyStorable = schema.attributes.map(\.allowsExternalBinaryDataStorage)
        let numbers = members.compactMap { layout.entityNumbers[$0] }.map(String.init).joined(separator: ", ")
        var constraints: [(names: [String], attributes: [Int], lookup: SQLiteStatement)] = []
        for owner in model.ancestry(of: entity) {
            for names in owner.uniquenessConstraints {
                let attributes = names.compactMap { schema.index(of: $0) }
                let columns = attributes.compactMap { index in
                    table.column(for: .attribute(entity: schema.declaringEntities[index], name: schema.attributes[index].name))?.name
                }
                guard attributes.count == names.count, columns.count == names.count else { continue }
                let condition = columns.map { "\($0) = ?" }.joined(separator: " AND ")
                let sql = "SELECT Z_PK FROM \(table.name) WHERE \(condition) AND Z_ENT IN (\(numbers)) ORDER BY Z_PK LIMIT 1"
                let lookup = try GraphWriteError.wrap { () throws(StoreWriterError) in try writer.prepareStatement(sql) }
                constraints.append((names, attributes, lookup))
            }
        }
        self.constraints = constraints
    }

    /// Inserts a record (keeping `identity` when its key is free), or reports which existing
    /// record it duplicates.
    func insert(_ values: [AttributeValue], identity: ObjectIdentity? = nil) throws(GraphWriteError) -> Outcome {
        do {
            return .inserted(try inserter.insert(values, sources: attributeForColumn, identity: identity))
        } catch let error {
            guard case let .sqlite(failure) = error, failure.primaryCode == 19, !constraints.isEmpty else { throw .store(error) }
            guard let (existing, names) = try existingRow(for: values) else { throw .store(error) }
            return .duplicate(of: existing, constraint: names)
        }
    }

    /// Replaces the attribute values of an existing row (keep-newest).
    func replace(_ primaryKey: Int64, with values: [AttributeValue]) throws(GraphWriteError) {
        let columns = inserter.columns.enumerated().filter { attributeForColumn[$0.offset] != nil }
        if update == nil {
            let assignments = columns.map { "\($0.element.name) = ?" }.joined(separator: ", ")
            let sql = "UPDATE \(table) SET \(assignments) WHERE Z_PK = ?"
            update = try GraphWriteError.wrap { () throws(StoreWriterError) in try writer.prepareStatement(sql) }
        }
        guard let update else { return }
        let row = storeValues(values)
        try GraphWriteError.sqlite { () throws(SQLiteError) in
            defer { try? update.reset() }
            for (position, column) in columns.enumerated() {
                try update.bind(row[column.offset], at: Int32(position + 1))
            }
            try update.bind(primaryKey, at: Int32(columns.count + 1))
            try update.run()
        }
    }

    /// A record's values in column order.
    private func storeValues(_ values: [AttributeValue]) -> [StoreValue] {
        attributeForColumn.map { index in index.map { StoreValue(values[$0], externallyStorable: externallyStorable[$0]) } ?? .null }
    }

    /// Whether the entity (or an ancestor) has a uniqueness constraint the store enforces.
    var hasUniquenessConstraints: Bool { !constraints.isEmpty }

    /// The values of a record on each uniqueness constraint that has no nil among them, each
    /// encoded into one key (`IdentityIndex.append`).
    func uniqueKeys(of values: [AttributeValue]) -> [(names: [String], key: [UInt8])] {
        constraints.compactMap { constraint in
            let keyValues = constraint.attributes.map { values[$0] }
            guard !keyValues.contains(.null) else { return nil }
            var key: [UInt8] = []
            for value in keyValues { IdentityIndex.append(value, to: &key) }
            return (constraint.names, key)
        }
    }

    /// The first row that holds this record's values on one of the uniqueness constraints.
    func existingRow(for values: [AttributeValue]) throws(GraphWriteError) -> (Int64, [String])? {
        for constraint in constraints {
            guard !constraint.attributes.contains(where: { values[$0] == .null }) else { continue }
            let keyValues = constraint.attributes.map { StoreValue(values[$0], externallyStorable: externallyStorable[$0]) }
            let lookup = constraint.lookup
            let found: Int64? = try GraphWriteError.sqlite { () throws(SQLiteError) in
                defer { try? lookup.reset() }
                for (position, value) in keyValues.enumerated() { try lookup.bind(value, at: Int32(position + 1)) }
                return try lookup.step() ? lookup.int64(at: 0) : nil
            }
            if let found { return (found, constraint.names) }
        }
        return nil
    }
}
