import FerryFormats
import FerryModel
import FerryStore

/// The fast way to a record fingerprint: one statement over the entity's table (FerryStore's
/// `EntityRowScan`, plain SQL sharing nothing with the record reader), each row's
/// values encoded straight from SQLite's buffers into one reused byte buffer (no records, no
/// dictionaries, no Strings for ASCII text), hashed without allocating.
///
/// It gives exactly what `StoreRecordReader` records passed to `Fingerprint.add(_:attributes:)`
/// give, for the rows where that is plain to see: every value of the row's concrete entity NULL
/// or of the storage class Core Data writes for its type (and in range), every key column an
/// integer. On any other row (or an SQLite error) it gives up and returns nil, and the caller
/// reads the entity through the record reader, which decides what such a row means (a
/// converted value, or an unreadable record left out). A row's `Z_PK` (result column 0) is in its
/// term when `keying` says so.
struct RecordFingerprintScan {
    /// A result column holding an attribute of a type.
    private struct ValueColumn {
        let index: Int32
        let type: AttributeType
        /// The attribute allows external storage: a blob is tagged (`ExternalBinaryData`).
        var tagged = false
    }

    /// How the row of one concrete entity is read.
    private struct RowShape {
        let number: Int64
        /// Per fingerprinted attribute, in encoding order: its column, or nil when the entity
        /// has no such stored attribute (it encodes as NULL).
        let encoded: [ValueColumn?]
        /// The entity's other attribute columns: read only to see that they are readable.
        let checked: [ValueColumn]
        /// To-one key and order key columns: integers when set.
        let keys: [Int32]
        /// `Z<n>_` destination entity columns: a known entity number when set.
        let entityNumbers: [Int32]
    }

    private let rows: EntityRowScan
    private let attributeCount: Int
    private let shapes: [RowShape]
    private let knownNumbers: Set<Int64>
    private let keying: RecordKeying

    /// The scan of `entity`'s records (its sub-entities' included) over `attributes` (encoding
    /// order), the rows `keying` names tied to their key; nil when the model or the layout does not know it.
    init?(entity: String, attributes: [String], keying: RecordKeying = .none, context: StoreContext) {
        guard context.model.entity(named: entity) != nil, let table = context.table(of: entity) else { return nil }
        var selected: [String] = []
        func index(of column: String) -> Int32 {
            if let existing = selected.firstIndex(of: column) { return EntityRowScan.resultColumn(of: existing) }
            selected.append(column)
            return EntityRowScan.resultColumn(of: selected.count - 1)
        }
        var shapes: [RowShape] = []
        for member in context.model.hierarchy(below: entity) {
            guard let number = context.layout.entityNumbers[member.name] else { continue }
            var byName: [String: ValueColumn] = [:]
            var keys: [Int32] = [], entityNumbers: [Int32] = []
            for column in context.layout.columns(forEntity: member.name) {
                switch column.role {
                case .attribute(let owner, let name):
                    guard let attribute = context.model.entity(named: owner)?.attribute(named: name) else { continue }
                    byName[name] = ValueColumn(index: index(of: column.name), type: attribute.type,
                                               tagged: attribute.allowsExternalBinaryDataStorage)
                case .toOne, .orderKey:
                    keys.append(index(of: column.name))
                case .toOneEntityNumber:
                    entityNumbers.append(index(of: column.name))
                default:
                    continue
                }
            }
            let fingerprinted = Set(attributes)
            shapes.append(RowShape(
                number: Int64(number), encoded: attributes.map { byName[$0] },
                checked: byName.filter { !fingerprinted.contains($0.key) }.map(\.value),
                keys: keys, entityNumbers: entityNumbers))
        }
        self.shapes = shapes
        self.keying = keying
        attributeCount = attributes.count
        knownNumbers = Set(context.layout.entityNumbers.values.map(Int64.init))
        rows = EntityRowScan(table: table.name, columns: selected, numbers: shapes.map { Int($0.number) })
    }

    /// The fingerprint, or nil when a row (or SQLite) needs the record reader's judgement.
    func run(on connection: ScanConnection) -> Fingerprint? {
        var fingerprint = Fingerprint()
        var bytes: [UInt8] = []
        var scratch: [UInt8] = []
        bytes.reserveCapacity(512)
        let everyRow = try? rows.forEachRow(on: connection) { statement in
            guard statement.storageClass(at: 0) == .integer, statement.storageClass(at: 1) == .integer else { return false }
            let number = statement.int64(at: 1)
            guard let shape = shapes.first(where: { $0.number == number }) else { return false }
            bytes.removeAll(keepingCapacity: true)
            CanonicalEncoding.appendRecordStart(attributeCount: attributeCount, key: keying.key(for: statement.int64(at: 0)), to: &bytes)
            for column in shape.encoded {
                guard let column else {
                    CanonicalEncoding.append(AttributeValue.null, to: &bytes)
                    continue
                }
                guard Self.append(statement, column, to: &bytes) else { return false }
            }
            for column in shape.checked {
                scratch.removeAll(keepingCapacity: true)
                guard Self.append(statement, column, to: &scratch) else { return false }
            }
            for key in shape.keys where !statement.isNull(at: key) {
                guard statement.storageClass(at: key) == .integer else { return false }
            }
            for column in shape.entityNumbers where !statement.isNull(at: column) {
                guard statement.storageClass(at: column) == .integer, knownNumbers.contains(statement.int64(at: column)) else {
                    return false
                }
            }
            bytes.withUnsafeBytes { fingerprint.add(encoded: $0) }
            return true
        }
        return everyRow == true ? fingerprint : nil
    }

    /// Appends the encoding of the value the record reader gives for a column of the storage
    /// class Core Data writes for the type; false for anything else.
    private static func append(_ statement: SQLiteStatement, _ column: ValueColumn, to bytes: inout [UInt8]) -> Bool {
        let index = column.index
        let storage = statement.storageClass(at: index)
        guard storage != .null else {
            CanonicalEncoding.append(AttributeValue.null, to: &bytes)
            return true
        }
        switch column.type {
        case .integer16, .integer32, .integer64:
            let number = statement.int64(at: index)
            guard storage == .integer, let range = column.type.integerRange, range.contains(number) else { return false }
            CanonicalEncoding.append(.integer(number), to: &bytes)
        case .boolean:
            let number = statement.int64(at: index)
            guard storage == .integer, number == 0 || number == 1 else { return false }
            CanonicalEncoding.append(.bool(number == 1), to: &bytes)
        case .double, .float, .date:
            let number: Double
            switch storage {
            case .real: number = statement.double(at: index)
            case .integer:
                guard let exact = Double(exactly: statement.int64(at: index)) else { return false }
                number = exact
            default: return false
            }
            CanonicalEncoding.append(column.type == .date ? .date(number) : .double(number), to: &bytes)
        case .decimal:
            let text: String?
            switch storage {
            case .integer: text = DecimalNotation.plain(storedInteger: statement.int64(at: index))
            case .real: text = DecimalNotation.plain(statement.double(at: index))
            default: text = nil
            }
            guard let text else { return false }
            CanonicalEncoding.append(.decimal(text), to: &bytes)
        case .string, .uri:
            guard storage == .text else { return false }
            // Text that is not UTF-8 is the reader's to refuse (an unreadable record).
            return statement.withText(at: index) { text in
                guard text.allSatisfy({ $0 < 0x80 }) || UTF8Text.string(text) != nil else { return false }
                CanonicalEncoding.appendText(text, as: column.type == .uri ? .uri : .string, to: &bytes)
                return true
            }
        case .binary, .transformable:
            switch storage {
            case .blob where column.tagged:
                // Inline values as the record reader decodes them; a file reference (or a bad tag) is the reader's.
                return statement.withBlob(at: index) { blob in
                    guard case .inline(let value)? = try? ExternalBinaryData.decode(blob) else { return false }
                    CanonicalEncoding.appendBinary(UnsafeRawBufferPointer(rebasing: value), to: &bytes)
                    return true
                }
            case .blob: statement.withBlob(at: index) { CanonicalEncoding.appendBinary($0, to: &bytes) }
            default: return false
            }
        case .uuid:
            guard storage == .blob else { return false }
            let fits = statement.withBlob(at: index) { blob in
                guard blob.count == 16 else { return false }
                CanonicalEncoding.appendUUID(blob, to: &bytes)
                return true
            }
            guard fits else { return false }
        case .undefined, .objectID, .composite:
            return false
        }
        return true
    }
}
