import FerryFormats
import FoundationEssentials

/// What a read transaction saw of a store: the state a backup captured.
public struct StoreReadState: Sendable, Equatable, Codable {
    /// `Z_PRIMARYKEY.Z_MAX` by entity name, read inside the transaction.
    public var primaryKeyMaxima: [String: Int64]
    /// The store's journal mode: `wal` when its header says so (bytes 18 and 19 are 2), whatever
    /// the connection reading it reports (an immutable one reads a WAL store as `delete`);
    /// otherwise `PRAGMA journal_mode` (`delete`, `truncate`, …).
    public var journalMode: String
    /// Bytes in the `-wal` beside the store when the transaction began (0 when there is none).
    public var walBytes: Int64
    /// Whether another connection had the store open (a lock in its `-shm`): the snapshot was
    /// taken from a live store.
    public var liveConnection: Bool
    /// The SQLite header's file change counter (offset 24) of the database read.
    public var changeCounter: Int64?
    /// The stamp (`StoreFileStamp`: inode, size, modification time, header) of the store file just before it was opened
    /// (`CoreDataStoreReader.openingStamp`).
    public var fileStamp: String?
}

extension CoreDataStoreReader {
    /// Begins one read transaction on the reader's connection: every record and edge cursor
    /// made from this reader afterwards reads the same committed state until `endRead()`, even
    /// while another process writes the store. Returns what that state is.
    public func beginRead() throws(StoreReaderError) -> StoreReadState {
        // Beside the file a link leads to, where SQLite keeps them.
        let file = FileInfo.linkTarget(of: path)
        let wal = Int64(FileInfo.size(atPath: file + "-wal") ?? 0)
        let live: Bool
        do { live = try ReadOnlySource.hasLiveConnection(file) } catch { throw .environment(error) }
        return try StoreReaderError.sqlite { () throws(SQLiteError) in
            // A connection to a store others may write holds its read transaction from the start.
            if !database.isInTransaction { try database.execute("BEGIN") }
            var maxima: [String: Int64] = [:]
            let rows = try database.prepare("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            while try rows.step() { maxima[rows.string(at: 0) ?? ""] = rows.int64(at: 1) }
            rows.finalize()
            let header = Self.header(path)
            let mode = header.map { $0[18] == 2 } == true ? "wal" : try database.scalarText("PRAGMA journal_mode") ?? "unknown"
            return StoreReadState(primaryKeyMaxima: maxima, journalMode: mode, walBytes: wal, liveConnection: live,
                                  changeCounter: header.map { $0[24..<28].reduce(Int64(0)) { $0 << 8 | Int64($1) } }, fileStamp: openingStamp)
        }
    }

    /// The stamp of the store file now (see `changedSinceOpening`).
    public func fileStamp() -> String? {
        StoreFileStamp.stamp(of: path)
    }

    /// Ends the read transaction begun by `beginRead()`.
    public func endRead() throws(StoreReaderError) {
        try StoreReaderError.sqlite { () throws(SQLiteError) in
            if database.isInTransaction { try database.commit() }
        }
    }

    /// The first 28 bytes of the store file's header (the read and write versions at 18 and 19,
    /// the file change counter at 24, as last checkpointed); nil when they cannot be read.
    private static func header(_ path: String) -> [UInt8]? {
        guard let bytes = try? LockKeepingFileReader.read(path, count: 28), bytes.count == 28 else { return nil }
        return bytes
    }
}
