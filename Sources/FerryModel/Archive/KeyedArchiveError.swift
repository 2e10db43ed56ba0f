import FerryFormats

/// Why an `NSKeyedArchiver` archive could not be read, and where: the index in `$objects` of the
/// object being read and the key path that led to the problem (`$objects[15].NSProperties[2]`).
public enum KeyedArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a property list.
    case propertyList(PropertyListError)
    /// The property list is not a keyed archive (`$archiver`, `$version`, `$top`, `$objects`).
    case notAKeyedArchive(reason: String)
    /// A UID points past the end of `$objects`.
    case uidOutOfRange(uid: UInt64, count: Int, keyPath: String)
    /// A value has the wrong type (a UID where a scalar belongs, an integer where a string belongs, …).
    case unexpectedType(expected: String, found: String, keyPath: String)
    /// A `$class` reference does not lead to a `{$classname: string}` description.
    case badClassDescription(object: Int, keyPath: String)
    /// `NS.keys`/`NS.objects` (or a known-keys dictionary's keys and values) differ in length.
    case countMismatch(keys: Int, values: Int, keyPath: String)
    /// An object contains itself through the objects being decoded.
    case cycle(object: Int, keyPath: String)
    /// Objects nest deeper than the decoder allows.
    case tooDeep(limit: Int, keyPath: String)
    /// One walk of the graph visits more objects than `KeyedArchive.maxVisits` (shared
    /// collections counted once per reference).
    case tooManyObjects(limit: Int, keyPath: String)

    public var description: String {
        switch self {
        case .propertyList(let error): "keyed archive: \(error)"
        case .notAKeyedArchive(let reason): "not an NSKeyedArchiver archive: \(reason)"
        case .uidOutOfRange(let uid, let count, let keyPath):
            "keyed archive, \(keyPath): UID \(uid) is out of range ($objects holds \(count))"
        case .unexpectedType(let expected, let found, let keyPath):
            "keyed archive, \(keyPath): expected \(expected), found \(found)"
        case .badClassDescription(let object, let keyPath):
            "keyed archive, \(keyPath): object \(object) is not a class description with a string $classname"
        case .countMismatch(let keys, let values, let keyPath):
            "keyed archive, \(keyPath): \(keys) keys but \(values) values"
        case .cycle(let object, let keyPath):
            "keyed archive, \(keyPath): object \(object) contains itself"
        case .tooDeep(let limit, let keyPath):
            "keyed archive, \(keyPath): objects nest deeper than \(limit) levels"
        case .tooManyObjects(let limit, let keyPath):
            "keyed archive, \(keyPath): the value reaches more than \(limit) objects (shared collections expand past the archive's size)"
        }
    }
}

extension PropertyListValue {
    /// A short name of the value's kind, for error messages.
    var kindName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .unrepresentableReal: "real that no Double holds"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .set: "set"
        case .dictionary: "dictionary"
        case .uid: "UID"
        }
    }
}
