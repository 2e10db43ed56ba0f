import FerryFormats

/// Inode, size, modification time and header of a store file and its `-wal`, and the header of
/// its WAL index: what changes when any connection commits to the store (in the `-wal`, or in the
/// file at a checkpoint or without WAL).
public struct StoreFileStamp: Equatable, Sendable {
    let main: String?
    let wal: String?
    let walIndex: String?

    public init(_ path: String) {
        main = Self.stamp(of: path)
        // Beside the file a link leads to, where SQLite keeps it. An empty one holds no commit:
        // a reader's connection makes one and removes it when it closes, which changes nothing.
        let file = FileInfo.linkTarget(of: path)
        wal = (FileInfo.size(atPath: file + "-wal") ?? 0) > 0 ? Self.stamp(of: file + "-wal") : nil
        walIndex = WALIndexHeader.read(file + "-shm")
    }

    /// The stamp of one file (`FileInfo.stamp`: inode, size and modification time) and bytes 12 to 31 of its
    /// header; nil when it does not exist. A database's header holds its change counter (offset
    /// 24), bumped by every commit in rollback-journal mode; a `-wal`'s holds its checkpoint
    /// sequence, salts and checksum, new each time the log restarts: a commit within the clock
    /// tick of the modification time, of a page rewritten in place, is still seen.
    static func stamp(of path: String) -> String? {
        guard let stamp = FileInfo.stamp(atPath: path) else { return nil }
        return stamp + "#" + header(of: path).map { String($0, radix: 16) }.joined(separator: ".")
    }

    /// Bytes 12 to 31 of the file (fewer when it is shorter, none when it cannot be read), read
    /// without dropping this process's SQLite locks on it (`LockKeepingFileReader`).
    private static func header(of path: String) -> [UInt8] {
        guard let bytes = try? LockKeepingFileReader.read(path, count: 32), bytes.count > 12 else { return [] }
        return Array(bytes[12...])
    }
}
