import FerryFormats
import FoundationEssentials

/// The header of a WAL database's index, the `-shm` file (SQLite's file format, "the WAL-index
/// header"): two copies of 48 bytes at its start, the second written after the first, holding the
/// last committed frame (`mxFrame`), the database's size in pages, the log's salts and checksums
/// and a counter of transactions. A commit is made visible to readers by writing this header: its
/// frames reach the `-wal` first, so a commit whose frames were in the log before a reader began,
/// and that was published after, changes the header and nothing in the files' stamps.
enum WALIndexHeader {
    private static let size = 96

    /// Both copies as hexadecimal text, compared byte for byte: a header a writer is changing
    /// differs from the one before and the one after, and one a crash left torn (its copies
    /// differ, nobody writing) stays equal to itself. Nil when there is no `-shm`.
    static func read(_ shm: String) -> String? {
        guard FileManager.default.fileExists(atPath: shm),
              let bytes = try? LockKeepingFileReader.read(shm, count: size) else { return nil }
        return bytes.map { String($0, radix: 16) }.joined(separator: ".")
    }
}
