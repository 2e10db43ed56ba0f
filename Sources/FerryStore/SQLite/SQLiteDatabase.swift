import CSQLite
import FerryFormats
import FoundationEssentials

/// One connection to an SQLite database file.
///
/// A connection is used by one thread at a time (it is opened with `SQLITE_OPEN_NOMUTEX` and is
/// not `Sendable`). Statements prepared on it keep it alive; the handle is closed when the last of
/// them is gone, or earlier by `close()`.
public final class SQLiteDatabase {
    /// The file this connection opened.
    public let path: String
    private(set) var handle: OpaquePointer?
    /// The destination this database is built for (a store written beside it and renamed into
    /// place): a write that finds no room is reported as writing it. Nil: the file itself.
    public var destination: String?
    /// The private copy a read-only source is read from, removed with the connection.
    private var snapshotFolder: ScratchFolder?
    /// Whether the connection may write the database's files (opened for writing): a read-only
    /// one writes SQLite's temporary files alone.
    private let writesOwnFiles: Bool

    /// Opens (or creates) a database and checks that it really is one: SQLite opens files lazily,
    /// so a non-database file is reported here (`SQLITE_NOTADB`) rather than at first use.
    ///
    /// `.readOnly` never changes the file or the folder it is in: see `ReadOnlySource` for how
    /// committed data in a `-wal` is still read.
    /// - Parameters:
    ///   - destination: the store this database is built for (`destination`), named from the
    ///     open on by what the environment keeps from it (no descriptor left to open the file).
    ///   - busyTimeoutMilliseconds: how long to wait for another connection's lock.
    public convenience init(path: String, mode: SQLiteOpenMode, destination: String? = nil,
                            busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLiteError) {
        var opening = Reopening(path: path, target: path, flags: mode.flags)
        var snapshotFolder: ScratchFolder?
        var fixedBytes = false
        var holdsRead = false
        var pages: PagesFile?
        if mode == .readOnly {
            guard FileManager.default.fileExists(atPath: path) else {
                throw SQLiteError(path: path, code: SQLITE_CANTOPEN, message: "No such file or directory")
            }
            // A symbolic link is read as the file it leads to, whose `-wal` and `-journal` are
            // beside that file, where SQLite (and Core Data) look for them: not beside the link.
            let file = FileInfo.linkTarget(of: path)
            opening.target = file
            let plan: ReadOnlySource
            do { plan = try ReadOnlySource.plan(for: file) } catch {
                throw SQLiteError(path: path, code: SQLITE_CANTOPEN, message: error.description, writeFailure: error)
            }
            switch plan {
            case .live:
                holdsRead = true
            case .shared:
                // While this connection's read transaction holds the shared lock, no writer
                // commits: a second connection reads the same bytes.
                holdsRead = true
                fixedBytes = true
                pages = PagesFile(path: file, whileReading: true)
            case .immutable:
                opening.target = ReadOnlySource.immutableURI(file)
                opening.flags |= SQLITE_OPEN_URI
                fixedBytes = true
                pages = PagesFile(path: file, whileReading: false)
            case .snapshot:
                let snapshot = try ReadOnlySource.makeSnapshot(of: file)
                opening.target = snapshot.copy
                opening.flags = SQLiteOpenMode.readWrite.flags
                snapshotFolder = snapshot.folder
                fixedBytes = true
            }
        }
        try self.init(opening, mode: mode, destination: destination, snapshotFolder: snapshotFolder,
                      busyTimeoutMilliseconds: busyTimeoutMilliseconds, holdsRead: holdsRead)
        sameBytes = fixedBytes ? opening : nil
        self.pages = pages
    }

    /// Opens a second connection as `sameBytes` described it, read-only in effect (nothing is
    /// written through it); it owns no private copy.
    public convenience init(reopening: Reopening) throws(SQLiteError) {
        try self.init(reopening, mode: .readOnly, destination: nil, snapshotFolder: nil, busyTimeoutMilliseconds: 5_000, holdsRead: false)
    }

    /// - Parameter holdsRead: begin a read transaction that lasts until the connection closes
    ///   (or `commit()`), its first read taking SQLite's lock (or WAL snapshot) at once: every
    ///   statement then reads the one committed state there was when it was opened.
    private init(_ opening: Reopening, mode: SQLiteOpenMode, destination: String?, snapshotFolder: ScratchFolder?, busyTimeoutMilliseconds: Int32,
                 holdsRead: Bool) throws(SQLiteError) {
        _ = Self.processSettings
        path = opening.path
        self.destination = destination
        self.snapshotFolder = snapshotFolder
        writesOwnFiles = mode != .readOnly
        var opened: OpaquePointer?
        let status = sqlite3_open_v2(opening.target, &opened, opening.flags, nil)
        guard status == SQLITE_OK, let opened else {
            let message = SQLiteError.explained(opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status)),
                                                status: status, systemErrno: opened.map(sqlite3_system_errno))
            let failure = SQLiteError.environmentFailure(code: status, systemErrno: opened.map(sqlite3_system_errno) ?? 0, file: path,
                                                         destination: destination ?? path, writesOwnFiles: mode != .readOnly)
            sqlite3_close_v2(opened)
            removeSnapshot()
            throw SQLiteError(path: path, code: status, message: message, writeFailure: failure)
        }
        handle = opened
        sqlite3_busy_timeout(opened, busyTimeoutMilliseconds)
        if mode != .readOnly {
            let status = CoreDataSQLFunctions.register(on: opened)
            guard status == SQLITE_OK else {
                sqlite3_close_v2(opened)
                handle = nil
                throw SQLiteError(path: path, code: status, message: "cannot register Core Data's trigger functions")
            }
        }
        do {
            if holdsRead { try execute("BEGIN") }
            try execute("SELECT count(*) FROM sqlite_master")
        } catch {
            sqlite3_close_v2(opened)
            handle = nil
            removeSnapshot()
            // A reader waits for a writer's lock for the busy timeout, then says whose it is.
            guard holdsRead, error.primaryCode == SQLITE_BUSY else { throw error }
            throw SQLiteError(path: path, code: error.code, message: "another process is writing it and holds its lock "
                              + "(its transaction's pages may be in the file): read it again when that process is done")
        }
    }

    /// What another connection opens to read exactly the bytes this one reads.
    public struct Reopening: Sendable {
        /// The file as the caller named it (for messages).
        let path: String
        /// What `sqlite3_open_v2` opens: the file, its immutable URI, or the private copy.
        var target: String
        var flags: Int32
    }

    /// How to open a second connection that reads what this one reads, for work on another
    /// thread (a connection serves one thread at a time): set for a source opened immutable
    /// (nothing else had it open, see `ReadOnlySource`), read under the shared lock this
    /// connection's read transaction holds (a rollback-journal database: no writer commits while
    /// it is open), or read through a private copy. Nil for a live WAL store, where a second
    /// connection could see a later commit than this one's transaction, and for connections
    /// that write.
    public private(set) var sameBytes: Reopening?

    /// `sameBytes` while a connection opened with it reads what this one reads: for a store read
    /// under this connection's shared lock, only while its read transaction holds the lock.
    var sameBytesNow: Reopening? {
        guard pages?.whileReading != true || isInTransaction else { return nil }
        return sameBytes
    }

    /// The database file, when it holds every page this connection reads as SQLite reads them
    /// (for a reader of the file's own pages, `TableFileScan`): a source opened immutable (no
    /// write-ahead log content; nothing else had it open), or one whose shared lock this
    /// connection's read transaction holds, while it lasts. Nil otherwise: a live WAL store, a
    /// private copy (its log may hold pages), a connection that writes.
    public var pagesFile: String? {
        guard let pages, !pages.whileReading || isInTransaction else { return nil }
        return pages.path
    }

    private var pages: PagesFile?

    private struct PagesFile {
        let path: String
        /// Whether the file holds the pages only while the read transaction lasts.
        let whileReading: Bool
    }

    /// Process-wide settings, applied once before the first connection: no memory statistics
    /// (their global mutex is taken on every allocation of every connection).
    private static let processSettings: Void = {
        _ = ferry_sqlite3_disable_memory_statistics()
    }()

    deinit {
        sqlite3_close_v2(handle)
        removeSnapshot()
    }

    private func removeSnapshot() {
        snapshotFolder?.remove()
        snapshotFolder = nil
    }

    /// Leaves a WAL store's files as they are when this connection closes: SQLite's last
    /// connection otherwise checkpoints the `-wal` into the store and deletes it, so a change
    /// refused with nothing written (`update`, `delete`) still rewrote the store's file. What a
    /// committed change wrote stays in the `-wal`, as Core Data leaves it.
    public func keepsWriteAheadLogOnClose() {
        guard let handle else { return }
        _ = ferry_sqlite3_no_checkpoint_on_close(handle)
    }

    /// Closes the connection now. Fails with `SQLITE_BUSY` while statements are still prepared.
    public func close() throws(SQLiteError) {
        guard let handle else { return }
        let status = sqlite3_close(handle)
        guard status == SQLITE_OK else { throw error(status) }
        self.handle = nil
        removeSnapshot()
    }

    /// Runs one or more SQL statements that return no rows of interest. Package-wide, not public:
    /// code outside FerryStore asks the store layer, and only tests and benchmarks tamper with SQL.
    package func execute(_ sql: String) throws(SQLiteError) {
        let handle = try openHandle(sql: sql)
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = SQLiteError.explained(message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle)),
                                             status: status, systemErrno: sqlite3_system_errno(handle))
            sqlite3_free(message)
            throw SQLiteError(path: path, code: status, message: text, sql: sql, writeFailure: writeFailure(status, handle: handle))
        }
    }

    /// Prepares a statement for repeated use.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// The value of the first column of the first row of a query, as an integer (nil when no row
    /// or NULL). Meant for pragmas and counts.
    package func scalarInteger(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    /// The first column of the first row of a query, as text (nil when no row or NULL).
    package func scalarText(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.string(at: 0)
    }

    // MARK: Transactions

    /// The rowid of the last row inserted on this connection (`sqlite3_last_insert_rowid`).
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Starts a write transaction that takes the write lock at once (`BEGIN IMMEDIATE`).
    public func beginImmediate() throws(SQLiteError) { try execute("BEGIN IMMEDIATE") }

    public func commit() throws(SQLiteError) { try execute("COMMIT") }

    public func rollback() throws(SQLiteError) { try execute("ROLLBACK") }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// Runs `body` inside `BEGIN IMMEDIATE` … `COMMIT`, rolling back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try beginImmediate()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            if isInTransaction { try? rollback() }
            throw error
        }
    }

    // MARK: Internal

    /// The live handle, or a misuse error when the connection was closed.
    func openHandle(sql: String?) throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(path: path, code: SQLITE_MISUSE, message: "the connection is closed", sql: sql)
        }
        return handle
    }

    /// The error SQLite reports for a failed call on this connection.
    func error(_ status: Int32, sql: String? = nil) -> SQLiteError {
        let message = SQLiteError.explained(handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status)),
                                            status: status, systemErrno: handle.map(sqlite3_system_errno))
        return SQLiteError(path: path, code: status, message: message, sql: sql, extendedCode: handle.map { sqlite3_extended_errcode($0) },
                           writeFailure: handle.flatMap { writeFailure(status, handle: $0) })
    }

    private func writeFailure(_ status: Int32, handle: OpaquePointer) -> WriteFailure? {
        SQLiteError.environmentFailure(code: status, systemErrno: sqlite3_system_errno(handle),
                                       mainFilesErrno: ferry_sqlite3_main_files_errno(handle), file: path, destination: destination ?? path,
                                       writesOwnFiles: writesOwnFiles)
    }
}
