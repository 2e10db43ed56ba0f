/// Writes an `XMLElementTree` of elements and attributes as a UTF-8 document in the layout of
/// Xcode's model files: the declaration `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`,
/// one element per line indented by four spaces per level, attributes in the tree's order,
/// childless elements closed as `<name …/>`, and no newline after the root's end tag.
///
/// Attribute values are escaped so that they read back exactly: `&`, `<`, `>` and `"` as
/// `&amp;`, `&lt;`, `&gt;`, `&quot;`, and tab, line feed and carriage return as `&#x9;`,
/// `&#xA;`, `&#xD;` (attribute-value normalisation would turn them into spaces). Characters
/// XML 1.0 cannot hold at all, and text content (which Xcode's model files never have), are
/// errors rather than broken or silently shortened output.
public enum XMLDocumentWriter {
    private static let declaration = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#
    private static let indentUnit = "    "

    /// The complete document whose root element is `root`.
    public static func document(_ root: XMLElementTree) throws(XMLWriteError) -> [UInt8] {
        var output = Array(declaration.utf8)
        try append(root, depth: 0, to: &output)
        return output
    }

    private static func append(_ element: XMLElementTree, depth: Int, to output: inout [UInt8]) throws(XMLWriteError) {
        guard element.text.isEmpty else { throw .textContent(element: element.name) }
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<depth { output.append(contentsOf: indentUnit.utf8) }
        output.append(UInt8(ascii: "<"))
        output.append(contentsOf: element.name.utf8)
        for attribute in element.attributes {
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: attribute.name.utf8)
            output.append(contentsOf: "=\"".utf8)
            try appendEscaped(attribute.value, to: &output, element: element.name, attribute: attribute.name)
            output.append(UInt8(ascii: "\""))
        }
        guard !element.children.isEmpty else { return output.append(contentsOf: "/>".utf8) }
        output.append(UInt8(ascii: ">"))
        for child in element.children { try append(child, depth: depth + 1, to: &output) }
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<depth { output.append(contentsOf: indentUnit.utf8) }
        output.append(contentsOf: "</\(element.name)>".utf8)
    }

    private static func appendEscaped(_ value: String, to output: inout [UInt8], element: String, attribute: String) throws(XMLWriteError) {
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x26: output.append(contentsOf: "&amp;".utf8)
            case 0x3C: output.append(contentsOf: "&lt;".utf8)
            case 0x3E: output.append(contentsOf: "&gt;".utf8)
            case 0x22: output.append(contentsOf: "&quot;".utf8)
            case 0x09: output.append(contentsOf: "&#x9;".utf8)
            case 0x0A: output.append(contentsOf: "&#xA;".utf8)
            case 0x0D: output.append(contentsOf: "&#xD;".utf8)
            case 0..<0x20, 0xFFFE, 0xFFFF:
                throw .forbiddenCharacter(scalar: scalar.value, element: element, attribute: attribute)
            default: output.append(contentsOf: String(scalar).utf8)
            }
        }
    }
}
