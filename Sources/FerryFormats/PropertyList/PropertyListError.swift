/// Why a property list could not be read or written, and where.
///
/// Binary problems carry the byte offset of the offending structure, XML problems the 1-based line
/// that libxml2 reports for the offending node, and encoding problems the key path of the value.
public enum PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are neither a binary (`bplist0?`) nor an XML property list.
    case unrecognizedFormat
    /// A binary property list is malformed at `offset` (from the start of the input).
    case binary(BinaryPropertyListProblem, offset: Int)
    /// An XML property list is malformed or hostile at `line` (1-based; 0 when unknown).
    case xml(XMLPropertyListProblem, line: Int)
    /// A value cannot be written in the requested format; `keyPath` names it (`/` is the root).
    case unencodable(reason: String, keyPath: String)

    public var description: String {
        switch self {
        case .unrecognizedFormat:
            "not a property list: neither a binary (bplist0?) nor an XML property list"
        case .binary(let problem, let offset):
            "binary property list, byte offset \(offset): \(problem)"
        case .xml(let problem, let line) where line > 0:
            "XML property list, line \(line): \(problem)"
        case .xml(let problem, _):
            "XML property list: \(problem)"
        case .unencodable(let reason, let keyPath):
            "cannot encode property list value at \(keyPath): \(reason)"
        }
    }
}
