import CLibXML2

/// The line of an element's start tag, also past line 65,535.
///
/// libxml2 keeps lines below 65,535 in every node. Past that, with `XML_PARSE_BIG_LINES`, only
/// text nodes keep theirs (the line where their text ended: short text between tags is delivered
/// in one piece), and `xmlGetLineNo` answers for an element with a nearby text's line, which is
/// one too many when that text holds a line break (`<dict>` followed by a new line). Here the
/// text that starts right after the start tag (the first child, or the next sibling of an empty
/// element) gives its end line minus its line breaks; a first child element starts on the same
/// line and is asked in turn.
enum XMLElementLine {
    private static let saturated: UInt16 = 65535

    static func of(_ element: xmlNodePtr) -> Int {
        guard element.pointee.type == XML_ELEMENT_NODE, element.pointee.line == saturated, let line = startLine(of: element, depth: 0) else {
            return Int(xmlGetLineNo(element))
        }
        return line
    }

    private static func startLine(of element: xmlNodePtr, depth: Int) -> Int? {
        guard depth < 5 else { return nil }
        guard let first = element.pointee.children else {
            return element.pointee.next.flatMap { startLine(ofText: $0) }
        }
        if first.pointee.type == XML_ELEMENT_NODE {
            return first.pointee.line == saturated ? startLine(of: first, depth: depth + 1) : Int(first.pointee.line)
        }
        return startLine(ofText: first)
    }

    private static func startLine(ofText node: xmlNodePtr) -> Int? {
        guard node.pointee.type == XML_TEXT_NODE, let end = node.pointee.psvi, let content = node.pointee.content else {
            return nil
        }
        var breaks = 0
        var pointer = content
        while pointer.pointee != 0 {
            if pointer.pointee == 0x0A { breaks += 1 }
            pointer += 1
        }
        return Int(bitPattern: end) - breaks
    }
}
