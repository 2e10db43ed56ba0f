import FerryFormats
import FerryStore

/// Why records could not be written or linked.
public enum GraphWriteError: Error, CustomStringConvertible, WriteFailureCarrying {
    case store(StoreWriterError)
    case unknownEntity(String)
    case unknownRelationship(entity: String, relationship: String)
    case unsupportedLink(entity: String, relationship: String, reason: String)

    public var description: String {
        switch self {
        case .store(let error): error.description
        case .unknownEntity(let name): "entity '\(name)' is not in the destination model"
        case let .unknownRelationship(entity, relationship): "entity '\(entity)' has no relationship '\(relationship)'"
        case let .unsupportedLink(entity, relationship, reason): "\(entity).\(relationship): \(reason)"
        }
    }

    public var writeFailure: WriteFailure? {
        if case .store(let error) = self { return error.writeFailure }
        return nil
    }

    static func wrap<T>(_ body: () throws(StoreWriterError) -> T) throws(GraphWriteError) -> T {
        do { return try body() } catch { throw .store(error) }
    }

    static func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(GraphWriteError) -> T {
        do { return try body() } catch { throw .store(.sqlite(error)) }
    }
}
