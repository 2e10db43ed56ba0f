import CLibXML2

/// Parses XML with libxml2 under options that make hostile documents harmless: no network
/// access, no DTD loading, no entity substitution, and any `<!ENTITY` declaration stops the
/// parse before it can be used. Errors carry the source name and line.
public enum SafeXMLParser {
    /// libxml2 must be initialised once before it is used from several threads.
    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parser options: never fetch anything, keep libxml2 quiet (errors are read back and thrown).
    private static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
        | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)

    /// Set on the parser context by `refuseEntityDeclaration` to the line (plus one) of the
    /// first entity declaration; libxml2's SAX callbacks cannot capture Swift state.
    private static let refuseEntityDeclaration: entityDeclSAXFunc = { context, _, _, _, _, _ in
        guard let context else { return }
        let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
        let line = Int(xmlSAX2GetLineNumber(context))
        parser.pointee._private = UnsafeMutableRawPointer(bitPattern: line + 1)
        xmlStopParser(parser)
    }

    /// Parses a whole document held in memory and returns its root element.
    /// - Parameter source: a name for error messages, usually the file path.
    public static func parse(_ bytes: [UInt8], source: String) throws(XMLDocumentError) -> XMLElementTree {
        _ = initialised
        guard let parser = xmlNewParserCtxt() else {
            throw .malformed(source: source, line: 0, message: "libxml2 could not allocate a parser")
        }
        defer { xmlFreeParserCtxt(parser) }
        parser.pointee.sax.pointee.entityDecl = refuseEntityDeclaration

        let document: xmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                    LibXML2ErrorScope.run { xmlCtxtReadMemory(parser, chars, Int32(clamping: buffer.count), source, nil, options) }
                }
            }
        }
        defer { if let document { xmlFreeDoc(document) } }

        if let marker = parser.pointee._private {
            throw .entityDeclaration(source: source, line: Int(bitPattern: marker) - 1)
        }
        guard let document, parser.pointee.wellFormed != 0 else {
            throw malformedError(parser: parser, source: source, isEmptyInput: bytes.isEmpty)
        }
        guard let root = xmlDocGetRootElement(document) else { throw .empty(source: source) }
        return tree(of: root)
    }

    private static func malformedError(parser: xmlParserCtxtPtr, source: String, isEmptyInput: Bool) -> XMLDocumentError {
        if isEmptyInput { return .empty(source: source) }
        guard let error = xmlCtxtGetLastError(parser) else {
            return .malformed(source: source, line: 0, message: "not well-formed")
        }
        let message = error.pointee.message.map { String(cString: $0) } ?? "not well-formed"
        let trimmed = message.hasSuffix("\n") ? String(message.dropLast()) : message
        return .malformed(source: source, line: Int(error.pointee.line), message: trimmed)
    }

    /// Copies a libxml2 element and its descendants into Swift values.
    private static func tree(of element: xmlNodePtr) -> XMLElementTree {
        var result = XMLElementTree(name: string(element.pointee.name), line: Int(xmlGetLineNo(element)))
        var attribute = element.pointee.properties
        while let current = attribute {
            result.attributes.append((string(current.pointee.name), text(of: current.pointee.children)))
            attribute = current.pointee.next
        }
        var child = element.pointee.children
        while let node = child {
            switch node.pointee.type {
            case XML_ELEMENT_NODE:
                result.children.append(tree(of: node))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content { result.text += String(cString: content) }
            default:
                break
            }
            child = node.pointee.next
        }
        return result
    }

    /// The text of an attribute's value nodes. Entities are never declared in a document that
    /// got this far, so the nodes are plain text.
    private static func text(of firstNode: xmlNodePtr?) -> String {
        var text = ""
        var node = firstNode
        while let current = node {
            if let content = current.pointee.content { text += String(cString: content) }
            node = current.pointee.next
        }
        return text
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}
