import FerryFormats
import FerryStore

/// Why an export, backup or restore failed. Each case names the file or store concerned.
public enum ExportError: Error, CustomStringConvertible, WriteFailureCarrying {
    /// The request itself is wrong (an unknown entity, `--where` without one `--entity`).
    case invalidRequest(String)
    /// The model could not be loaded, or no version of it matches the store.
    case model(reason: String)
    /// The store could not be read.
    case store(StoreReaderError)
    /// A file or folder could not be written (no permission, not a folder).
    case cannotWrite(path: String, reason: String)
    /// A full disk or the file size limit, met writing the destination.
    case noRoom(WriteFailure)
    /// A record could not be encoded.
    case encoding(reason: String)
    /// An export or backup folder is unreadable or does not match its manifest.
    case verification(path: String, reason: String)
    /// The folder given as an export or backup is none: it is missing, or holds no readable
    /// manifest (bad input, where a folder that does not match its manifest fails verification).
    case notAnExport(path: String, reason: String)
    /// A file an export or backup folder was to be read through is not one of its own regular
    /// files: a symbolic link, a FIFO, socket or device, a folder, or a name that leaves the
    /// folder (`BackupFolderFile`). It is neither followed nor read (bad input).
    case notABackupFile(path: String, reason: String)
    /// The target of a restore exists and `--force` was not given.
    case destinationExists(String)
    /// Another run holds the lock of the folder (a backup folder, an export's existing destination).
    case locked(path: String, holder: String)
    /// An output of the run is one of its inputs, or lies inside one (a restore into the backup
    /// it reads, an export file over the store it exports): nothing was written.
    case outputIsInput(output: String, input: String)
    /// The store file changed while it was read without a live WAL connection (a checkpoint
    /// by a process that opened it later): the files may mix two states. Run again.
    case changedWhileReading(String)
    /// The restored store could not be written.
    case restore(reason: String)
    /// The files do not hold every row of the store, counted independently with plain SQL (or
    /// the store holds rows of no entity): nothing is kept.
    case notAccounted(store: String, problems: [String])

    public var description: String {
        switch self {
        case .invalidRequest(let reason): reason
        case let .outputIsInput(output, input): PathOverlap.text(output: output, input: input) + "; nothing was written"
        case .model(let reason): "model: \(reason)"
        case .store(let error): error.description
        case let .cannotWrite(path, reason): "\(path): cannot write: \(reason)"
        case .noRoom(let failure): failure.description
        case .encoding(let reason): "cannot encode: \(reason)"
        case let .verification(path, reason), let .notAnExport(path, reason), let .notABackupFile(path, reason): "\(path): \(reason)"
        case .destinationExists(let path): "\(path) exists (use --force to replace it)"
        case let .locked(path, holder): "\(path) is locked: another run is writing into its folder (\(holder))"
        case .restore(let reason): reason
        case let .notAccounted(store, problems):
            "\(store): not every row is accounted for, so nothing was kept:\n  " + problems.joined(separator: "\n  ")
        case .changedWhileReading(let path): "\(path) changed while it was read (another process wrote or checkpointed it); run again"
        }
    }

    /// Whether the failure is the destination's (exit code 4; so is no room for SQLite's
    /// temporary files while a store was read) rather than the input's (3); verification
    /// failures have their own code (5).
    public var isDestinationFailure: Bool {
        switch self {
        case .cannotWrite, .noRoom, .destinationExists, .locked, .restore: true
        default: writeFailure != nil
        }
    }

    public var isVerificationFailure: Bool {
        switch self {
        case .verification, .notAccounted: true
        default: false
        }
    }
}

extension ExportError {
    /// The error of a failed write of `path`: `.noRoom` for a full disk or the file size limit,
    /// `.model` when the model has no store layout.
    static func writing(_ path: String, _ error: any Error) -> ExportError {
        if let failure = error as? StoreWriterError, failure.isModelProblem { return .model(reason: failure.description) }
        return WriteFailure.of(error).map(ExportError.noRoom) ?? .cannotWrite(path: path, reason: ErrorText.reason(of: error, at: path))
    }

    /// A full disk or file size limit, met writing the destination or SQLite's temporary files (reading a store).
    public var writeFailure: WriteFailure? {
        switch self {
        case .noRoom(let failure): failure
        case .store(let error): error.writeFailure
        default: nil
        }
    }
}
