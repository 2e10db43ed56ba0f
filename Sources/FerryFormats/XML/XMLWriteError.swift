/// Why `XMLDocumentWriter` refused an element tree.
public enum XMLWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An attribute value holds a character XML 1.0 cannot hold, escaped or not (most C0 controls,
    /// U+FFFE, U+FFFF).
    case forbiddenCharacter(scalar: UInt32, element: String, attribute: String)
    /// An element has text content; the writer writes elements and attributes only.
    case textContent(element: String)

    public var description: String {
        switch self {
        case let .forbiddenCharacter(scalar, element, attribute):
            "<\(element) \(attribute)>: U+\(String(scalar, radix: 16, uppercase: true)) cannot appear in XML 1.0"
        case .textContent(let element):
            "<\(element)> has text content, which this writer does not write"
        }
    }
}
