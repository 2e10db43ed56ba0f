import FerryFormats

/// Why a model archive (a compiled `.mom`, or a store's `Z_MODELCACHE`) could not be decoded or a
/// model encoded, and where.
public enum ModelArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store's model cache is not a valid raw DEFLATE stream.
    case deflate(DeflateError)
    /// The bytes are not a readable keyed archive.
    case archive(KeyedArchiveError)
    /// The archive's root is not an `NSManagedObjectModel` (e.g. Xcode's `XDPMModel` snapshots).
    case notAManagedObjectModel(rootClass: String)
    /// The archive is a keyed archive but breaks a model rule at `keyPath`.
    case invalid(reason: String, keyPath: String)
    /// The model cannot be written as an archive; `path` names the element (`Entity.property`).
    case unencodable(reason: String, path: String)

    public var description: String {
        switch self {
        case .deflate(let error): "model cache: \(error)"
        case .archive(let error): "model archive: \(error)"
        case .notAManagedObjectModel(let rootClass):
            "model archive: the root object is a \(rootClass), not an NSManagedObjectModel"
        case .invalid(let reason, let keyPath): "model archive, \(keyPath): \(reason)"
        case .unencodable(let reason, let path): "cannot archive the model, \(path): \(reason)"
        }
    }
}

/// The `_P` flag word of an archived property (modelcache-format.md §4.3).
struct PropertyFlags: OptionSet {
    let rawValue: Int
    /// Always set by Core Data: the word is present and authoritative.
    static let present = PropertyFlags(rawValue: 0x001)
    static let optional = PropertyFlags(rawValue: 0x002)
    static let readOnly = PropertyFlags(rawValue: 0x004)
    static let transient = PropertyFlags(rawValue: 0x008)
    static let noValidationPredicates = PropertyFlags(rawValue: 0x010)
    static let noValidationWarnings = PropertyFlags(rawValue: 0x020)
    static let noUserInfo = PropertyFlags(rawValue: 0x040)
    static let noVersionHashModifier = PropertyFlags(rawValue: 0x080)
    static let indexedBySpotlight = PropertyFlags(rawValue: 0x100)
    static let ordered = PropertyFlags(rawValue: 0x400)
}

/// `NSFlagsKey` bits of an archived attribute (modelcache-format.md §4.4).
enum AttributeFlags {
    static let hasMaximum = 0x01
    static let hasMinimum = 0x02
    static let externalStorage = 0x04
    static let preserveAfterDeletion = 0x10
}
