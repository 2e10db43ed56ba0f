/// Why the column value of a Binary attribute that allows external storage cannot be read.
public enum ExternalBinaryDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first byte is neither Core Data's inline tag nor its external one.
    case unknownTag(UInt8)
    /// An external reference does not name a plain file (empty, `.`, `..`, or with a `/`).
    case invalidFileName(String)
    /// The file an external reference names cannot be read.
    case unreadableFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .unknownTag(let tag): "external-storage value with unknown tag byte \(tag)"
        case .invalidFileName(let name): "external data reference with an invalid file name '\(name)'"
        case let .unreadableFile(path, reason): "external data file \(path) cannot be read: \(reason)"
        }
    }
}
