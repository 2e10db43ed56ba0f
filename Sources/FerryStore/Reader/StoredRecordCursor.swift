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
    /// The row `advance()` last moved to.
    private var current: Row?
    /// How the values of the current row's entity are read (changed with the entity, not per
    /// row: no reference counting per value).
    private var plainColumns: [PlainColumn] = []
    private var plainColumnsEntity: String?

    /// An attribute's result column and what makes its value plain, as a trivial value.
    private struct PlainColumn {
        let index: Int32
        let type: AttributeType
        let isExternallyStorable: Bool
    }
    /// For the entity of the last record, an attributes dictionary holding every key (all
    /// `.null`) and where each attribute's value sits in it: a record copies the dictionary and
    /// sets its values in place, without hashing a key per value.
    private var lastShape: (entity: String, template: [String: AttributeValue], slots: [Dictionary<String, AttributeValue>.Index])?

    init(plan: RecordPlan, database: SQLiteDatabase) throws(StoreReaderError) {
        self.plan = plan
        statement = try StoreReaderError.sqlite { () throws(SQLiteError) in try database.prepare(plan.sql) }
    }

    /// The next record, or nil after the last one.
    public func next() throws(StoreReaderError) -> StoredRecord? {
        guard let row = try advance() else { return nil }
        let (template, slots) = template(of: row.shape)
        var attributes = template
        for (position, slot) in slots.enumerated() {
            attributes.values[slot] = try value(at: position)
        }
        var toOne: [String: StoredReference] = [:]
        for (position, relationship) in row.shape.toOne.enumerated() {
            if let reference = try reference(at: position) { toOne[relationship.name] = reference }
        }
        return StoredRecord(primaryKey: row.primaryKey, entity: row.shape.entity, attributes: attributes, toOne: toOne,
                            version: versionOfCurrentRow)
    }

    /// The concrete entity of the row last moved to, also when its values failed to read (so a
    /// reject can be counted for the right entity); nil before the first row and after the last.
    public var entityOfCurrentRow: String? { current?.shape.entity }

    /// `Z_OPT` of the row last moved to: the optimistic-locking version (1 for plain tables and
    /// when NULL). Read when asked, not by `advance()`: most callers never need it.
    public var versionOfCurrentRow: Int64 {
        guard current != nil, let column = plan.versionColumn, !statement.isNull(at: column) else { return 1 }
        return statement.int64(at: column)
    }

    // MARK: Reading a row in place

    /// The row `advance()` moved to.
    public struct Row {
        /// `Z_PK`, or the rowid of a plain table.
        public let primaryKey: Int64
        fileprivate let shape: RecordShape
        /// The row's concrete entity.
        public var entity: String { shape.entity }
    }

    /// Moves to the next row without building its record (nil after the last one). Its values
    /// are read by position with `value(at:)`, `forEachPlainValue(at:_:)` and `reference(at:)`
    /// until the next call; `attributeNames(of:)` and `toOneNames(of:)` give the positions.
    /// For callers that turn millions of rows into bytes and need no dictionary per row.
    public func advance() throws(StoreReaderError) -> Row? {
        current = nil
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
        guard let shape = plan.shapes[number] else {
            throw invalid(primaryKey, "Z_ENT", "entity number \(number) is not one of the entities read")
        }
        let row = Row(primaryKey: primaryKey, shape: shape)
        current = row
        if plainColumnsEntity != shape.entity {
            plainColumns = shape.attributes.map { PlainColumn(index: $0.index, type: $0.type, isExternallyStorable: $0.isExternallyStorable) }
            plainColumnsEntity = shape.entity
        }
        return row
    }

    /// The stored attributes of `entity` (inherited ones included) in position order; nil when
    /// the cursor reads no such entity.
    public func attributeNames(of entity: String) -> [String]? {
        plan.shapes.values.first { $0.entity == entity }?.attributes.map(\.name)
    }

    /// The to-one relationships of `entity` with a foreign key column, in position order.
    public func toOneNames(of entity: String) -> [String]? {
        plan.shapes.values.first { $0.entity == entity }?.toOne.map(\.name)
    }

    /// The current row's attribute at `position`, as its record holds it.
    public func value(at position: Int) throws(StoreReaderError) -> AttributeValue {
        guard current != nil else { return .null }
        // The trivial column description; the full one (with names) only for errors.
        let column = plainColumns[position]
        let reason: String
        do {
            let value = try ColumnValueDecoder.decode(statement, at: column.index, as: column.type)
            guard column.isExternallyStorable, case .binary(let stored) = value else { return value }
            do { return .binary(try ExternalBinaryData.bytes(of: stored, storePath: plan.path)) } catch { reason = error.description }
        } catch {
            reason = error.reason
        }
        guard let row = current else { return .null }
        let attribute = row.shape.attributes[position]
        throw invalid(row.primaryKey, attribute.column, "attribute \(attribute.name): \(reason)")
    }

    /// Lends the current row's attributes at `positions` one after the other, each as SQLite
    /// holds it when that is exactly the value `value(at:)` gives (see `PlainStoredValue`), or
    /// nil when the value needs converting (read it with `value(at:)`); a nil position is an
    /// attribute the store has no column for, lent as NULL. The buffers are valid only inside
    /// `body`. One call per row, not generic: callers in other modules get the specialized loop.
    public func forEachPlainValue(at positions: [Int?], _ body: (_ offset: Int, PlainStoredValue?) throws -> Void) rethrows {
        guard current != nil else { return }
        for (offset, position) in positions.enumerated() {
            guard let position else {
                try body(offset, .null)
                continue
            }
            try lendPlainValue(at: position) { try body(offset, $0) }
        }
    }

    /// Lends the current row's attribute at `position` as `forEachPlainValue(at:_:)` does, for
    /// callers that read the attributes between other fields. Valid only inside `body`.
    public func withPlainValue(at position: Int, _ body: (PlainStoredValue?) throws -> Void) rethrows {
        guard current != nil else { return }
        try lendPlainValue(at: position, body)
    }

    /// Always inlined: in `forEachPlainValue(at:_:)`'s loop a call per value cost 3% of a CSV export.
    @inline(__always)
    private func lendPlainValue(at position: Int, _ body: (PlainStoredValue?) throws -> Void) rethrows {
        let attribute = plainColumns[position]
        let index = attribute.index
        switch (statement.storageClass(at: index), attribute.type) {
        case (.null, _):
            try body(.null)
        case (.integer, .integer16), (.integer, .integer32), (.integer, .integer64):
            let number = statement.int64(at: index)
            try body(attribute.type.integerRange?.contains(number) == true ? .integer(number) : nil)
        case (.text, .string), (.text, .uri):
            try statement.withText(at: index) { text in try body(PlainStoredValue.isASCII(text) ? .text(text) : nil) }
        case (.blob, .binary) where attribute.isExternallyStorable, (.blob, .transformable) where attribute.isExternallyStorable:
            // Inline bytes are lent where they are; a file reference (or a bad tag) is `value(at:)`'s.
            try statement.withBlob(at: index) { stored in
                guard case .inline(let bytes)? = try? ExternalBinaryData.decode(stored) else { return try body(nil) }
                try body(.bytes(UnsafeRawBufferPointer(rebasing: bytes)))
            }
        case (.blob, .binary), (.blob, .transformable):
            try statement.withBlob(at: index) { try body(.bytes($0)) }
        default:
            try body(nil)
        }
    }

    /// The current row's to-one relationship at `position`: nil when its foreign key is NULL.
    public func reference(at position: Int) throws(StoreReaderError) -> StoredReference? {
        guard let row = current else { return nil }
        let relationship = row.shape.toOne[position]
        guard !statement.isNull(at: relationship.keyIndex) else { return nil }
        return try reference(relationship, primaryKey: row.primaryKey)
    }

    /// The attributes template of a shape and its value slots (kept for the next row).
    private func template(of shape: RecordShape) -> ([String: AttributeValue], [Dictionary<String, AttributeValue>.Index]) {
        if let lastShape, lastShape.entity == shape.entity { return (lastShape.template, lastShape.slots) }
        var template: [String: AttributeValue] = [:]
        template.reserveCapacity(shape.attributes.count)
        for attribute in shape.attributes { template[attribute.name] = .null }
        // Looked up after every key is in: indexes stay valid while only values change.
        let slots = shape.attributes.compactMap { template.index(forKey: $0.name) }
        lastShape = (shape.entity, template, slots)
        return (template, slots)
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
        guard statement.storageClass(at: index) == .integer else {
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
