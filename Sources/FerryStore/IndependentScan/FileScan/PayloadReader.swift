/// The payload of one leaf cell, read up to the bytes asked for: the part on the leaf page, then
/// as much of the overflow chain as needed (file format 1.6: each overflow page holds the next
/// page's number and `usableSize - 4` bytes). Values near the start of a large row are read
/// without walking its overflow pages.
struct PayloadReader {
    private let file: DatabaseFile
    private var local = UnsafeRawBufferPointer(start: nil, count: 0)
    /// The payload's size, all pages together.
    private(set) var size = 0
    /// The bytes of it on the leaf page.
    var localCount: Int { local.count }
    /// The bytes gathered so far when they go past the local part, and how many there are.
    private var gathered: UnsafeMutableRawBufferPointer
    private var gatheredCount = 0
    private var nextOverflow = 0
    private var overflowPage: UnsafeMutableRawBufferPointer

    init(file: DatabaseFile) {
        self.file = file
        gathered = .allocate(byteCount: file.pageSize, alignment: 8)
        overflowPage = .allocate(byteCount: file.pageSize, alignment: 8)
    }

    func deallocate() {
        gathered.deallocate()
        overflowPage.deallocate()
    }

    /// Starts reading a cell's payload of `size` bytes, `local` of them on its page, the rest
    /// from overflow page `overflow` on (0: none).
    mutating func start(local: UnsafeRawBufferPointer, size: Int, overflow: Int) {
        self.local = local
        self.size = size
        gatheredCount = 0
        nextOverflow = overflow
    }

    /// The first `count` bytes of the payload (at most its size); valid until the next call.
    mutating func prefix(_ count: Int) throws(FileScanRefusal) -> UnsafeRawBufferPointer {
        guard count <= size else { throw FileScanRefusal("a record reaches past its \(size) bytes") }
        if count <= local.count { return UnsafeRawBufferPointer(rebasing: local[..<count]) }
        if gatheredCount == 0 { append(local) }
        let content = file.usableSize - 4
        while gatheredCount < count {
            guard nextOverflow != 0 else { throw FileScanRefusal("the overflow pages end before the record does") }
            try file.read(page: nextOverflow, into: overflowPage)
            let page = UnsafeRawBufferPointer(overflowPage)
            nextOverflow = BigEndian.uint32(page, at: 0)
            append(UnsafeRawBufferPointer(rebasing: page[4..<(4 + min(content, size - gatheredCount))]))
        }
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(gathered)[..<count])
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if gatheredCount + bytes.count > gathered.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(gathered.count * 2, gatheredCount + bytes.count), alignment: 8)
            larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: gathered[..<gatheredCount]))
            gathered.deallocate()
            gathered = larger
        }
        UnsafeMutableRawBufferPointer(rebasing: gathered[gatheredCount...]).copyMemory(from: bytes)
        gatheredCount += bytes.count
    }
}
