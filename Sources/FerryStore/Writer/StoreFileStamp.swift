import FerryFormats
import FoundationEssentials

/// Size and modification time of a store file and its `-wal`: what changes when any connection
/// commits to the store (in the `-wal`, or in the file at a checkpoint or without WAL).
struct StoreFileStamp: Equatable {
    let main: String?
    let wal: String?

    init(_ path: String) {
        main = Self.stamp(of: path)
        wal = Self.stamp(of: path + "-wal")
    }

    /// `size@modified` of a file; nil when it does not exist.
    static func stamp(of path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let modified = attributes[.modificationDate] as? Date else { return nil }
        return "\(FileInfo.size(atPath: path) ?? -1)@\(modified.timeIntervalSinceReferenceDate)"
    }
}
