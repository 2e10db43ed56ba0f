import FerryModel
import FerryStore

/// One record ready to encode, its values in `EntityExportLayout` order: read in place from a
/// cursor's current row (valid until the cursor advances), or held as values (records kept back
/// for `--sort`).
struct ExportRow {
    let primaryKey: Int64
    let toOne: [Int64?]
    var toMany: [[Int64]] = []
    /// The cursor whose current row this is; nil for a held row. (Stored properties rather than
    /// an enum: reading them per value costs no reference counting.)
    private let cursor: StoredRecordCursor?
    /// For each layout attribute, its position in the cursor's row (nil: the store has no
    /// column for it, so it is NULL).
    private let positions: [Int?]
    /// The values of a held row.
    private let heldValues: [AttributeValue]

    /// The current row of `cursor`; `positions` maps the layout's attributes to the cursor's.
    init(current cursor: StoredRecordCursor, primaryKey: Int64, positions: [Int?], toOne: [Int64?]) {
        self.primaryKey = primaryKey
        self.toOne = toOne
        self.cursor = cursor
        self.positions = positions
        heldValues = []
    }

    /// The number of attribute values.
    var attributeCount: Int { cursor == nil ? heldValues.count : positions.count }

    /// The attribute value at layout position `index`.
    func value(_ index: Int) throws(ExportError) -> AttributeValue {
        guard let cursor else { return heldValues[index] }
        guard let position = positions[index] else { return .null }
        do { return try cursor.value(at: position) } catch { throw .store(error) }
    }

    /// Every attribute value, in layout order.
    var attributes: [AttributeValue] {
        get throws(ExportError) {
            guard cursor != nil else { return heldValues }
            return try (0..<attributeCount).map { index throws(ExportError) in try value(index) }
        }
    }

    /// Lends every attribute in layout order, as the store holds it when that is its value
    /// exactly (`PlainStoredValue`), or nil when it needs `value(_:)` (always for a held row).
    func forEachPlainValue(_ body: (_ index: Int, PlainStoredValue?) throws(ExportError) -> Void) throws(ExportError) {
        guard let cursor else {
            for index in heldValues.indices { try body(index, nil) }
            return
        }
        do {
            try cursor.forEachPlainValue(at: positions) { index, plain in try body(index, plain) }
        } catch let error as ExportError {
            throw error
        } catch {
            throw .encoding(reason: "\(error)")
        }
    }

    /// The row with its values copied out, to keep after the cursor moves on.
    func held() throws(ExportError) -> ExportRow {
        ExportRow(primaryKey: primaryKey, toOne: toOne, toMany: toMany, heldValues: try attributes)
    }

    private init(primaryKey: Int64, toOne: [Int64?], toMany: [[Int64]], heldValues: [AttributeValue]) {
        self.primaryKey = primaryKey
        self.toOne = toOne
        self.toMany = toMany
        cursor = nil
        positions = []
        self.heldValues = heldValues
    }
}
