/// What is wrong with a binary property list (see `PropertyListError.binary`).
public enum BinaryPropertyListProblem: Sendable, Equatable, CustomStringConvertible {
    /// Shorter than a header, one object and a trailer, or without the `bplist0?` magic.
    case notBinaryPropertyList
    /// The trailer's offset-table integer size is outside 1...8 or too small for the table's position.
    case invalidOffsetSize(Int)
    /// The trailer's object-reference size is outside 1...8 or too small for the object count.
    case invalidObjectReferenceSize(Int)
    /// The trailer's object count, top object or offset-table position is impossible.
    case invalidTrailer(String)
    /// An offset-table entry points outside the object area.
    case objectOffsetOutOfRange(Int)
    /// An object reference names an object that does not exist.
    case objectReferenceOutOfRange(UInt64)
    /// An object's bytes run past the object area.
    case truncatedObject
    /// A length or element count exceeds the bytes that remain.
    case countExceedsInput(UInt64)
    /// A length or element count is not a valid non-negative integer object.
    case invalidCount
    /// A marker byte that bplist00 does not define.
    case unknownMarker(UInt8)
    /// A null (0x00) or fill (0x0F) object, which `PropertyListValue` cannot hold.
    case unsupportedObject(UInt8)
    /// An integer, real or UID with a byte width the format does not allow.
    case invalidWidth(marker: UInt8)
    /// A date that is NaN or infinite.
    case invalidDate
    /// A UTF-16 string with an unpaired surrogate.
    case invalidUTF16
    /// A dictionary key that is not a string.
    case nonStringKey
    /// An object that contains itself, directly or indirectly.
    case cycle
    /// Containers nested deeper than the reader's limit.
    case nestingTooDeep(limit: Int)
    /// A container holds more objects than the reader's limit, counting a shared object once per
    /// reference to it (see `BinaryPropertyListReader.maxObjects`).
    case tooManyObjects(limit: Int)

    public var description: String {
        switch self {
        case .notBinaryPropertyList: "not a binary property list (needs bplist0? header, an object and a 32-byte trailer)"
        case .invalidOffsetSize(let size): "invalid offset-table integer size \(size)"
        case .invalidObjectReferenceSize(let size): "invalid object reference size \(size)"
        case .invalidTrailer(let why): "invalid trailer: \(why)"
        case .objectOffsetOutOfRange(let offset): "object offset \(offset) lies outside the object area"
        case .objectReferenceOutOfRange(let ref): "object reference \(ref) is out of range"
        case .truncatedObject: "object runs past the end of the object area"
        case .countExceedsInput(let count): "count \(count) exceeds the remaining bytes"
        case .invalidCount: "invalid length or count"
        case .unknownMarker(let marker): "unknown object marker 0x\(String(marker, radix: 16))"
        case .unsupportedObject(let marker): "null/fill object (marker 0x\(String(marker, radix: 16))) is not supported"
        case .invalidWidth(let marker): "invalid byte width in marker 0x\(String(marker, radix: 16))"
        case .invalidDate: "date is not a finite number"
        case .invalidUTF16: "UTF-16 string contains an unpaired surrogate"
        case .nonStringKey: "dictionary key is not a string"
        case .cycle: "object contains itself"
        case .nestingTooDeep(let limit): "containers nested deeper than \(limit)"
        case .tooManyObjects(let limit):
            "the value holds more than \(limit) objects, counting shared objects once per reference (shared containers expand to more than the file can hold)"
        }
    }
}
