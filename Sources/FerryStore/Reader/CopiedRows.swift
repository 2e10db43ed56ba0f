/// Rows of a statement copied out of SQLite's buffers by a worker thread (`SplitRecordScan`),
/// for the thread that turns them into records: each value as SQLite held it (its storage class
/// and number, or its bytes in one growing buffer), read back as `CopiedColumnValue`.
///
/// Filled by one thread, then handed to another under a lock, read there, and handed back to be
/// filled again (`reset()`): the memory is allocated once per batch, not per value or row.
final class CopiedRows: @unchecked Sendable {
    /// One value: its storage class, and its integer, its double's bits, or where its bytes are.
    struct Cell {
        var number: UInt64
        var count: UInt32
        var storage: StorageClass
    }

    let columns: Int
    /// The rows a batch holds at most.
    let rowCapacity: Int
    /// Bytes of text and blobs past which a batch takes no more rows (one row always fits).
    let byteLimit: Int
    private let cells: UnsafeMutablePointer<Cell>
    private var bytes: UnsafeMutableRawPointer
    private var byteCapacity: Int
    /// Bytes of text and blobs held.
    private(set) var byteCount = 0
    private(set) var count = 0

    init(columns: Int, rowCapacity: Int, byteLimit: Int) {
        self.columns = max(1, columns)
        self.rowCapacity = max(1, rowCapacity)
        self.byteLimit = byteLimit
        cells = .allocate(capacity: self.columns * self.rowCapacity)
        byteCapacity = 64 << 10
        bytes = .allocate(byteCount: byteCapacity, alignment: 16)
    }

    deinit {
        cells.deallocate()
        bytes.deallocate()
    }

    /// Whether the batch takes no more rows.
    var isFull: Bool { count == rowCapacity || byteCount >= byteLimit }

    /// Empties the batch for reuse, keeping its memory.
    func reset() {
        count = 0
        byteCount = 0
    }

    /// Copies the statement's current row (its first `columns` values) as the batch's next row.
    func append(_ statement: SQLiteStatement) {
        precondition(count < rowCapacity, "a full batch of copied rows")
        let row = cells + count * columns
        for column in 0..<columns {
            let value = statement.value(at: Int32(column))
            let storage = value.storageClass
            switch storage {
            case .integer: row[column] = Cell(number: UInt64(bitPattern: value.int64), count: 0, storage: storage)
            case .real: row[column] = Cell(number: value.double.bitPattern, count: 0, storage: storage)
            case .null: row[column] = Cell(number: 0, count: 0, storage: storage)
            case .text: row[column] = value.withText { keep($0, as: storage) }
            case .blob: row[column] = value.withBlob { keep($0, as: storage) }
            }
        }
        count += 1
    }

    /// The value at `column` of row `row`: valid until the batch is reset.
    func value(row: Int, column: Int32) -> CopiedColumnValue {
        CopiedColumnValue(cell: cells[row * columns + Int(column)], bytes: UnsafeRawPointer(bytes))
    }

    /// The integer at `column` of row `row` (a key), as `value(row:column:).int64` reads it.
    func int64(row: Int, column: Int32) -> Int64 {
        value(row: row, column: column).int64
    }

    /// Appends `source` to the byte buffer (grown by doubling) and returns its cell.
    private func keep(_ source: UnsafeRawBufferPointer, as storage: StorageClass) -> Cell {
        let needed = byteCount + source.count
        if needed > byteCapacity {
            var capacity = byteCapacity * 2
            while capacity < needed { capacity *= 2 }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
            grown.copyMemory(from: bytes, byteCount: byteCount)
            bytes.deallocate()
            bytes = grown
            byteCapacity = capacity
        }
        if let base = source.baseAddress, source.count > 0 { (bytes + byteCount).copyMemory(from: base, byteCount: source.count) }
        let cell = Cell(number: UInt64(byteCount), count: UInt32(source.count), storage: storage)
        byteCount = needed
        return cell
    }
}

/// A value of `CopiedRows`, read as SQLite reads a value of that storage class. Text was copied
/// as UTF-8 (`sqlite3_value_text`) and blobs as they are; either lends its bytes both ways, and
/// text asked of a number is empty: only the storage class's own reading is exact, which is all
/// a Core Data store's values are read by (`ColumnValueDecoder`'s strict rule).
struct CopiedColumnValue: StoredColumnValue {
    let cell: CopiedRows.Cell
    let bytes: UnsafeRawPointer

    var storageClass: StorageClass { cell.storage }

    var int64: Int64 {
        switch cell.storage {
        case .integer: Int64(bitPattern: cell.number)
        case .real: Int64(exactly: Double(bitPattern: cell.number).rounded(.towardZero)) ?? 0
        default: 0
        }
    }

    var double: Double {
        switch cell.storage {
        case .integer: Double(Int64(bitPattern: cell.number))
        case .real: Double(bitPattern: cell.number)
        default: 0
        }
    }

    func withText<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        try body(lent)
    }

    func withBlob<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        try body(lent)
    }

    private var lent: UnsafeRawBufferPointer {
        switch cell.storage {
        case .text, .blob: UnsafeRawBufferPointer(start: bytes + Int(cell.number), count: Int(cell.count))
        default: UnsafeRawBufferPointer(start: nil, count: 0)
        }
    }
}
