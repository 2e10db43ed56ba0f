import FerryMigration
import FerryModel
import FerryStore

/// Why a migration could not run or finish. Nothing is left at the destination.
public enum MigrateError: Error, CustomStringConvertible {
    case model(ModelLoadError)
    case notVersioned(String)
    case unknownVersion(String, available: [String])
    case noMatchingVersion(source: String, differing: [String])
    case unknownEntity(source: String, entity: String)
    case destinationExists(String)
    case store(source: String, reason: String)
    case source(RecordSourceError)
    case mapping(MappingError)
    case writer(StoreWriterError)
    case links(GraphWriteError)
    case rejectLog(path: String, reason: String)

    public var description: String {
        switch self {
        case .model(let error): error.description
        case .notVersioned(let path): "\(path) has one version: a migration needs a versioned model (.xcdatamodeld)"
        case let .unknownVersion(name, available): "the model has no version '\(name)'; versions: \(available.joined(separator: ", "))"
        case let .noMatchingVersion(source, differing):
            "\(source): no version of the model matches this store (closest differs in: \(differing.joined(separator: ", ")))"
        case let .unknownEntity(source, entity): "\(source): no model version has an entity '\(entity)'"
        case .destinationExists(let path): "\(path) exists; use --force to replace it"
        case let .store(source, reason): "\(source): \(reason)"
        case .source(let error): error.description
        case .mapping(let error): error.description
        case .writer(let error): error.description
        case .links(let error): error.description
        case let .rejectLog(path, reason): "\(path): cannot write the reject log: \(reason)"
        }
    }
}
