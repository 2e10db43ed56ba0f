import CLibXML2

/// Streams the value of an XML property list through libxml2's pull reader (`xmlReaderForIO`),
/// one element of the root array at a time.
///
/// Reader options: no network, no DTD loading or validation, no entity substitution, CDATA as
/// text, line numbers past 65,535 (`XML_PARSE_BIG_LINES`); libxml2's default size limits (no
/// `XML_PARSE_HUGE`). Entity declarations never get here (``XMLPrologGuard`` refused them).
/// Each element is expanded into a libxml2 subtree, decoded, then skipped; the reader frees the
/// siblings it has passed, so memory follows the largest element.
final class XMLPlistStream {
    static let options = Int32(bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
        | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_BIG_LINES.rawValue)

    /// What the root value turned out to be.
    enum Root {
        /// An `<array>` whose elements follow through ``nextArrayElement()``.
        case array
        /// Any other value: the one record.
        case single(PropertyListValue, line: Int, repeatedKeys: RepeatedPropertyListKeys)
    }

    let sourceName: String
    private let maxDepth: Int
    private let feed: XMLInputFeed
    private let reader: xmlTextReaderPtr
    /// The line of `<plist>`, when the value is wrapped in one.
    private var plistLine: Int?
    /// Whether the reader is on an element already decoded, to be skipped rather than entered.
    private var onDecodedElement = false
    /// Whether the root array's end tag has been passed.
    private var arrayEnded = false

    /// - Parameter replay: bytes already taken from `source`, parsed first.
    init(source: any ByteSource, replaying replay: [UInt8], maxDepth: Int) throws(PlistRecordError) {
        sourceName = source.name
        self.maxDepth = maxDepth
        feed = XMLInputFeed(source: source, replaying: replay)
        let (options, name, feed) = (Self.options, sourceName, feed)
        guard let reader = Self.recordingErrors(into: feed, { xmlReaderForIO(xmlInputFeedRead, nil, feed.pointer, name, nil, options) }) else {
            throw PlistRecordError(source: source.name, problem: .xml(.malformed("libxml2 could not allocate a reader"), line: 0))
        }
        self.reader = reader
        xmlTextReaderSetStructuredErrorHandler(reader, xmlInputFeedRecordError, feed.pointer)
    }

    deinit { xmlFreeTextReader(reader) }

    /// Finds the root value: the element inside `<plist>`, or the root element itself.
    func openRoot() throws -> Root {
        guard try nextElement(in: nil) else { throw failure(.invalidRoot, line: 0) }
        if localName == "plist" {
            let line = currentLine
            plistLine = line
            guard !isEmptyElement, try nextElement(in: "<plist>") else { throw failure(.invalidRoot, line: line) }
        }
        guard localName == "array" else {
            let (value, repeated) = try decodeCurrentElement(depth: 0)
            return .single(value, line: currentLine, repeatedKeys: repeated)
        }
        guard maxDepth > 0 else { throw failure(.nestingTooDeep(limit: maxDepth), line: currentLine) }
        if isEmptyElement {
            onDecodedElement = true
            arrayEnded = true
        }
        return .array
    }

    /// The next element of the root array with its line and the keys its dictionaries held more
    /// than once, or nil after the last.
    func nextArrayElement() throws -> (value: PropertyListValue, line: Int, repeatedKeys: RepeatedPropertyListKeys)? {
        guard !arrayEnded else { return nil }
        guard try nextElement(in: "<array>") else {
            arrayEnded = true
            return nil
        }
        let (value, repeated) = try decodeCurrentElement(depth: 1)
        return (value, currentLine, repeated)
    }

    /// After the root value: nothing but whitespace, comments and processing instructions may
    /// follow, up to the end of the document.
    func finish() throws {
        if let plistLine, try nextElement(in: "<plist>") { throw failure(.invalidRoot, line: plistLine) }
        while try advance() {}
    }

    // MARK: navigation

    /// Advances to the next element in the current element's content (`container` names it for
    /// messages; nil for the document level). Returns false at the container's end tag.
    /// Whitespace, comments and processing instructions are passed over; other text and entity
    /// references are errors.
    private func nextElement(in container: String?) throws -> Bool {
        while try advance() {
            switch UInt32(bitPattern: xmlTextReaderNodeType(reader)) {
            case XML_READER_TYPE_ELEMENT.rawValue:
                return true
            case XML_READER_TYPE_END_ELEMENT.rawValue:
                return false
            case XML_READER_TYPE_TEXT.rawValue, XML_READER_TYPE_CDATA.rawValue:
                throw failure(.unexpectedText, line: currentLine)
            case XML_READER_TYPE_ENTITY_REFERENCE.rawValue:
                throw failure(.unresolvedEntity(localName), line: currentLine)
            default:
                continue
            }
        }
        guard let container else { return false }
        throw failure(.malformed("the document ends inside \(container)"), line: 0)
    }

    /// Moves to the next node in document order, over the subtree of a decoded element.
    /// Returns false at the end of the document.
    private func advance() throws -> Bool {
        let status = Self.recordingErrors(into: feed) { onDecodedElement ? xmlTextReaderNext(reader) : xmlTextReaderRead(reader) }
        onDecodedElement = false
        if status < 0 { try throwReaderFailure() }
        return status == 1
    }

    /// Runs libxml2 with the feed's recorder as the thread's structured error handler as well as
    /// the reader's: errors raised outside the reader (converting the input's encoding) otherwise
    /// go to libxml2's generic handler, which prints them on standard error.
    private static func recordingErrors<T>(into feed: XMLInputFeed, _ body: () -> T) -> T {
        LibXML2ErrorScope.run(context: feed.pointer, handler: xmlInputFeedRecordError, body)
    }

    /// Throws why libxml2 stopped: the source's error, else libxml2's first error.
    private func throwReaderFailure() throws -> Never {
        if let error = feed.sourceError { throw error }
        throw PlistRecordError(source: sourceName, problem: feed.firstError ?? .xml(.malformed("libxml2 reader failed"), line: 0))
    }

    private func decodeCurrentElement(depth: Int) throws -> (PropertyListValue, RepeatedPropertyListKeys) {
        guard let element = Self.recordingErrors(into: feed, { xmlTextReaderExpand(reader) }) else { try throwReaderFailure() }
        onDecodedElement = true
        do {
            // The tree reader's element rules, applied to the subtree libxml2 expanded in place.
            var repeated = RepeatedPropertyListKeys()
            let value = try XMLPropertyListReader(maxDepth: maxDepth).value(of: element, depth: depth, repeated: &repeated)
            return (value, repeated)
        } catch {
            throw PlistRecordError(source: sourceName, problem: error)
        }
    }

    // MARK: current node

    private var localName: String {
        xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
    }

    private var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }

    /// The 1-based line of the current node (with `XML_PARSE_BIG_LINES`, also past 65,535).
    private var currentLine: Int {
        xmlTextReaderCurrentNode(reader).map(XMLElementLine.of) ?? 0
    }

    private func failure(_ problem: XMLPropertyListProblem, line: Int) -> PlistRecordError {
        PlistRecordError(source: sourceName, problem: .xml(problem, line: line))
    }
}
