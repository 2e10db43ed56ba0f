import CSQLite
import FerryModel

/// Streams the records of one entity through one prepared statement, a row at a time.
///
/// A row whose values do not fit the model throws `StoreReaderError.invalidValue`; the next call
/// goes on with the following row. SQLite failures (a damaged page) end the stream.
public final class StoredRecordCursor {
    private let plan: RecordPlan
    private let statement: SQLiteStatement
    private var finished = false
    /// The shape of the entity of the last row, with an attributes dictionary holding every key
    /// (all `.null`) and where each attribute's value sits in it: a row copies the dictionary and
    /// sets its values in place, without hashing a key per value.
    private var lastShape: (number: Int64, shape: RecordShape, template: [String: AttributeValue],
                            slots: [Dictionary<String, AttributeValue>.Index])?

    init(plan: RecordPlan, database: SQLiteDatabase) throws(StoreReaderError) {
        self.plan = plan
        statement = try StoreReaderError.sqlite { () throws(SQLiteError) in try database.prepare(plan.sql) }
    }

    /// The next record, or nil after the last one.
    public func next() throws(StoreReaderError) -> StoredRecord? {
        guard !finished else { return nil }
        let hasRow: Bool
        do { hasRow = try statement.step() } catch {
            finish()
            throw StoreReaderError(error)
        }
        guard hasRow else {
            finish()
            return nil
        }
        let primaryKey = try key(at: 0, column: "primary key", primaryKey: 0)
        let number = try plan.entityColumn.map { column throws(StoreReaderError) in
            try key(at: column, column: "Z_ENT", primaryKey: primaryKey)
        } ?? 0
        let (shape, template, slots) = try layout(of: number, primaryKey: primaryKey)
        var attributes = template
        for (attribute, slot) in zip(shape.attributes, slots) {
            do {
                var value = try ColumnValueDecoder.decode(statement, at: attribute.index, as: attribute.type)
                if attribute.isExternallyStorable, case .binary(let stored) = value {
                    value = .binary(try ExternalBinaryData.resolve(stored, storePath: plan.path))
                }
                attributes.values[slot] = value
            } catch {
                throw invalid(primaryKey, attribute.column, "attribute \(attribute.name): \(error.reason)")
            }
        }
        var toOne: [String: StoredReference] = [:]
        for relationship in shape.toOne where !statement.isNull(at: relationship.keyIndex) {
            toOne[relationship.name] = try reference(relationship, primaryKey: primaryKey)
        }
        return StoredRecord(primaryKey: primaryKey, entity: shape.entity, attributes: attributes, toOne: toOne)
    }

    /// The shape of entity `number`, its attributes template and value slots (kept for the next row).
    private func layout(of number: Int64, primaryKey: Int64) throws(StoreReaderError)
        -> (RecordShape, [String: AttributeValue], [Dictionary<String, AttributeValue>.Index])
    {
        if let lastShape, lastShape.number == number { return (lastShape.shape, lastShape.template, lastShape.slots) }
        guard let shape = plan.shapes[number] else {
            throw invalid(primaryKey, "Z_ENT", "entity number \(number) is not one of the entities read")
        }
        var template: [String: AttributeValue] = [:]
        template.reserveCapacity(shape.attributes.count)
        for attribute in shape.attributes { template[attribute.name] = .null }
        // Looked up after every key is in: indexes stay valid while only values change.
        let slots = shape.attributes.compactMap { template.index(forKey: $0.name) }
        lastShape = (number, shape, template, slots)
        return (shape, template, slots)
    }

    private func reference(_ relationship: ToOneColumns, primaryKey: Int64) throws(StoreReaderError) -> StoredReference {
        let destinationKey = try key(at: relationship.keyIndex, column: relationship.keyColumn, primaryKey: primaryKey)
        var entity = relationship.destination
        if let index = relationship.entityIndex, !statement.isNull(at: index) {
            let number = try key(at: index, column: "Z_ENT of \(relationship.name)", primaryKey: primaryKey)
            guard let name = plan.entityNames[number] else {
                throw invalid(primaryKey, relationship.keyColumn, "destination entity number \(number) is not in the model")
            }
            entity = name
        }
        var order: Int64?
        if let index = relationship.orderIndex, !statement.isNull(at: index) {
            order = try key(at: index, column: "order key of \(relationship.name)", primaryKey: primaryKey)
        }
        return StoredReference(primaryKey: destinationKey, entity: entity, orderKey: order)
    }

    /// An integer-valued key column.
    private func key(at index: Int32, column: String, primaryKey: Int64) throws(StoreReaderError) -> Int64 {
        guard statement.storageClass(at: index) == SQLITE_INTEGER else {
            throw invalid(primaryKey, column, "the key is not an integer")
        }
        return statement.int64(at: index)
    }

    private func invalid(_ primaryKey: Int64, _ column: String, _ reason: String) -> StoreReaderError {
        .invalidValue(path: plan.path, table: plan.table, primaryKey: primaryKey, column: column, reason: reason)
    }

    private func finish() {
        finished = true
        statement.finalize()
    }
}
