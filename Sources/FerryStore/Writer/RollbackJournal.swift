#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rollback journal beside a store (`STORE-journal`): SQLite's record of a transaction's
/// original pages, which it plays back when it next opens the store after a writer crashed.
enum RollbackJournal {
    /// The journal of the store at `path`.
    static func path(of store: String) -> String { store + "-journal" }

    /// Whether the journal holds a transaction: it starts with SQLite's journal header magic (a
    /// finished transaction's journal is deleted, truncated or has its header zeroed). Such a
    /// journal is a writer's in progress, or one a crashed writer left (hot).
    static func holdsTransaction(of store: String) -> Bool {
        let descriptor = open(path(of: store), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        var header = [UInt8](repeating: 0, count: 8)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 8) }
        return count == 8 && header == magic
    }

    /// The first eight bytes of a journal holding a transaction.
    private static let magic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]
}
