import FerryMigration

/// Why `ferry model infer` wrote nothing.
public enum ModelInferError: Error, CustomStringConvertible {
    /// The request itself is wrong (an entity name Xcode refuses, no sources).
    case invalidRequest(String)
    /// A source could not be read on.
    case source(RecordSourceError)
    /// No key of the records can become a property (the files hold no objects, or only keys
    /// with empty arrays or values no type holds): import would refuse them with any such model.
    case nothingToModel(String)
    /// The bundle could not be written or put in place, or did not load back as written.
    case output(ModelExtractError)

    public var description: String {
        switch self {
        case .invalidRequest(let reason): reason
        case .source(let error): error.description
        case .nothingToModel(let reason): reason
        case .output(let error): error.description
        }
    }
}
