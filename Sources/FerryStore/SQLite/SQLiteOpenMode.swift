import CSQLite

/// How a database file is opened.
public enum SQLiteOpenMode: Sendable {
    /// Read only; the file must exist. Its `-wal` is honoured, nothing is written.
    case readOnly
    /// Read and write; the file must exist.
    case readWrite
    /// Read and write; the file is created when missing.
    case create

    /// The `sqlite3_open_v2` flags. Connections are used by one thread at a time, so SQLite's own
    /// mutexes are off (`SQLITE_OPEN_NOMUTEX`). `SQLITE_OPEN_EXRESCODE` gives extended result codes.
    var flags: Int32 {
        let common = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch self {
        case .readOnly: return common | SQLITE_OPEN_READONLY
        case .readWrite: return common | SQLITE_OPEN_READWRITE
        case .create: return common | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
    }
}
