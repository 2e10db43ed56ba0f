import CSQLite
import FerryModel

/// Streams the records of one entity in key order, a row at a time: through one prepared
/// statement, or for a large table of a Core Data store on a machine with cores to spare, from
/// rows two worker threads read (`SplitRecordScan`). Either way each row's values are decoded
/// here, by the same code.
///
/// A row whose values do not fit the model throws `StoreReaderError.invalidValue`; the next call
/// goes on with the following row. SQLite failures (a damaged page) end the stream.
public final class StoredRecordCursor {
    private let plan: RecordPlan
    private let statement: SQLiteStatement
    /// The workers reading the rows, when they are read on worker threads; nil: `statement` reads them.
    private let split: SplitRecordScan?
    /// Where the current row is when the workers read it.
    private var copied: (rows: CopiedRows, row: Int)?
    /// The query the records are read with (for checks of its plan).
    package var sql: String { plan.sql }
    private var finished = false
    /// The row `advance()` last moved to.
    private var current: Row?
    /// How the values of the current row's entity are read (changed with the entity, not per
    /// row: no reference counting per value), and that entity's number and shape (consecutive
    /// rows of one entity look up no dictionary).
    private var plainColumns: [PlainColumn] = []
    private var plainColumnsEntity: (number: Int64, shape: RecordShape)?

    /// An attribute's result column and what makes its value plain, as a trivial value.
    private struct PlainColumn {
        let index: Int32
        let type: AttributeType
        let isExternallyStorable: Bool
    }
    /// For the entity of the last record: an attributes dictionary holding every key (all
    /// `.null`), where each attribute's value sits in it, and slots in position order. A record
    /// copies the dictionary and sets its values in place, without hashing a key per value.
    private var lastShape: RecordDictionaryShape?
    /// `next()`'s values and references of the current row in position order, reused row to row.
    private var rowValues: [AttributeValue] = []
    private var rowReferences: [StoredReference?] = []

    private struct RecordDictionaryShape {
        let entity: String
        let template: [String: AttributeValue]
        let dictionarySlots: [Dictionary<String, AttributeValue>.Index]
        let slots: StoredRowSlots
    }

    /// - Parameter minimumSplitSpan: the span of keys from which a table with a split query is
    ///   read on worker threads (`SplitRecordScan.minimumSpan`), or nil: never.
    init(plan: RecordPlan, database: SQLiteDatabase, minimumSplitSpan: Int64?) throws(StoreReaderError) {
        self.plan = plan
        statement = try StoreReaderError.sqlite { () throws(SQLiteError) in try database.prepare(plan.sql) }
        split = minimumSplitSpan.flatMap { SplitRecordScan.start(plan, database: database, minimumSpan: $0) }
    }

    /// Whether the rows are read on worker threads (for tests).
    package var readsOnWorkers: Bool { split != nil }

    /// The next record, or nil after the last one.
    public func next() throws(StoreReaderError) -> StoredRecord? {
        guard let row = try advance() else { return nil }
        let shape = recordShape(of: row.shape)
        try read(shape.slots, values: &rowValues, references: &rowReferences)
        var attributes = shape.template
        for (position, slot) in shape.dictionarySlots.enumerated() {
            attributes.values[slot] = rowValues[position]
        }
        var toOne: [String: StoredReference] = [:]
        for (relationship, reference) in zip(row.shape.toOne, rowReferences) {
            if let reference { toOne[relationship.name] = reference }
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
        guard current != nil, let column = plan.versionColumn else { return 1 }
        if let copied { return Self.version(copied.rows.value(row: copied.row, column: column)) }
        return Self.version(statement.value(at: column))
    }

    private static func version(_ value: some StoredColumnValue) -> Int64 {
        value.storageClass == .null ? 1 : value.int64
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
        do {
            if let split {
                copied = try split.next()
                hasRow = copied != nil
            } else {
                hasRow = try statement.step()
            }
        } catch {
            finish()
            throw StoreReaderError(error)
        }
        guard hasRow else {
            finish()
            return nil
        }
        let primaryKey = try requiredKey(at: 0, column: "primary key", primaryKey: 0)
        let number = try plan.entityColumn.map { column throws(StoreReaderError) in
            try requiredKey(at: column, column: "Z_ENT", primaryKey: primaryKey)
        } ?? 0
        let shape: RecordShape
        if let known = plainColumnsEntity, known.number == number {
            shape = known.shape
        } else {
            guard let found = plan.shapes[number] else {
                throw invalid(primaryKey, "Z_ENT", "entity number \(number) is not one of the entities read")
            }
            plainColumns = found.attributes.map { PlainColumn(index: $0.index, type: $0.type, isExternallyStorable: $0.isExternallyStorable) }
            plainColumnsEntity = (number, found)
            shape = found
        }
        let row = Row(primaryKey: primaryKey, shape: shape)
        current = row
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

    /// Slots for the rows of `entity`: each stored attribute goes to the index of its name in
    /// `attributes`, each to-one relationship with a foreign key to the index of its name in
    /// `toOne`; the others are read but not kept. Nil when the cursor reads no such entity.
    public func slots(of entity: String, attributes: [String], toOne: [String]) -> StoredRowSlots? {
        guard let shape = plan.shapes.values.first(where: { $0.entity == entity }) else { return nil }
        return StoredRowSlots(entity: entity, attributes: shape.attributes.map { attributes.firstIndex(of: $0.name) },
                              toOne: shape.toOne.map { toOne.firstIndex(of: $0.name) })
    }

    /// Reads the current row's values straight from the statement into their slots, attributes
    /// then to-one relationships, each in position order: an attribute as `value(at:)` gives
    /// it, a to-one as `reference(at:)` does (nil when its key is NULL). The first value that
    /// does not fit the model throws, as `next()` does. Slots that no position maps to keep what
    /// they hold. `slots` must be for the current row's entity.
    public func read(_ slots: StoredRowSlots, values: inout [AttributeValue],
                     references: inout [StoredReference?]) throws(StoreReaderError) {
        guard let row = current else { return }
        precondition(slots.entity == row.shape.entity, "slots of \(slots.entity) for a row of \(row.shape.entity)")
        for (position, slot) in slots.attributes.enumerated() {
            let value = try decodedValue(at: position, of: row)
            if let slot { values[slot] = value }
        }
        // Checked first: the loop makes `references` unique before its first pass, and an empty
        // array (the shared empty storage) is never unique, so it was copied for every row.
        guard !slots.toOne.isEmpty else { return }
        for (position, slot) in slots.toOne.enumerated() {
            let reference = try storedReference(at: position, of: row)
            if let slot { references[slot] = reference }
        }
    }

    /// The current row's attribute at `position`, as its record holds it.
    public func value(at position: Int) throws(StoreReaderError) -> AttributeValue {
        guard let row = current else { return .null }
        return try decodedValue(at: position, of: row)
    }

    /// The attribute at `position` of `row`, the current row.
    private func decodedValue(at position: Int, of row: Row) throws(StoreReaderError) -> AttributeValue {
        // The trivial column description; the full one (with names) only for errors.
        let column = plainColumns[position]
        let reason: String
        do {
            let value = if let copied {
                try ColumnValueDecoder.decode(copied.rows.value(row: copied.row, column: column.index), as: column.type, strict: plan.isCoreDataStore)
            } else {
                try ColumnValueDecoder.decode(statement.value(at: column.index), as: column.type, strict: plan.isCoreDataStore)
            }
            guard column.isExternallyStorable, case .binary(let stored) = value else { return value }
            do { return .binary(try ExternalBinaryData.bytes(of: stored, storePath: plan.path)) } catch { reason = error.description }
        } catch {
            reason = error.reason
        }
        let attribute = row.shape.attributes[position]
        // A Core Data row is named as its object (the entity, which the table does not say, and
        // its Z_PK); a plain SQLite table's row by the table and key alone.
        let object = plan.isCoreDataStore ? "\(row.shape.entity) Z_PK \(row.primaryKey), " : ""
        throw invalid(row.primaryKey, attribute.column, "\(object)attribute \(attribute.name): \(reason)")
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
        if let copied {
            try lend(copied.rows.value(row: copied.row, column: attribute.index), of: attribute, body)
        } else {
            try lend(statement.value(at: attribute.index), of: attribute, body)
        }
    }

    /// `lendPlainValue(at:_:)` of a value, wherever the row is.
    @inline(__always)
    private func lend(_ value: some StoredColumnValue, of attribute: PlainColumn, _ body: (PlainStoredValue?) throws -> Void) rethrows {
        switch (value.storageClass, attribute.type) {
        case (.null, _):
            try body(.null)
        case (.integer, .integer16), (.integer, .integer32), (.integer, .integer64):
            let number = value.int64
            try body(attribute.type.integerRange?.contains(number) == true ? .integer(number) : nil)
        case (.text, .string), (.text, .uri):
            try value.withText { text in try body(PlainStoredValue.isASCII(text) ? .text(text) : nil) }
        case (.blob, .binary) where attribute.isExternallyStorable, (.blob, .transformable) where attribute.isExternallyStorable:
            // Inline bytes are lent where they are; a file reference (or a bad tag) is `value(at:)`'s.
            try value.withBlob { stored in
                guard case .inline(let bytes)? = try? ExternalBinaryData.decode(stored) else { return try body(nil) }
                try body(.bytes(UnsafeRawBufferPointer(rebasing: bytes)))
            }
        case (.blob, .binary), (.blob, .transformable):
            try value.withBlob { try body(.bytes($0)) }
        default:
            try body(nil)
        }
    }

    /// The current row's to-one relationship at `position`: nil when its foreign key is NULL.
    public func reference(at position: Int) throws(StoreReaderError) -> StoredReference? {
        guard let row = current else { return nil }
        return try storedReference(at: position, of: row)
    }

    /// Whether the current row's to-one relationship at `position` has a foreign key (not NULL),
    /// its entity column not read: the pairs of a row that cannot be read are counted with it.
    public func holdsReference(at position: Int) -> Bool {
        guard let row = current else { return false }
        let index = row.shape.toOne[position].keyIndex
        if let copied { return copied.rows.value(row: copied.row, column: index).storageClass != .null }
        return !statement.isNull(at: index)
    }

    /// The to-one relationship at `position` of `row`, the current row.
    private func storedReference(at position: Int, of row: Row) throws(StoreReaderError) -> StoredReference? {
        let relationship = row.shape.toOne[position]
        let primaryKey = row.primaryKey
        guard let destinationKey = try key(at: relationship.keyIndex, column: relationship.keyColumn, primaryKey: primaryKey) else {
            return nil
        }
        var entity = relationship.destination
        if let index = relationship.entityIndex,
           let number = try key(at: index, column: "Z_ENT of \(relationship.name)", primaryKey: primaryKey) {
            guard let name = plan.entityNames[number] else {
                throw invalid(primaryKey, relationship.keyColumn, "destination entity number \(number) is not in the model")
            }
            entity = name
        }
        var order: Int64?
        if let index = relationship.orderIndex {
            order = try key(at: index, column: "order key of \(relationship.name)", primaryKey: primaryKey)
        }
        return StoredReference(primaryKey: destinationKey, entity: entity, orderKey: order)
    }

    /// The attributes template of a shape, its value slots, and the identity slots that read a
    /// row in position order (kept for the next row; the buffers sized to fit).
    private func recordShape(of shape: RecordShape) -> RecordDictionaryShape {
        if let lastShape, lastShape.entity == shape.entity { return lastShape }
        var template: [String: AttributeValue] = [:]
        template.reserveCapacity(shape.attributes.count)
        for attribute in shape.attributes { template[attribute.name] = .null }
        // Looked up after every key is in: indexes stay valid while only values change.
        let dictionarySlots = shape.attributes.compactMap { template.index(forKey: $0.name) }
        let slots = StoredRowSlots(entity: shape.entity, attributes: shape.attributes.indices.map { $0 },
                                   toOne: shape.toOne.indices.map { $0 })
        let made = RecordDictionaryShape(entity: shape.entity, template: template, dictionarySlots: dictionarySlots, slots: slots)
        lastShape = made
        rowValues = .nulls(count: shape.attributes.count)
        rowReferences = Array(repeating: nil, count: shape.toOne.count)
        return made
    }

    /// An integer-valued key column of the current row, nil when NULL. `column` names it in the
    /// error, made only when there is one.
    private func key(at index: Int32, column: @autoclosure () -> String, primaryKey: Int64) throws(StoreReaderError) -> Int64? {
        if let copied { return try key(copied.rows.value(row: copied.row, column: index), column: column(), primaryKey: primaryKey) }
        return try key(statement.value(at: index), column: column(), primaryKey: primaryKey)
    }

    /// `key(at:column:primaryKey:)` of a value, wherever the row is.
    @inline(__always)
    private func key(_ value: some StoredColumnValue, column: @autoclosure () -> String, primaryKey: Int64) throws(StoreReaderError) -> Int64? {
        switch value.storageClass {
        case .integer: return value.int64
        case .null: return nil
        default: throw invalid(primaryKey, column(), "the key is not an integer")
        }
    }

    /// An integer-valued key column that cannot be NULL (`Z_PK`, `Z_ENT`).
    private func requiredKey(at index: Int32, column: String, primaryKey: Int64) throws(StoreReaderError) -> Int64 {
        guard let key = try key(at: index, column: column, primaryKey: primaryKey) else {
            throw invalid(primaryKey, column, "the key is not an integer")
        }
        return key
    }

    private func invalid(_ primaryKey: Int64, _ column: String, _ reason: String) -> StoreReaderError {
        .invalidValue(path: plan.path, table: plan.table, primaryKey: primaryKey, column: column, reason: reason)
    }

    private func finish() {
        finished = true
        copied = nil
        split?.stop()
        statement.finalize()
    }
}
