import FerryFormats
import FoundationEssentials

/// How to open a database that must not be changed, not even by the `-wal` and `-shm` files
/// SQLite creates beside a WAL database when it opens one (it does so even for read-only
/// connections when the process may write the folder, as root always may).
///
/// - A `-shm` beside the file means a live connection manages the WAL: join it read-only.
/// - Committed data in a `-wal` (or a hot `-journal`) with no live connection: copy the file
///   and its journal into a private folder and read the copy, so the data is included and the
///   source is untouched.
/// - Otherwise there is nothing to apply: open it immutable, which creates no files.
enum ReadOnlySource {
    case live
    case immutable
    case snapshot

    static func plan(for path: String) -> ReadOnlySource {
        let files = FileManager.default
        if files.fileExists(atPath: path + "-shm") { return .live }
        if (FileInfo.size(atPath: path + "-wal") ?? 0) > 0 || (FileInfo.size(atPath: path + "-journal") ?? 0) > 0 { return .snapshot }
        return .immutable
    }

    /// A `file:` URI that opens `path` immutable.
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
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

    /// Copies the database and its journal files into a new private folder; returns the copy's path.
    static func makeSnapshot(of path: String) throws(SQLiteError) -> (copy: String, folder: String) {
        let files = FileManager.default
        let folder = files.temporaryDirectory.path + "/ferry-snapshot-\(UUID().uuidString)"
        let copy = folder + "/store.sqlite"
        do {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try files.copyItem(atPath: path, toPath: copy)
            for suffix in ["-wal", "-journal"] where files.fileExists(atPath: path + suffix) {
                try files.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
        } catch {
            try? files.removeItem(atPath: folder)
            throw SQLiteError(path: path, code: 14, message: "could not copy the store to read its journal safely: \(error)")
        }
        return (copy, folder)
    }
}
