import FerryFormats
import FerryStore

/// Why a store could not be verified at all (as opposed to a check that failed, which goes into
/// the report): the file cannot be read, or no model fits it.
public enum VerificationError: Error, Equatable, Sendable, CustomStringConvertible, WriteFailureCarrying {
    /// The store cannot be opened or read as a Core Data store.
    case unreadableStore(StoreReaderError)
    /// No version of the given bundle has any entity hash in common with the store's metadata.
    case noMatchingVersion(path: String, bundle: String)
    /// No model was given and the store has no usable `Z_MODELCACHE`.
    case noModel(path: String, reason: String)
    /// The model cannot be laid out as a store.
    case invalidModel(path: String, reason: String)
    /// Another process wrote the store (or checkpointed it) while it was verified: the checks,
    /// each on its own connection, may have read different states, so the report says nothing.
    case changedWhileVerifying(path: String)
    /// Checks could not run (their queries failed: too many open files, a lock, no room for
    /// SQLite's temporary files), and none of those that ran failed: no verdict either way.
    /// `first` is the first one's line, `cause` its SQLite error.
    case checksCouldNotRun(path: String, count: Int, first: String, cause: SQLiteError)

    public var description: String {
        switch self {
        case .unreadableStore(let error): "\(error)"
        case let .noMatchingVersion(path, bundle):
            "\(path): no version of model \(bundle) matches the store's version hashes"
        case let .noModel(path, reason): "\(path): no model to verify with (give one with --model): \(reason)"
        case let .invalidModel(path, reason): "\(path): the model cannot describe a store: \(reason)"
        case let .changedWhileVerifying(path):
            "\(path) changed while it was verified (another process wrote it), so the checks may have read different states: "
                + "run again when it is idle, or verify a copy"
        case let .checksCouldNotRun(path, count, first, _):
            "\(path): \(count) check\(count == 1 ? "" : "s") could not run, so the store is not verified (first: \(first))"
        }
    }

    /// A full disk or the file size limit met by SQLite's temporary files while verifying: no
    /// fault of the store.
    public var writeFailure: WriteFailure? {
        switch self {
        case .unreadableStore(let error): error.writeFailure
        case .checksCouldNotRun(_, _, _, let cause): cause.writeFailure
        default: nil
        }
    }
}
