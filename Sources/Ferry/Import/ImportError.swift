import FerryMigration
import FerryModel
import FerryStore
import FerryFormats

/// Why an import could not run or could not finish. Nothing is left at the destination.
public enum ImportError: Error, CustomStringConvertible, WriteFailureCarrying {
    case model(ModelLoadError)
    case unknownVersion(String, available: [String])
    case unknownEntity(String, version: String, available: [String])
    case abstractEntity(String)
    case unknownKeyAttribute(String, entity: String)
    case destinationExists(String)
    case unsupportedSource(String, reason: String)
    case source(RecordSourceError)
    case store(StoreWriterError)
    case rejectLog(path: String, reason: String)
    /// A full disk or the file size limit (the reject log's; the store's come as `.store`).
    case noRoom(WriteFailure)
    /// An output (the store, the reject log) is one of the run's inputs: refused before anything
    /// is opened, as writing it would destroy the input.
    case outputIsInput(output: String, input: String)
    /// The store and the reject log are one file: refused before anything is opened.
    case outputTwice(String)
    case links(GraphWriteError)
    /// The record pipeline stopped for a reason no import source gives (a store's, a mapping's).
    case pipeline(PipelineError)
    case modelDefault(String)
    /// An option names an attribute or relationship the model lacks.
    case unknownName(UnknownOptionName)
    /// A file whose bytes the store appended to lists as imported (`ImportedFiles`): its records
    /// would be in it twice. Refused before any record is read.
    case importedBefore(source: String, store: String, name: String, at: String, written: Int)
    /// One file given twice (the same bytes): its records would be written twice.
    case givenTwice(source: String, sameAs: String)
    /// The store appended to holds a list of imported files that cannot be read (edited or
    /// damaged): no file can be checked against it.
    case importedFilesUnreadable(store: String, reason: String)

    /// What the environment lacked (room, descriptors, a writable folder) while the store or the
    /// reject log was written or a source read: reported as that, exit 4, whichever step met it.
    public var writeFailure: WriteFailure? {
        switch self {
        case .store(let error): error.writeFailure
        case .links(let error): error.writeFailure
        case .noRoom(let failure): failure
        case .source(let error): error.writeFailure
        default: nil
        }
    }

    public var description: String {
        switch self {
        case let .model(error): error.description
        case let .unknownVersion(name, available):
            "the model has no version '\(name)'; versions: \(available.joined(separator: ", "))"
        case let .unknownEntity(name, version, available):
            "model version '\(version)' has no entity '\(name)'; entities: \(available.joined(separator: ", "))"
        case let .abstractEntity(name): "entity '\(name)' is abstract: import into one of its sub-entities"
        case let .unknownKeyAttribute(name, entity): "--key: entity '\(entity)' has no attribute '\(name)'"
        case let .destinationExists(path): "\(path) exists; use --force to replace it"
        case let .unsupportedSource(path, reason): "\(path): \(reason)"
        case let .source(error): error.description
        case let .store(error): "\(error)"
        case let .rejectLog(path, reason): "\(path): cannot write the reject log: \(reason)"
        case .noRoom(let failure): failure.description
        case let .outputIsInput(output, input): PathOverlap.text(output: output, input: input) + "; nothing was opened"
        case let .outputTwice(path):
            "\(path) is named as both the store and the reject log (--out and --rejects); nothing was opened"
        case let .links(error): error.description
        case let .pipeline(error): error.description
        case let .modelDefault(reason): reason
        case let .unknownName(error): error.description
        case let .importedBefore(source, store, name, at, written):
            "\(source): its bytes were imported into \(store) already (as \(name), \(at), \(written) record\(written == 1 ? "" : "s") written): "
                + "appending them again would add those records twice; nothing was written (--again appends it anyway)"
        case let .importedFilesUnreadable(store, reason):
            "\(store): its list of the files imported into it cannot be read (\(reason)), so no file can be checked against it; "
                + "nothing was written (--again appends without the check, and starts the list anew)"
        case let .givenTwice(source, sameAs):
            "\(source) holds the same bytes as \(sameAs): its records would be written twice; nothing was written (--again imports both)"
        }
    }
}

extension ImportError {
    /// The import's error for a pipeline's.
    init(_ error: PipelineError) {
        switch error {
        case .source(let error): self = .source(error)
        case .links(let error): self = .links(error)
        case .rejectLog(let failure): self = .failedRejectLog(failure)
        case .noRoom(let failure): self = .noRoom(failure)
        default: self = .pipeline(error)
        }
    }
}

extension ImportError {
    /// The error of a reject log that could not be written.
    static func failedRejectLog(_ failure: RejectLog.Failure) -> ImportError {
        failure.writeFailure.map(ImportError.noRoom) ?? .rejectLog(path: failure.path, reason: failure.reason)
    }
}
