import CSQLite
import FerryFormats
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How to open a database that must not be changed, not even by the `-wal` and `-shm` files
/// SQLite creates beside a WAL database when it opens one (it does so even for read-only
/// connections when the process may write the folder, as root always may), and read one
/// committed state of it while other processes may write it.
///
/// - A connection that has the store open holds a lock in its `-shm` (SQLite's "dead man switch"
///   byte): join it read-only, as another reader of the live WAL, in one read transaction.
/// - A database in rollback-journal mode (the default outside Core Data; `journal_mode=DELETE`,
///   `MEMORY`, `OFF` …) is read under SQLite's shared lock, in one read transaction: no writer
///   commits while it is held, a writer holding its transaction's pages in the file keeps it
///   from being taken (SQLite waits, then reports the store busy), and it creates no files. A hot
///   journal (one no writer holds: the writer crashed) cannot be rolled back by a read-only
///   connection: that store is read through a copy, as below.
/// - Committed data in a `-wal` (or a hot `-journal`) with no live connection: copy the file
///   and its journal into a private folder and read the copy, so the data is included and the
///   source is untouched. A `-shm` left by a connection that is gone is stale: joining would have
///   SQLite rebuild it in place, so it is never copied nor opened.
/// - Otherwise (a WAL database nothing has open, with nothing to apply) open it immutable, which
///   creates no files; a process that opens and writes it meanwhile is seen by the file's stamp
///   (`CoreDataStoreReader.changedSinceOpening`).
enum ReadOnlySource {
    case live
    case shared
    case immutable
    case snapshot

    /// - Throws: when the locks cannot be listed for want of descriptors (`locked(_:at:)`).
    static func plan(for path: String) throws(WriteFailure) -> ReadOnlySource {
        if try hasLiveConnection(path) { return .live }
        if usesRollbackJournal(path) { return try hasHotJournal(path) ? .snapshot : .shared }
        if (FileInfo.size(atPath: path + "-wal") ?? 0) > 0 || (FileInfo.size(atPath: path + "-journal") ?? 0) > 0 { return .snapshot }
        return .immutable
    }

    /// Whether the database at `path` is in rollback-journal mode: its header's read and write
    /// versions (bytes 18 and 19) are 1, where a WAL database has 2. False when the header
    /// cannot be read (the open reports why).
    static func usesRollbackJournal(_ path: String) -> Bool {
        guard let header = try? LockKeepingFileReader.read(path, count: 20), header.count == 20 else { return false }
        return header[18] == 1 && header[19] == 1
    }

    /// SQLite's unix locking: the byte a writer locks for its transaction (`RESERVED_BYTE`, after
    /// the pending byte at 1 GiB).
    private static let reservedByteOffset: Int64 = 0x4000_0001

    /// Whether a `-journal` beside the database is hot: not empty, and no writer holds the lock
    /// of the transaction it belongs to (the writer is gone). A journal whose writer is alive
    /// is SQLite's to ignore; where locks cannot be listed, any journal counts as hot.
    private static func hasHotJournal(_ path: String) throws(WriteFailure) -> Bool {
        guard (FileInfo.size(atPath: path + "-journal") ?? 0) > 0 else { return false }
        return try locked(reservedByteOffset, at: path) != true
    }

    /// Byte of a `-shm` file on which every connection that uses the WAL index holds a shared
    /// lock while it is open (SQLite's unix VFS: `UNIX_SHM_DMS`, after the 8 lock slots at 120).
    private static let deadManSwitchOffset: Int64 = 128

    /// Whether a connection (of any process, this one included) has the WAL store at `path` open,
    /// as the lock it holds in the `-shm` file says. A `-shm` with no lock is a stale leftover.
    /// Where locks cannot be listed (no `/proc/locks`), any `-shm` counts as live.
    static func hasLiveConnection(_ path: String) throws(WriteFailure) -> Bool {
        guard FileManager.default.fileExists(atPath: path + "-shm") else { return false }
        return try locked(deadManSwitchOffset, at: path + "-shm") != false
    }

    /// Whether a lock is held on the byte at `offset` of the file at `path`; nil when that is
    /// unknown (no such file, no `/proc/locks`).
    /// - Throws: when `/proc/locks` cannot be opened for want of descriptors: the answer would
    ///   be unknown, taken for a lock that is not there ("another process has it open").
    private static func locked(_ offset: Int64, at path: String) throws(WriteFailure) -> Bool? {
        errno = 0
        switch ferry_file_byte_locked(path, offset) {
        case 1: return true
        case 0: return false
        default:
            if let failure = WriteFailure(readingErrno: errno, path: "/proc/locks") { throw failure }
            return nil
        }
    }

    /// A `file:` URI that opens `path` immutable.
    static func immutableURI(_ path: String) -> String {
        // Run from `/`, the working folder ends in a slash: `//tmp/…` would read as a URI's authority.
        let folder = FileManager.default.currentDirectoryPath
        let absolute = path.hasPrefix("/") ? path : (folder.hasSuffix("/") ? folder : folder + "/") + path
        var uri = "file:"
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                uri += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
            }
        }
        return uri + "?immutable=1"
    }

    /// Copies the database and its journal files into a new scratch folder; returns the copy's
    /// path and the folder, which the caller removes.
    static func makeSnapshot(of path: String) throws(SQLiteError) -> (copy: String, folder: ScratchFolder) {
        let files = FileManager.default
        let folder: ScratchFolder
        do { folder = try ScratchFolder.make(purpose: "snapshot") } catch {
            throw SQLiteError(path: path, code: 14, message: "could not make a folder to copy the store into: \(error)",
                              writeFailure: scratchFailure(error.writeFailure.map { $0.cause }))
        }
        let copy = folder.database("store.sqlite")
        do {
            try files.copyItem(atPath: path, toPath: copy)
            for suffix in ["-wal", "-journal"] where files.fileExists(atPath: path + suffix) {
                try files.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
        } catch {
            folder.remove()
            let code = ((error as? CocoaError)?.userInfo["NSUnderlyingError"] as? POSIXError)?.code.rawValue
            throw SQLiteError(path: path, code: 14, message: "could not copy the store to read its journal safely: \(error)",
                              writeFailure: scratchFailure(code.flatMap { WriteFailure(errno: $0, path: path)?.cause }))
        }
        return (copy, folder)
    }

    /// The failure of the folder scratch copies are made in (`TMPDIR`) when the environment
    /// caused a copy's failure (`cause`): no fault of the store copied.
    private static func scratchFailure(_ cause: WriteFailure.Cause?) -> WriteFailure? {
        cause.map { WriteFailure(cause: $0, path: ScratchFolder.systemTemporaryDirectory, inTemporaryFiles: true) }
    }
}
