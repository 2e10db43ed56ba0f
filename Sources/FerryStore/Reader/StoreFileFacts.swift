import FerryFormats

/// What a read of a store says of its files rather than of its records (`StoreReadState`): the
/// bytes in its `-wal`, whether another connection had it open, its header's change counter and
/// its file's stamp. Always the facts of the store the user has: a job that reads a copy of it
/// (`CommittedStoreCopy`) describes the store with the facts observed as the copy was made, not
/// with the copy's own (no `-wal`, no connection, a stamp of a scratch file).
public struct StoreFileFacts: Sendable, Equatable {
    /// Bytes in the `-wal` beside the store (0 when there is none).
    public var walBytes: Int64
    /// Whether a connection had the store open (a lock in its `-shm`).
    public var liveConnection: Bool
    /// The SQLite header's file change counter (offset 24), as last checkpointed; nil when the
    /// header cannot be read.
    public var changeCounter: Int64?
    /// The stamp of the store file (`StoreFileStamp`).
    public var fileStamp: String?
}

extension StoreFileFacts {
    /// The facts of the store at `path` now (a symbolic link read as the file it leads to, beside
    /// which SQLite keeps the `-wal` and `-shm`), with `stamp` as its stamp when the caller took
    /// it (as it opened the file).
    /// - Throws: when the locks cannot be listed for want of descriptors.
    public init(observing path: String, stamp: String?) throws(WriteFailure) {
        let file = FileInfo.linkTarget(of: path)
        walBytes = Int64(FileInfo.size(atPath: file + "-wal") ?? 0)
        liveConnection = try ReadOnlySource.hasLiveConnection(file)
        changeCounter = Self.header(of: path).map { $0[24..<28].reduce(Int64(0)) { $0 << 8 | Int64($1) } }
        fileStamp = stamp
    }

    /// The first 28 bytes of the store file's header (the read and write versions at 18 and 19,
    /// the file change counter at 24, as last checkpointed); nil when they cannot be read.
    static func header(of path: String) -> [UInt8]? {
        guard let bytes = try? LockKeepingFileReader.read(path, count: 28), bytes.count == 28 else { return nil }
        return bytes
    }
}
