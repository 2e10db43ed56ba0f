import CLibXML2

/// Decodes one element that libxml2's reader has expanded into a subtree, by the rules of
/// ``XMLPropertyListReader``.
///
/// The tree reader's node decoder (`XMLPropertyListReader.value(of:depth:)`) is `private`, so
/// the subtree is serialized (`xmlNodeDump`, no formatting added) and decoded again by
/// `XMLPropertyListReader.decode`. That keeps one set of element rules; made `internal`, the
/// private decoder would replace the round trip. Lines of problems are moved from the fragment
/// to the document (`fragment line + element line - 1`), exact unless a start tag or attribute
/// inside the element spans lines.
final class ExpandedElementDecoder {
    private let buffer: xmlBufferPtr

    init?() {
        guard let buffer = xmlBufferCreate() else { return nil }
        self.buffer = buffer
    }

    deinit { xmlBufferFree(buffer) }

    /// - Parameters:
    ///   - line: the line of `element` in the document.
    ///   - maxDepth: the reader's container limit; `depth` is the element's nesting in the document.
    func decode(_ element: xmlNodePtr, in document: xmlDocPtr?, line: Int, depth: Int, maxDepth: Int) throws(PropertyListError) -> PropertyListValue {
        xmlBufferEmpty(buffer)
        guard xmlNodeDump(buffer, document, element, 0, 0) >= 0, let content = xmlBufferContent(buffer) else {
            throw .xml(.malformed("libxml2 could not serialize the element"), line: line)
        }
        let bytes = [UInt8](UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
        do {
            return try XMLPropertyListReader(maxDepth: max(0, maxDepth - depth)).decode(bytes)
        } catch {
            switch error {
            case .xml(.nestingTooDeep, let fragmentLine):
                throw .xml(.nestingTooDeep(limit: maxDepth), line: fragmentLine + line - 1)
            case .xml(let problem, let fragmentLine):
                throw .xml(problem, line: fragmentLine > 0 ? fragmentLine + line - 1 : line)
            default:
                throw error
            }
        }
    }
}
