import CLibXML2

/// Checks the prolog of an XML document (everything before the root element's start tag) before
/// the streaming reader sees any of it.
///
/// Entity declarations can only appear in the prolog's internal DTD subset, but libxml2's reader
/// offers no hook to stop at one: by the time it reports the DOCTYPE node, the chunk it pushed
/// may already have referenced (and so parsed) the entities. So the prolog is first run through
/// libxml2's push parser with SAX callbacks that stop at the first entity declaration (refused
/// with its line, before any reference is parsed) or at the root element's start tag (the prolog
/// is clean). The bytes read meanwhile are handed back, to be parsed again by the reader.
///
/// Memory: the bytes up to and including the chunk holding the root start tag (the prolog is
/// normally a few hundred bytes). Malformed prologs are left to the reader to report.
enum XMLPrologGuard {
    /// Declared encodings that are accepted, as by ``XMLPropertyListReader`` (compared uppercased).
    /// `xmlInitParser` once per process, before any concurrent parse.
    private static let libraryInitialized: Bool = {
        xmlInitParser()
        return true
    }()

    static let supportedEncodings: Set<String> = ["UTF-8", "UTF8", "UTF-16", "UTF16", "UTF-16LE", "UTF-16BE"]

    /// Reads `source` (after the already-read `prefix`) until the root element starts, the input
    /// ends or libxml2 finds an error.
    /// - Returns: every byte read, `prefix` included.
    /// - Throws: ``PlistRecordError`` for an entity declaration or an unsupported encoding, and
    ///   errors of `source`.
    static func read(_ source: inout any ByteSource, prefix: [UInt8], chunkSize: Int) throws -> [UInt8] {
        guard libraryInitialized, let context = makeContext(name: source.name) else {
            throw PlistRecordError(source: source.name, problem: .xml(.malformed("libxml2 could not allocate a parser"), line: 0))
        }
        defer {
            // The default SAX2 handlers build a document as they go; the context does not own it.
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
        }
        let state = GuardState()
        context.pointee._private = Unmanaged.passUnretained(state).toOpaque()
        defer { context.pointee._private = nil }

        var consumed = prefix
        var chunk = prefix
        var buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
        while true {
            let isLast = chunk.isEmpty
            let status = withExtendedLifetime(state) {
                chunk.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        LibXML2ErrorScope.run { xmlParseChunk(context, chars.baseAddress, Int32(clamping: chars.count), isLast ? 1 : 0) }
                    }
                }
            }
            if state.entityLine > 0 {
                throw PlistRecordError(source: source.name, problem: .xml(.entityDeclaration, line: state.entityLine))
            }
            if state.rootReached {
                try checkEncoding(of: context, source: source.name)
                return consumed
            }
            if isLast || status != 0 || context.pointee.wellFormed == 0 { return consumed }
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            chunk = Array(buffer[..<count])
            consumed += chunk
        }
    }

    private static func makeContext(name: String) -> xmlParserCtxtPtr? {
        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        handler.entityDecl = { context, _, _, _, _, _ in GuardState.stop(context, atEntity: true) }
        handler.unparsedEntityDecl = { context, _, _, _, _ in GuardState.stop(context, atEntity: true) }
        handler.startElementNs = { context, _, _, _, _, _, _, _, _ in GuardState.stop(context, atEntity: false) }
        handler.serror = { _, _ in } // errors are reported by the reader that parses the bytes again
        guard let context = LibXML2ErrorScope.run({ xmlCreatePushParserCtxt(&handler, nil, nil, 0, name) }) else { return nil }
        _ = xmlCtxtUseOptions(context, XMLPlistStream.options)
        return context
    }

    /// The declared encoding (`encoding="..."`), when there is one, must be UTF-8 or UTF-16.
    private static func checkEncoding(of context: xmlParserCtxtPtr, source: String) throws {
        guard let declared = context.pointee.input?.pointee.encoding ?? context.pointee.encoding else { return }
        let name = String(cString: declared)
        guard supportedEncodings.contains(name.uppercased()) else {
            throw PlistRecordError(source: source, problem: .xml(.unsupportedEncoding(name), line: 1))
        }
    }
}

/// What the guard's SAX callbacks saw; reached through the parser context's `_private`.
private final class GuardState {
    /// The line of the first entity declaration, 0 when there was none.
    var entityLine = 0
    var rootReached = false

    /// Stops the parser at an entity declaration (recording its line) or at the root start tag.
    static func stop(_ context: UnsafeMutableRawPointer?, atEntity: Bool) {
        guard let context else { return }
        let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let raw = parser.pointee._private else { return }
        let state = Unmanaged<GuardState>.fromOpaque(raw).takeUnretainedValue()
        if atEntity {
            if state.entityLine == 0 { state.entityLine = max(1, Int(xmlSAX2GetLineNumber(context))) }
        } else {
            state.rootReached = true
        }
        xmlStopParser(parser)
    }
}
