/// What is wrong with an XML property list (see `PropertyListError.xml`).
public enum XMLPropertyListProblem: Sendable, Equatable, CustomStringConvertible {
    /// libxml2 rejected the document as not well-formed; the message is libxml2's.
    case malformed(String)
    /// The DTD declares entities (external-entity and entity-expansion attacks are refused).
    case entityDeclaration
    /// A reference to an entity that is not one of XML's predefined ones.
    case unresolvedEntity(String)
    /// The prolog declares an encoding other than UTF-8 or UTF-16.
    case unsupportedEncoding(String)
    /// The document holds no value, or more than one value at the top level.
    case invalidRoot
    /// An element that property lists do not define, or one in the wrong place.
    case unexpectedElement(String)
    /// Text where only elements may appear (inside `<plist>`, `<array>`, `<dict>`).
    case unexpectedText
    /// A `<dict>` whose children do not alternate `<key>` and a value.
    case invalidDictionary(String)
    /// An `<integer>` that is not a decimal or `0x` hexadecimal number within 128 bits.
    case invalidInteger(String)
    /// A `<real>` that is not a number, `nan` or `[+-]inf[inity]`.
    case invalidReal(String)
    /// A `<date>` that is not `yyyy-MM-ddTHH:mm:ssZ`.
    case invalidDate(String)
    /// `<data>` that is not base64.
    case invalidBase64
    /// Containers nested deeper than the reader's limit.
    case nestingTooDeep(limit: Int)

    public var description: String {
        switch self {
        case .malformed(let message): "not well-formed XML: \(message)"
        case .entityDeclaration: "the DTD declares entities, which are refused (external entities, entity expansion)"
        case .unresolvedEntity(let name): "reference to undeclared entity '\(name)'"
        case .unsupportedEncoding(let name): "unsupported encoding '\(name)' (only UTF-8 and UTF-16)"
        case .invalidRoot: "expected exactly one value at the top level"
        case .unexpectedElement(let name): "unexpected element <\(name)>"
        case .unexpectedText: "unexpected text between elements"
        case .invalidDictionary(let why): "invalid <dict>: \(why)"
        case .invalidInteger(let text): "invalid <integer> '\(text)'"
        case .invalidReal(let text): "invalid <real> '\(text)'"
        case .invalidDate(let text): "invalid <date> '\(text)'"
        case .invalidBase64: "invalid base64 in <data>"
        case .nestingTooDeep(let limit): "elements nested deeper than \(limit)"
        }
    }
}
