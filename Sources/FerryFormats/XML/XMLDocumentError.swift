/// Why an XML document was refused.
public enum XMLDocumentError: Error, Equatable, CustomStringConvertible {
    /// The document is not well-formed XML (or uses an unsupported encoding).
    case malformed(source: String, line: Int, message: String)
    /// The document declares an entity. Ferry refuses every entity declaration, internal or
    /// external, so that no file can make it read other files, reach the network or expand
    /// entities exponentially ("billion laughs").
    case entityDeclaration(source: String, line: Int)
    /// The document has no root element.
    case empty(source: String)

    public var description: String {
        switch self {
        case let .malformed(source, line, message):
            "\(source):\(line): malformed XML: \(message)"
        case let .entityDeclaration(source, line):
            "\(source):\(line): XML entity declarations are not allowed (external entities and entity expansion are refused)"
        case let .empty(source):
            "\(source): XML document has no root element"
        }
    }
}
