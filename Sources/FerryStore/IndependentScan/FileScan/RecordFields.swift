/// Where each column a scan selects sits in a table's records, and how SQLite reads it back.
struct RecordColumns {
    /// Per selected column: its field in the record (the table's stored columns in order).
    let fields: [Int]
    /// Per selected column: whether it has REAL affinity (SQLite reads an integer stored there as
    /// a real: it stores integral reals as integers to save room).
    let realAffinity: [Bool]
    /// Per selected column: whether a record with fewer fields than the table has columns (one
    /// written before `ALTER TABLE ADD COLUMN`) reads it as NULL; false for a column with a default,
    /// which this reader does not evaluate (such a table is refused).
    let missingIsNull: [Bool]
}

/// The selected columns of one record as its header describes them (file format 2.1: a header
/// of serial types, then the values): each one's storage class, an integer's value and a blob's
/// length. Decoded in place, into buffers allocated once per scan (read per value without
/// reference counting or bounds checks: a scan decodes millions of records).
final class RecordFields: ScannedRow {
    private let columnCount: Int
    private let fields: UnsafeMutableBufferPointer<Int>
    private let realAffinity: UnsafeMutableBufferPointer<Bool>
    private let missingIsNull: UnsafeMutableBufferPointer<Bool>
    private let lastField: Int
    private let classes: UnsafeMutableBufferPointer<StorageClass>
    private let integers: UnsafeMutableBufferPointer<Int64>
    private let lengths: UnsafeMutableBufferPointer<Int>
    /// Serial types and body offsets of the fields up to the last one selected.
    private let serialTypes: UnsafeMutableBufferPointer<Int64>
    private let offsets: UnsafeMutableBufferPointer<Int>

    init(columns: RecordColumns) {
        columnCount = columns.fields.count
        fields = .allocate(capacity: columnCount)
        _ = fields.initialize(from: columns.fields)
        realAffinity = .allocate(capacity: columnCount)
        _ = realAffinity.initialize(from: columns.realAffinity)
        missingIsNull = .allocate(capacity: columnCount)
        _ = missingIsNull.initialize(from: columns.missingIsNull)
        lastField = columns.fields.max() ?? -1
        classes = .allocate(capacity: columnCount)
        classes.initialize(repeating: .null)
        integers = .allocate(capacity: columnCount)
        integers.initialize(repeating: 0)
        lengths = .allocate(capacity: columnCount)
        lengths.initialize(repeating: 0)
        serialTypes = .allocate(capacity: lastField + 1)
        serialTypes.initialize(repeating: 0)
        offsets = .allocate(capacity: lastField + 1)
        offsets.initialize(repeating: 0)
    }

    deinit {
        fields.deallocate()
        realAffinity.deallocate()
        missingIsNull.deallocate()
        classes.deallocate()
        integers.deallocate()
        lengths.deallocate()
        serialTypes.deallocate()
        offsets.deallocate()
    }

    func storageClass(at column: Int32) -> StorageClass { classes[Int(column)] }
    func int64(at column: Int32) -> Int64 { integers[Int(column)] }
    func blobLength(at column: Int32) -> Int { lengths[Int(column)] }

    /// Reads the selected columns of the record in `payload`.
    func decode(_ payload: inout PayloadReader) throws(FileScanRefusal) {
        let size = payload.size
        // The header, and whatever else of the record is at hand (all of it, unless it spills
        // into overflow pages).
        var bytes = try payload.prefix(min(max(payload.localCount, 9), size))
        var offset = 0
        guard let headerSize = Self.varint(bytes, at: &offset, end: bytes.count), headerSize >= Int64(offset), headerSize <= Int64(size) else {
            throw FileScanRefusal("a record header that is not one")
        }
        let header = Int(headerSize)
        if header > bytes.count { bytes = try payload.prefix(header) }
        var body = header
        var fieldCount = 0
        while fieldCount <= lastField, offset < header {
            let type: Int64
            let byte = bytes[offset]
            if byte < 0x80 {
                type = Int64(byte)
                offset += 1
            } else {
                guard let long = Self.varint(bytes, at: &offset, end: header) else { throw FileScanRefusal("a serial type runs past the header") }
                type = long
            }
            serialTypes[fieldCount] = type
            offsets[fieldCount] = body
            guard let length = Self.length(of: type) else { throw FileScanRefusal("serial type \(type)") }
            body += length
            fieldCount += 1
        }
        guard body <= size else { throw FileScanRefusal("a record's values reach past its \(size) bytes") }
        for column in 0..<columnCount {
            let field = fields[column]
            guard field < fieldCount else {
                guard missingIsNull[column] else { throw FileScanRefusal("a record without a column that has a default") }
                classes[column] = .null
                continue
            }
            let type = serialTypes[field]
            switch type {
            case 0:
                classes[column] = .null
            case 8, 9:
                classes[column] = realAffinity[column] ? .real : .integer
                integers[column] = type - 8
            case 1...6:
                classes[column] = realAffinity[column] ? .real : .integer
                let start = offsets[field], count = type == 5 ? 6 : type == 6 ? 8 : Int(type)
                if start + count > bytes.count { bytes = try payload.prefix(start + count) }
                var value = Int64(Int8(bitPattern: bytes[start]))
                for index in 1..<count { value = value << 8 | Int64(bytes[start + index]) }
                integers[column] = value
            case 7:
                // SQLite reads a NaN as NULL (it never stores one; a file may hold one all the same).
                let start = offsets[field]
                if start + 8 > bytes.count { bytes = try payload.prefix(start + 8) }
                var bits: UInt64 = 0
                for index in 0..<8 { bits = bits << 8 | UInt64(bytes[start + index]) }
                classes[column] = Double(bitPattern: bits).isNaN ? .null : .real
            default:
                classes[column] = type & 1 == 0 ? .blob : .text
                lengths[column] = Int((type - 12) / 2)
            }
        }
    }

    /// A varint (`Varint`), or nil when it runs past `end`.
    @inline(__always)
    private static func varint(_ bytes: UnsafeRawBufferPointer, at offset: inout Int, end: Int) -> Int64? {
        try? Varint.read(bytes, at: &offset, end: end)
    }

    /// The bytes a value of serial type `type` takes in the record's body; nil for a reserved or
    /// impossible type.
    @inline(__always)
    private static func length(of type: Int64) -> Int? {
        switch type {
        case 0, 8, 9: return 0
        case 1, 2, 3, 4: return Int(type)
        case 5: return 6
        case 6, 7: return 8
        case 10, 11: return nil
        default: return type <= Int64(Int32.max) * 2 ? Int((type - 12) / 2) : nil
        }
    }
}
