import FerryFormats

/// Why a model could not be loaded. Every case names the file, and the line and element where
/// the file is at fault.
public enum ModelLoadError: Error, Equatable, CustomStringConvertible {
    /// The path does not exist or cannot be read.
    case unreadable(path: String, reason: String)
    /// The path is not an `.xcdatamodel` folder, an `.xcdatamodeld` bundle, a `contents` file, a
    /// `.momd` folder or a `.mom` file.
    case notAModel(path: String, reason: String)
    /// The XML is not well-formed, or declares entities.
    case xml(XMLDocumentError)
    /// An element is missing something required or holds a value that cannot be read.
    case invalidElement(file: String, line: Int, element: String, reason: String)
    /// The model is self-contradictory (a parent or destination entity that does not exist, an inheritance cycle).
    case inconsistent(file: String, reason: String)
    /// A compiled `.mom` is not a readable model archive.
    case archive(file: String, ModelArchiveError)
    /// The model is in Xcode 3's binary format (`elements`/`layout`), which has no `contents` XML.
    case xcode3Format(path: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "\(path): cannot read: \(reason)"
        case let .notAModel(path, reason): "\(path): not a Core Data model: \(reason)"
        case let .xml(error): error.description
        case let .invalidElement(file, line, element, reason): "\(file):\(line): <\(element)>: \(reason)"
        case let .inconsistent(file, reason): "\(file): inconsistent model: \(reason)"
        case let .archive(file, error): "\(file): \(error)"
        case let .xcode3Format(path):
            "\(path): Xcode 3 model format (binary 'elements' file, no 'contents'); open and save it in a newer Xcode first"
        }
    }
}
