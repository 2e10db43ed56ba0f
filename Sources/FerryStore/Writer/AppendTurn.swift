#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryFormats

/// One run's turn to append to a store (`CoreDataStoreWriter.append`): an exclusive `flock` on
/// the store file, held from the copy to the rename. Two runs appending at once each copied the
/// store and renamed its copy over it, and the rows of the first to finish vanished with exit 0;
/// the second now waits for none and is refused.
///
/// On local Linux file systems `flock` locks are apart from the `fcntl` locks SQLite takes, so
/// the turn neither blocks nor is blocked by any SQLite connection. The system releases it when
/// its holder ends, however it ends. It is taken on the store file itself, so no file is left
/// beside the store; where the file system takes no `flock` (some network file systems), there
/// is no turn and the check that the store did not change while it was copied stands alone.
final class AppendTurn {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the turn on the store at `path`; nil where its file system takes no `flock`.
    /// - Throws: `.existingStore` when another run holds it, or it cannot be opened.
    static func take(_ path: String) throws(StoreWriterError) -> AppendTurn? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .existingStore(path: path, reason: "cannot open it: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            _ = close(descriptor)
            if code == EWOULDBLOCK {
                throw .existingStore(path: path, reason: "another run is appending to it; nothing was written, run again once it is done")
            }
            return nil
        }
        // The run that held the turn may have renamed its copy over the store meanwhile: the
        // lock is then on a file that is no longer the store.
        var locked = stat(), current = stat()
        guard fstat(descriptor, &locked) == 0, stat(path, &current) == 0, locked.st_dev == current.st_dev, locked.st_ino == current.st_ino else {
            _ = close(descriptor)
            throw .existingStore(path: path, reason: "another run replaced it while this one waited; nothing was written, run again")
        }
        return AppendTurn(descriptor: descriptor)
    }

    deinit { release() }

    /// Lets go of the turn.
    func release() {
        guard descriptor >= 0 else { return }
        unlockAndClose(descriptor)
        descriptor = -1
    }
}
