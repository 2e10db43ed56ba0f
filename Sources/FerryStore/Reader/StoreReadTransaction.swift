import FerryFormats
import FoundationEssentials

/// What a read transaction saw of a store: the state a backup captured. What it says of the
/// store's files (`files`) is of the store the user has, also when a copy of it was read.
public struct StoreReadState: Sendable, Equatable, Codable {
    /// `Z_PRIMARYKEY.Z_MAX` by entity name, read inside the transaction.
    public var primaryKeyMaxima: [String: Int64]
    /// The store's journal mode: `wal` when its header says so (bytes 18 and 19 are 2), whatever
    /// the connection reading it reports (an immutable one reads a WAL store as `delete`);
    /// otherwise `PRAGMA journal_mode` (`delete`, `truncate`, …).
    public var journalMode: String
    /// Bytes in the `-wal` beside the store when the transaction began, or the copy read in its
    /// place was made (0 when there is none).
    public var walBytes: Int64
    /// Whether another connection had the store open (a lock in its `-shm`): the snapshot was
    /// taken from a live store.
    public var liveConnection: Bool
    /// The SQLite header's file change counter (offset 24) of the store.
    public var changeCounter: Int64?
    /// The stamp (`StoreFileStamp`: inode, size, modification time, header) of the store file just before it was opened
    /// (`CoreDataStoreReader.openingStamp`), or copied.
    public var fileStamp: String?

    /// The state of `primaryKeyMaxima` in `journalMode`, of a store whose files are as `files` says.
    public init(primaryKeyMaxima: [String: Int64], journalMode: String, files: StoreFileFacts) {
        self.primaryKeyMaxima = primaryKeyMaxima
        self.journalMode = journalMode
        walBytes = files.walBytes
        liveConnection = files.liveConnection
        changeCounter = files.changeCounter
        fileStamp = files.fileStamp
    }

    /// What the state says of the store's files (`walBytes`, `liveConnection`, `changeCounter`,
    /// `fileStamp`): set to the source's when the state was read from a copy of it.
    public var files: StoreFileFacts {
        get { StoreFileFacts(walBytes: walBytes, liveConnection: liveConnection, changeCounter: changeCounter, fileStamp: fileStamp) }
        set {
            walBytes = newValue.walBytes
            liveConnection = newValue.liveConnection
            changeCounter = newValue.changeCounter
            fileStamp = newValue.fileStamp
        }
    }
}

extension CoreDataStoreReader {
    /// Begins one read transaction on the reader's connection: every record and edge cursor
    /// made from this reader afterwards reads the same committed state until `endRead()`, even
    /// while another process writes the store. Returns what that state is.
    public func beginRead() throws(StoreReaderError) -> StoreReadState {
        let files: StoreFileFacts
        do { files = try StoreFileFacts(observing: path, stamp: openingStamp) } catch { throw .environment(error) }
        return try StoreReaderError.sqlite { () throws(SQLiteError) in
            // A connection to a store others may write holds its read transaction from the start.
            if !database.isInTransaction { try database.execute("BEGIN") }
            var maxima: [String: Int64] = [:]
            let rows = try database.prepare("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            while try rows.step() { maxima[rows.string(at: 0) ?? ""] = rows.int64(at: 1) }
            rows.finalize()
            let mode = StoreFileFacts.header(of: path).map { $0[18] == 2 } == true ? "wal" : try database.scalarText("PRAGMA journal_mode") ?? "unknown"
            return StoreReadState(primaryKeyMaxima: maxima, journalMode: mode, files: files)
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
}
