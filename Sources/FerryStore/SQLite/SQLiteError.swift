import CSQLite
import FerryFormats

/// A failure reported by SQLite, with everything needed to find its cause: the database file,
/// the SQLite result code (extended when available), SQLite's message and the statement involved.
public struct SQLiteError: FileError, Equatable, Sendable {
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

    public init(path: String, code: Int32, message: String, sql: String? = nil, extendedCode: Int32? = nil) {
        self.path = path
        self.code = code
        self.message = message
        self.sql = sql
        self.extendedCode = extendedCode
    }

    /// The primary result code (the low 8 bits of an extended code), e.g. `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String { "\(path): \(reason)" }

    /// The code, SQLite's explanation and the statement, without the path.
    public var reason: String {
        var text = "SQLite error \(code) (\(String(cString: sqlite3_errstr(code)))): \(message)"
        if let sql { text += " [SQL: \(sql)]" }
        return text
    }
}
