import FerryTestSupport
import Testing
@testable import FerryFormats

/// The streaming reader against the public corpus's odd and broken XML plists: it must reach the
/// same verdict as ``XMLPropertyListReader`` (skipped when `../shared/corpus` is absent).
@Suite(.enabled(if: PropertyListCorpus.isAvailable, "needs ../shared/corpus"))
struct StreamingPlistCorpusTests {
    /// go-plist's unusual cases (all have a `<dict>` root) and rust-plist's broken files.
    static let files: [String] = {
        let go = (try? PropertyListCorpus.files(in: PropertyListCorpus.goXML, suffix: ".plist")) ?? []
        return go + ["xml_error.plist", "xml_entity_error.plist"].map { PropertyListCorpus.rust + "/" + $0 }
    }()

    @Test func everyCaseIsPresent() {
        #expect(Self.files.count == 13)
    }

    /// Files where the stream reports the same problem and line in other words.
    static let differentMessage: [String: String] = [
        // `<key>test<!test></key>`: libxml2's push parser (under the pull reader) says "internal
        // error: detected an error in element content", its memory parser (under the tree
        // reader) "StartTag: invalid element name". Both: malformed, line 3.
        "s05.plist": "malformed, same line",
    ]

    /// Accepted by both with equal values, or refused by both. The problem reported can differ:
    /// the tree reader parses the whole document before decoding, the stream stops at the first
    /// problem in document order. Where they differ today, it is written down here.
    @Test(arguments: files)
    func verdictMatchesTheTreeReader(_ path: String) throws {
        let bytes = try PropertyListCorpus.bytes(path)
        let tree = Result { () throws(PropertyListError) in try XMLPropertyListReader().decode(bytes) }
        let stream = StreamingPlistOutcome(MemoryByteSource(bytes, name: path))
        switch tree {
        case .success(let value):
            #expect(stream.error == nil, "\(path): \(String(describing: stream.error))")
            #expect(stream.values == [value], "\(path)")
        case .failure(let treeError):
            let streamError = try #require(stream.plistError, "\(path): the stream accepted what the tree reader refused")
            #expect(streamError.source == path)
            if Self.differentMessage[String(path.split(separator: "/").last ?? "")] != nil {
                #expect(Self.withoutMessage(streamError.problem) == Self.withoutMessage(treeError), "\(path)")
            } else {
                #expect(streamError.problem == treeError, "\(path)")
            }
        }
    }

    private static func withoutMessage(_ error: PropertyListError) -> PropertyListError {
        guard case .xml(.malformed, let line) = error else { return error }
        return .xml(.malformed(""), line: line)
    }
}
