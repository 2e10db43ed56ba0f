import FerryFormats
import FoundationEssentials

/// Opens a database file read-only after checking its header, so that empty, foreign and
/// truncated files get a precise error before SQLite sees them (SQLite treats an empty file as
/// an empty database, and a truncated one fails only when a missing page is read).
enum StoreFile {
    /// The 16 bytes every SQLite 3 database starts with.
    static let magic = Array("SQLite format 3\0".utf8)
    private static let headerSize = 100

    static func open(_ path: String) throws(StoreReaderError) -> SQLiteDatabase {
        try checkHeader(path)
        return try StoreReaderError.sqlite { () throws(SQLiteError) in try SQLiteDatabase(path: path, mode: .readOnly) }
    }

    /// Checks the magic string and, when the header's page count is valid (its "version valid
    /// for" number equals the change counter), that the file holds that many pages. Not for a
    /// WAL database whose `-wal` holds frames: a checkpoint a reader cut short can write page 1,
    /// with the new count, while the last pages are still only in the log, which SQLite reads.
    static func checkHeader(_ path: String) throws(StoreReaderError) {
        let header = try readHeader(path)
        guard !header.isEmpty else { throw .notSQLite(path: path, reason: "the file is empty") }
        guard header.starts(with: magic) else {
            throw .notSQLite(path: path, reason: "the file does not start with \"SQLite format 3\"")
        }
        guard header.count == headerSize else {
            throw .corrupt(path: path, reason: "the file is \(header.count) bytes, shorter than the 100-byte header")
        }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        let pageCount = bigEndian(header, at: 28)
        guard pageCount > 0, bigEndian(header, at: 92) == bigEndian(header, at: 24) else { return }
        let isWAL = header[18] == 2 && header[19] == 2
        if isWAL, fileSize(FileInfo.linkTarget(of: path) + "-wal") > 0 { return }
        let expected = Int(pageCount) * pageSize
        let actual = fileSize(path)
        if actual < expected {
            throw .corrupt(path: path, reason: "the header promises \(pageCount) pages of \(pageSize) bytes (\(expected) bytes), the file has \(actual)")
        }
    }

    private static func readHeader(_ path: String) throws(StoreReaderError) -> [UInt8] {
        do { return try LockKeepingFileReader.read(path, count: headerSize) } catch {
            if let failure = WriteFailure.of(error) { throw .environment(failure) }
            throw .cannotOpen(path: path, reason: error.description)
        }
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func fileSize(_ path: String) -> Int {
        FileInfo.size(atPath: path) ?? 0
    }
}
