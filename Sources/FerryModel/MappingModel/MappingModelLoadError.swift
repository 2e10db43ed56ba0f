import FerryFormats

/// Why a mapping model could not be loaded, with the file and where in it: the line and object of
/// an `xcmapping.xml`, the entity mapping and property, or the key path in an archive.
public enum MappingModelLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path does not exist or cannot be read.
    case unreadable(path: String, reason: String)
    /// The path is not an `.xcmappingmodel` folder, an `xcmapping.xml` or a compiled `.cdm`.
    case notAMappingModel(path: String, reason: String)
    /// The XML is not well-formed, or declares entities.
    case xml(XMLDocumentError)
    /// An object of an `xcmapping.xml` is missing something it needs or holds a value that cannot be read.
    case invalidObject(file: String, line: Int, object: String, reason: String)
    /// An archive (a `.cdm`, a model snapshot, an archived expression) cannot be read; `place` says
    /// which one (`entity mapping PostToPost, attribute hexColor`).
    case archive(file: String, place: String, ModelArchiveError)
    /// The mapping model contradicts the models it maps (an entity or mapping name it names does not exist).
    case inconsistent(file: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "\(path): cannot read: \(reason)"
        case let .notAMappingModel(path, reason): "\(path): not a Core Data mapping model: \(reason)"
        case let .xml(error): error.description
        case let .invalidObject(file, line, object, reason): "\(file):\(line): object \(object): \(reason)"
        case let .archive(file, place, error): "\(file): \(place): \(error)"
        case let .inconsistent(file, reason): "\(file): inconsistent mapping model: \(reason)"
        }
    }
}
