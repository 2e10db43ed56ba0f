import CLibXML2

/// A libxml2 document parsed with options that are safe for untrusted input.
///
/// No network (`XML_PARSE_NONET`), no external DTD loading, no entity substitution
/// (`XML_PARSE_NOENT` is not set), libxml2's default size and depth limits (no `XML_PARSE_HUGE`).
/// A DTD that declares any entity stops the parse at the declaration, before anything can be
/// expanded; this refuses external-entity and entity-expansion ("billion laughs") documents.
/// Only UTF-8 and UTF-16 documents are accepted; bad UTF-8 is a parse error. Carriage returns in
/// text are escaped first (``XMLCarriageReturnEscaper``), so that libxml2 keeps them.
final class XMLPropertyListDocument {
    let document: xmlDocPtr

    private static let options: Int32 = Int32(bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
        | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue)

    /// `xmlInitParser` once per process, before any concurrent parse.
    private static let libraryInitialized: Bool = {
        xmlInitParser()
        return true
    }()

    init(_ bytes: [UInt8]) throws(PropertyListError) {
        let bytes = XMLCarriageReturnEscaper.escaping(bytes)
        guard Self.libraryInitialized, let length = Int32(exactly: bytes.count) else {
            throw .xml(.malformed("document larger than 2 GiB"), line: 0)
        }
        guard let context = xmlNewParserCtxt() else { throw .xml(.malformed("libxml2 could not allocate a parser"), line: 0) }
        defer { xmlFreeParserCtxt(context) }
        let state = ParseState()
        context.pointee._private = Unmanaged.passUnretained(state).toOpaque()
        context.pointee.sax.pointee.entityDecl = refuseEntityDeclaration
        context.pointee.sax.pointee.unparsedEntityDecl = refuseUnparsedEntityDeclaration
        context.pointee.sax.pointee.serror = recordFirstError
        let parsed = withExtendedLifetime(state) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    // Errors raised outside the parser (converting the encoding) are recorded as its own.
                    LibXML2ErrorScope.run(context: UnsafeMutableRawPointer(context), handler: recordFirstError) {
                        xmlCtxtReadMemory(context, chars.baseAddress, length, nil, nil, Self.options)
                    }
                }
            }
        }
        context.pointee._private = nil
        if state.entityLine > 0 {
            if let parsed { xmlFreeDoc(parsed) }
            throw .xml(.entityDeclaration, line: state.entityLine)
        }
        guard let parsed else {
            throw state.firstError ?? .xml(.malformed("libxml2 returned no document"), line: 0)
        }
        if let declared = parsed.pointee.encoding {
            let name = String(cString: declared)
            guard ["UTF-8", "UTF8", "UTF-16", "UTF16", "UTF-16LE", "UTF-16BE"].contains(name.uppercased()) else {
                xmlFreeDoc(parsed)
                throw .xml(.unsupportedEncoding(name), line: 1)
            }
        }
        document = parsed
    }

    deinit { xmlFreeDoc(document) }
}

/// What the SAX callbacks saw during one parse; reached through the parser context's `_private`.
private final class ParseState {
    /// The line of the first entity declaration, 0 when there was none.
    var entityLine = 0
    /// libxml2's first error (later ones are usually consequences of it).
    var firstError: PropertyListError?

    static func of(_ context: UnsafeMutableRawPointer?) -> (xmlParserCtxtPtr, ParseState)? {
        guard let context else { return nil }
        let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let state = parser.pointee._private else { return nil }
        return (parser, Unmanaged<ParseState>.fromOpaque(state).takeUnretainedValue())
    }
}

/// SAX structured-error handler: keeps the first error or fatal error as a `PropertyListError`.
private func recordFirstError(_ context: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<xmlError>?) {
    guard let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
          let (_, state) = ParseState.of(context), state.firstError == nil else { return }
    let message = error.pointee.message.map { String(cString: $0) } ?? "error \(error.pointee.code)"
    let trimmed = String(message.reversed().drop { $0 == "\n" || $0 == " " }.reversed())
    let line = Int(error.pointee.line)
    state.firstError = error.pointee.code == Int32(XML_ERR_UNSUPPORTED_ENCODING.rawValue)
        ? .xml(.unsupportedEncoding(trimmed), line: line)
        : .xml(.malformed(trimmed), line: line)
}

/// SAX `entityDecl` replacement: records the line and stops the parser before any expansion.
private func refuseEntityDeclaration(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?, _ type: Int32,
    _ publicID: UnsafePointer<xmlChar>?, _ systemID: UnsafePointer<xmlChar>?, _ content: UnsafeMutablePointer<xmlChar>?
) {
    stopAtEntityDeclaration(context)
}

/// SAX `unparsedEntityDecl` replacement, same as `refuseEntityDeclaration`.
private func refuseUnparsedEntityDeclaration(
    _ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?,
    _ publicID: UnsafePointer<xmlChar>?, _ systemID: UnsafePointer<xmlChar>?, _ notation: UnsafePointer<xmlChar>?
) {
    stopAtEntityDeclaration(context)
}

private func stopAtEntityDeclaration(_ context: UnsafeMutableRawPointer?) {
    guard let (parser, state) = ParseState.of(context) else { return }
    if state.entityLine == 0 { state.entityLine = max(1, Int(xmlSAX2GetLineNumber(context))) }
    xmlStopParser(parser)
}
