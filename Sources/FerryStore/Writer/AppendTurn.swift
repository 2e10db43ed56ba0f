#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run's turn to append to a store (`CoreDataStoreWriter.append`): an exclusive `flock` on
/// the store file, held from the copy to the rename. Two runs appending at once each copied the
/// store and renamed its copy over it, and the rows of the first to finish vanished with exit 0;
/// the second now waits for none and is refused.
///
/// `flock` locks are apart from the `fcntl` locks SQLite takes, so the turn neither blocks nor
/// is blocked by any SQLite connection. The system releases it when its holder ends, however it
/// ends. It is taken on the store file itself, so no file is left beside the store.
final class AppendTurn {
    private var descriptor: Int32

    /// Takes the turn on the store at `path`.
    /// - Throws: `.existingStore` when another run holds it, or the store cannot be opened.
    init(_ path: String) throws(StoreWriterError) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .existingStore(path: path, reason: "cannot open it: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            _ = close(descriptor)
            descriptor = -1
            guard code == EWOULDBLOCK else {
                throw .existingStore(path: path, reason: "cannot lock it: \(String(cString: strerror(code)))")
            }
            throw .existingStore(path: path, reason: "another run is appending to it; nothing was written, run again once it is done")
        }
    }

    deinit { release() }

    /// Lets go of the turn.
    func release() {
        guard descriptor >= 0 else { return }
        _ = close(descriptor)
        descriptor = -1
    }
}
