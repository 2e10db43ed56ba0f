import FerryFormats

/// Inode, size and times of a store file and its `-wal`: what changes when any connection
/// commits to the store (in the `-wal`, or in the file at a checkpoint or without WAL).
public struct StoreFileStamp: Equatable, Sendable {
    let main: String?
    let wal: String?

    public init(_ path: String) {
        main = Self.stamp(of: path)
        wal = Self.stamp(of: path + "-wal")
    }

    /// The stamp of one file (`FileInfo.stamp`: inode, size and times); nil when it does not exist.
    static func stamp(of path: String) -> String? {
        FileInfo.stamp(atPath: path)
    }
}
