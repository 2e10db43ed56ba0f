import CSQLite
import FerryFormats

/// A failure reported by SQLite, with everything needed to find its cause: the database file,
/// the SQLite result code (extended when available), SQLite's message and the statement involved.
public struct SQLiteError: FileError, Equatable, Sendable, WriteFailureCarrying {
    /// The database file (`:memory:` for in-memory databases).
    public var path: String
    /// The SQLite result code (`SQLITE_CANTOPEN`, `SQLITE_NOTADB`, …), possibly extended.
    public var code: Int32
    /// SQLite's own explanation.
    public var message: String
    /// The SQL text involved, when the failure is tied to a statement.
    public var sql: String?
    /// SQLite's extended result code for the connection's last failure, when known
    /// (`SQLITE_CONSTRAINT_PRIMARYKEY` where `code` says `SQLITE_CONSTRAINT`).
    public var extendedCode: Int32?
    /// Set when the environment caused the failure (no room, no descriptor, a read-only folder,
    /// no shared memory: `environmentFailure`): then it is reported as that, naming the
    /// destination the database is built for, or the folder or limit at fault.
    public var writeFailure: WriteFailure?

    public init(path: String, code: Int32, message: String, sql: String? = nil, extendedCode: Int32? = nil,
                writeFailure: WriteFailure? = nil) {
        self.path = path
        self.code = code
        self.message = message
        self.sql = sql
        self.extendedCode = extendedCode
        self.writeFailure = writeFailure
    }

    /// SQLite's message, with the cause when a file could not be opened because the process or
    /// the system has too many open (`EMFILE`, `ENFILE`): SQLite says only "unable to open".
    static func explained(_ message: String, status: Int32, systemErrno: Int32?) -> String {
        // Only for a failed open: the errno SQLite keeps is its last system call's, which after
        // other errors may be an earlier failure's.
        guard status & 0xFF == SQLITE_CANTOPEN, let systemErrno else { return message }
        switch systemErrno {
        case 24: return message + " (too many open files: the process's limit, ulimit -n, is reached)"
        case 23: return message + " (too many open files in the system)"
        default: return message
        }
    }

    /// The primary result code (the low 8 bits of an extended code), e.g. `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String { writeFailure?.description ?? "\(path): \(reason)" }

    /// The code, SQLite's explanation and the statement, without the path; a failure of the
    /// temporary files says that alone (it is no fault of the database).
    public var reason: String {
        if let writeFailure, writeFailure.inTemporaryFiles { return writeFailure.description }
        var text = "SQLite error \(code) (\(String(cString: sqlite3_errstr(code)))): \(message)"
        // A batch insert's statement runs to kilobytes of placeholders: its start names it.
        if let sql { text += " [SQL: \(sql.count > 200 ? String(sql.prefix(200)) + "…" : sql)]" }
        return text
    }
}
