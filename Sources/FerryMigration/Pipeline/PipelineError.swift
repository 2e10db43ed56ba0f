import FerryFormats

/// Why a record pipeline could not go on. The jobs turn it into their own error.
public enum PipelineError: Error, CustomStringConvertible {
    /// A file of records could not be read (or none of its keys matches an attribute).
    case source(RecordSourceError)
    /// A store source could not be opened or read.
    case store(source: String, reason: String)
    /// A store whose metadata has no version hashes and no model cache to take them from.
    case noVersionHashes(source: String)
    case noMatchingVersion(source: String, differing: [String])
    /// A source store holds rows its reader did not deliver (or delivered rows it does not hold),
    /// counted independently with plain SQL: nothing is written.
    case notAccounted(source: String, problems: [String])
    /// A mapping of the chain cannot be compiled or refuses the records reaching it.
    case mapping(MappingError)
    case links(GraphWriteError)
    /// The reject log could not be written (a full disk or the file size limit among the reasons).
    case rejectLog(RejectLog.Failure)
    /// Records that keep their source's keys came out of `Z_PK` order, or twice.
    case keyOutOfOrder(source: String, primaryKey: Int64)
    /// A record that keeps its source's key was merged into another on a uniqueness constraint.
    case keyCollides(source: String, primaryKey: Int64)
    /// A source's own failure, in the source's own error type.
    case sourceFailure(any Error)
    /// No room for SQLite's temporary files while a store source was read (`reading`).
    case noRoom(WriteFailure)

    public var description: String {
        switch self {
        case .source(let error): error.description
        case let .store(source, reason): "\(source): \(reason)"
        case .noVersionHashes(let source):
            "\(source): its metadata has no NSStoreModelVersionHashes and it has no Z_MODELCACHE, so no model version can be matched"
        case let .noMatchingVersion(source, differing):
            "\(source): no version of the model matches this store (closest differs in: \(differing.joined(separator: ", ")))"
        case let .notAccounted(source, problems):
            "\(source): not every row is accounted for, so nothing was written:\n  " + problems.joined(separator: "\n  ")
        case .mapping(let error): error.description
        case .links(let error): error.description
        case .rejectLog(let failure): "\(failure.path): cannot write the reject log: \(failure.reason)"
        case .keyOutOfOrder(let source, _), .keyCollides(let source, _): "\(source): \(keyReason ?? "")"
        case .sourceFailure(let error): "\(error)"
        case .noRoom(let failure): failure.description
        }
    }

    /// Why records that keep their source's keys could not be written.
    public var keyReason: String? {
        switch self {
        case .keyOutOfOrder(_, let key):
            "Z_PK \(key) is out of order or repeated (restore needs records in Z_PK order, as written without --sort)"
        case .keyCollides(_, let key): "Z_PK \(key) collides with another record on a uniqueness constraint"
        default: nil
        }
    }
}

extension PipelineError {
    /// The error of a failed read of the store at `path`: the store's (`store`), or `noRoom` when
    /// the environment failed it (no room for SQLite's temporary files, no descriptor left), which
    /// is no fault of the store.
    static func reading(_ path: String, _ error: any Error) -> PipelineError {
        if let failure = WriteFailure.of(error) { return .noRoom(failure) }
        return .store(source: path, reason: ErrorText.reason(of: error, at: path))
    }
}
