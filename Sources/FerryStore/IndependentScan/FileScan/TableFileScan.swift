/// The rows of one rowid table read from the pages of its b-tree in the file (SQLite's file
/// format, section 1.6: table b-tree pages, cells, overflow pages), each handed over as the
/// `RecordFields` of the columns asked for. Rows come in page order, not key order.
///
/// Anything that is not a well-formed b-tree (a page number out of range, a page reached twice,
/// a cell or a record past its page or payload) is refused, never guessed at.
struct TableFileScan {
    private let file: DatabaseFile
    private let rootPage: Int
    private let columns: RecordColumns

    init(file: DatabaseFile, rootPage: Int, columns: RecordColumns) {
        self.file = file
        self.rootPage = rootPage
        self.columns = columns
    }

    /// Calls `body` with the fields of every row of the table.
    func forEachRow(_ body: (RecordFields) -> Void) throws(FileScanRefusal) {
        let usable = file.usableSize
        let page = UnsafeMutableRawBufferPointer.allocate(byteCount: file.pageSize, alignment: 8)
        defer { page.deallocate() }
        var payload = PayloadReader(file: file)
        defer { payload.deallocate() }
        let fields = RecordFields(columns: columns)
        var visited = [Bool](repeating: false, count: file.pageCount + 1)
        var pending = [rootPage]
        // A leaf cell's payload above this many bytes spills into overflow pages (file format 1.6).
        let maxLocal = usable - 35
        let minLocal = (usable - 12) * 32 / 255 - 23
        while let number = pending.popLast() {
            guard number >= 1, number <= file.pageCount, !visited[number] else {
                throw FileScanRefusal("page \(number) is out of range or reached twice")
            }
            visited[number] = true
            try file.read(page: number, into: page)
            let bytes = UnsafeRawBufferPointer(page)
            let header = number == 1 ? 100 : 0
            let cells = BigEndian.uint16(bytes, at: header + 3)
            switch bytes[header] {
            case 0x05:  // interior: a child per cell, and the right-most child
                let pointers = header + 12
                guard pointers + 2 * cells <= usable else { throw FileScanRefusal("page \(number): \(cells) cells do not fit") }
                pending.append(BigEndian.uint32(bytes, at: header + 8))
                for cell in 0..<cells {
                    let offset = BigEndian.uint16(bytes, at: pointers + 2 * cell)
                    guard offset >= pointers + 2 * cells, offset + 4 <= usable else { throw FileScanRefusal("page \(number): cell \(cell) is past the page") }
                    pending.append(BigEndian.uint32(bytes, at: offset))
                }
            case 0x0D:  // leaf: a row per cell
                let pointers = header + 8
                guard pointers + 2 * cells <= usable else { throw FileScanRefusal("page \(number): \(cells) cells do not fit") }
                for cell in 0..<cells {
                    var offset = BigEndian.uint16(bytes, at: pointers + 2 * cell)
                    guard offset >= pointers + 2 * cells, offset < usable else { throw FileScanRefusal("page \(number): cell \(cell) is past the page") }
                    let size = try Varint.read(bytes, at: &offset, end: usable)
                    _ = try Varint.read(bytes, at: &offset, end: usable)  // the row's key: no column read here is the key
                    guard size >= 0, size <= Int64(Int32.max) else { throw FileScanRefusal("page \(number): cell \(cell) holds \(size) bytes") }
                    let payloadSize = Int(size)
                    var local = payloadSize
                    if payloadSize > maxLocal {
                        let spread = minLocal + (payloadSize - minLocal) % (usable - 4)
                        local = spread <= maxLocal ? spread : minLocal
                    }
                    let overflowAt = offset + local
                    guard overflowAt + (local < payloadSize ? 4 : 0) <= usable else {
                        throw FileScanRefusal("page \(number): cell \(cell) is past the page")
                    }
                    payload.start(local: UnsafeRawBufferPointer(rebasing: bytes[offset..<overflowAt]), size: payloadSize,
                                  overflow: local < payloadSize ? BigEndian.uint32(bytes, at: overflowAt) : 0)
                    do {
                        try fields.decode(&payload)
                    } catch {
                        throw FileScanRefusal("page \(number), cell \(cell): \(error.reason)")
                    }
                    body(fields)
                }
            default:
                throw FileScanRefusal("page \(number) is not a table b-tree page (type \(bytes[header]))")
            }
        }
    }
}

/// SQLite's variable-length integers: 1 to 9 bytes, big-endian, 7 bits a byte with the high bit
/// saying another follows, all 8 bits of a ninth.
enum Varint {
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: inout Int, end: Int) throws(FileScanRefusal) -> Int64 {
        var value: UInt64 = 0
        for index in 0..<9 {
            guard offset < end else { throw FileScanRefusal("a number runs past its bytes") }
            let byte = bytes[offset]
            offset += 1
            if index == 8 { return Int64(bitPattern: value << 8 | UInt64(byte)) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return Int64(bitPattern: value)
    }
}
