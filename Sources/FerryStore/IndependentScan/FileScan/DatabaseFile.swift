import FerryFormats

/// A database file read page by page straight from disk, without SQLite: the second reader
/// behind `TableFileScan`. It is only asked of a file that holds every committed page itself (no
/// write-ahead log content, no writer: see `SQLiteDatabase.pagesFile`).
///
/// Pages are read through `LockKeepingFileReader`: closing a descriptor of our own would drop the
/// shared lock the scan's connection holds on the file.
struct DatabaseFile {
    let file: LockKeepingFileReader.KeptFile
    let pageSize: Int
    /// The bytes of a page that hold content: the page size less the bytes reserved at its end.
    let usableSize: Int
    /// Pages in the database.
    let pageCount: Int

    init(path: String) throws(FileScanRefusal) {
        do { file = try LockKeepingFileReader.file(path) } catch { throw FileScanRefusal(error.description) }
        var header = [UInt8](repeating: 0, count: 100)
        let file = file
        let read = try header.withUnsafeMutableBytes { buffer in Result { () throws(FileScanRefusal) in try Self.read(file, offset: 0, into: buffer) } }.get()
        guard read == 100, header.starts(with: StoreFile.magic) else { throw FileScanRefusal("no database header") }
        let size = Int(header[16]) << 8 | Int(header[17])
        pageSize = size == 1 ? 65_536 : size
        guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { throw FileScanRefusal("page size \(size)") }
        usableSize = pageSize - Int(header[20])
        guard usableSize >= 480 else { throw FileScanRefusal("usable page size \(usableSize)") }
        let fileSize = FileInfo.size(atPath: path) ?? 0
        // The header's page count holds when its version-valid-for number is the change counter;
        // otherwise (an old writer) the file's size gives it.
        let (counted, validFor, changes) = header.withUnsafeBytes { (BigEndian.uint32($0, at: 28), BigEndian.uint32($0, at: 92), BigEndian.uint32($0, at: 24)) }
        let valid = counted > 0 && validFor == changes
        pageCount = valid ? counted : fileSize / pageSize
        guard pageCount * pageSize <= fileSize else { throw FileScanRefusal("\(pageCount) pages in a file of \(fileSize) bytes") }
    }

    /// Reads page `number` (from 1) into `buffer`, which holds `pageSize` bytes.
    func read(page number: Int, into buffer: UnsafeMutableRawBufferPointer) throws(FileScanRefusal) {
        guard number >= 1, number <= pageCount else { throw FileScanRefusal("page \(number) of \(pageCount)") }
        guard try Self.read(file, offset: (number - 1) * pageSize, into: buffer) == pageSize else {
            throw FileScanRefusal("page \(number) ends early")
        }
    }

    private static func read(_ file: LockKeepingFileReader.KeptFile, offset: Int,
                             into buffer: UnsafeMutableRawBufferPointer) throws(FileScanRefusal) -> Int {
        do { return try file.read(offset: offset, into: buffer) } catch { throw FileScanRefusal(error.description) }
    }
}

/// Why a table is not counted from its file's pages (the count is then asked of SQLite): a file or
/// a table shape this reader does not take, or bytes that are not a well-formed b-tree (which
/// SQLite's integrity check, run beside, reports).
struct FileScanRefusal: Error {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}

/// Big-endian integers of a database file.
enum BigEndian {
    static func uint16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    static func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }
}
