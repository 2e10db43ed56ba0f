import FerryFormats
import FoundationEssentials

/// The header of a WAL database's index, the `-shm` file (SQLite's file format, "the WAL-index
/// header"): two copies of 48 bytes at its start, the second written after the first, holding the
/// last committed frame (`mxFrame`), the database's size in pages, the log's salts and checksums
/// and a counter of transactions. A commit is made visible to readers by writing this header: its
/// frames reach the `-wal` first, so a commit whose frames were in the log before a reader began,
/// and that was published after, changes the header and nothing in the files' stamps.
enum WALIndexHeader {
    private static let copySize = 48

    /// The header as hexadecimal text, once both copies agree; nil when there is no `-shm`. A
    /// header a writer is still changing (the copies differ) after a few reads is unique text,
    /// equal to no other reading: the store counts as changed.
    static func read(_ shm: String) -> String? {
        guard FileManager.default.fileExists(atPath: shm) else { return nil }
        for _ in 0..<100 {
            guard let bytes = try? LockKeepingFileReader.read(shm, count: 2 * copySize), bytes.count == 2 * copySize else { return nil }
            if bytes[..<copySize].elementsEqual(bytes[copySize...]) {
                return bytes[..<copySize].map { String($0, radix: 16) }.joined(separator: ".")
            }
        }
        return "unsettled \(UUID())"
    }
}
