import FerryFormats

/// Why a model could not be written as Xcode model files.
public enum ModelWriteError: Error, Equatable, CustomStringConvertible {
    /// A name or value of the model cannot be spelled in XML (a control character in a default
    /// value or userInfo entry, say).
    case unencodable(XMLWriteError)
    /// A version name cannot name a file (empty, `.`/`..`, or holding `/` or NUL).
    case invalidName(String)
    /// A bundle's current version is not one of its versions.
    case unknownCurrentVersion(String)
    /// A file or folder could not be created or written.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .unencodable(let error): "the model cannot be written as XML: \(error.description)"
        case .invalidName(let name): "'\(name)' cannot name a model version folder (empty, '.', '..', or holding '/' or NUL)"
        case .unknownCurrentVersion(let name): "the current version '\(name)' is not one of the bundle's versions"
        case let .cannotWrite(path, reason): "\(path): cannot write: \(reason)"
        }
    }
}
