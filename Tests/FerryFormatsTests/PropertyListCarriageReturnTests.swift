import Testing
@testable import FerryFormats

/// Carriage returns in the text of XML property lists. Apple's writer escapes only `&`, `<` and
/// `>`, so a CR in a `<string>` or `<key>` is written raw, and Apple's reader keeps it; libxml2
/// alone reads CRLF and a lone CR as LF (XML's line-end normalisation), which stored "line1\nline2"
/// for "line1\r\nline2" without a word. Both readers keep every CR now; CRs of line ends between
/// elements are still whitespace, and line numbers are still libxml2's (it counts LF bytes).
@Suite("XML property lists: carriage returns in text are kept")
struct PropertyListCarriageReturnTests {
    /// Two records on CRLF lines, with CRs in strings, a key, a CDATA section, markup and
    /// references (as Ferry's export writes them). The `<dict>`s start on lines 5 and 18.
    static func document(encoding: String = "UTF-8") -> String {
        """
        <?xml version="1.0" encoding="\(encoding)"?>\r
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\r
        <plist version="1.0">\r
        <array>\r
        \t<dict>\r
        \t\t<key>crlf</key>\r
        \t\t<string>line1\r
        line2</string>\r
        \t\t<key>cr</key>\r
        \t\t<string>old\rmac</string>\r
        \t\t<key>only</key>\r
        \t\t<string>\r
        </string>\r
        \t\t<key>key\rwith\r
        breaks</key>\r
        \t\t<true/>\r
        \t</dict>\r
        \t<dict>\r
        \t\t<key>cdata</key>\r
        \t\t<string><![CDATA[<a>\r
        ]]\r]]></string>\r
        \t\t<key>referenced</key>\r
        \t\t<string>x&#13;&#10;y&#13;</string>\r
        \t\t<key>marked up</key>\r
        \t\t<string note="1 > 0\r">p<!-- \r
         --><?pi \r?>\rq</string>\r
        \t</dict>\r
        </array>\r
        </plist>\r

        """
    }

    static let records: [PropertyListValue] = [
        .dictionary(["crlf": .string("line1\r\nline2"), "cr": .string("old\rmac"), "only": .string("\r\n"), "key\rwith\r\nbreaks": .bool(true)]),
        .dictionary(["cdata": .string("<a>\r\n]]\r"), "referenced": .string("x\r\ny\r"), "marked up": .string("p\rq")]),
    ]

    /// The document in UTF-16, with or without a byte order mark.
    static func utf16(bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
        var bytes: [UInt8] = byteOrderMark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in document(encoding: "UTF-16").utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        return bytes
    }

    @Test("the tree reader keeps raw CRs in strings, keys and CDATA, and CR references; CRLF between elements is whitespace")
    func treeReaderKeepsThem() throws {
        #expect(try XMLPropertyListReader().decode(Array(Self.document().utf8)) == .array(Self.records))
    }

    @Test("the streaming reader keeps them however the input is cut (a CR, a '<', a CDATA delimiter split between reads)",
          arguments: [1, 2, 3, 5, 8, 13, 4096])
    func streamingReaderKeepsThem(step: Int) throws {
        let source = SampledByteSourceTests.TrickleSource(bytes: Array(Self.document().utf8), step: step)
        let outcome = StreamingPlistOutcome(source, bufferSize: 8)
        #expect(outcome.error == nil)
        #expect(outcome.values == Self.records)
        #expect(outcome.records.map(\.location.line) == [5, 18])
    }

    @Test("UTF-16 documents keep them, with or without a byte order mark, also with a unit split between reads",
          arguments: [(false, true), (true, true), (true, false), (false, false)])
    func utf16DocumentsKeepThem(bigEndian: Bool, byteOrderMark: Bool) throws {
        let bytes = Self.utf16(bigEndian: bigEndian, byteOrderMark: byteOrderMark)
        #expect(try XMLPropertyListReader().decode(bytes) == .array(Self.records))
        for step in [3, 4096] {
            let outcome = StreamingPlistOutcome(SampledByteSourceTests.TrickleSource(bytes: bytes, step: step), bufferSize: 8)
            #expect(outcome.error == nil)
            #expect(outcome.values == Self.records)
            #expect(outcome.records.map(\.location.line) == [5, 18])
        }
    }

    @Test("a file with classic Mac line ends (lone CRs) reads as before, its strings' CRs kept")
    func loneCarriageReturnLineEnds() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r<plist version=\"1.0\">\r<array>\r\t<string>a\rb</string>\r\t<integer>1</integer>\r</array>\r</plist>\r"
        #expect(try XMLPropertyListReader().decode(Array(text.utf8)) == .array([.string("a\rb"), .integer(1)]))
        let outcome = StreamingPlistOutcome(text)
        #expect(outcome.error == nil)
        #expect(outcome.values == [.string("a\rb"), .integer(1)])
    }

    @Test("errors after text with CRs name the line libxml2 counts (a line per LF), in both readers")
    func linesAreLibxml2s() {
        let text = "<plist>\r\n<array>\r\n<string>a\r\nb\rc</string>\r\n<integer>x</integer>\r\n</array>\r\n</plist>\r\n"
        #expect(throws: PropertyListError.xml(.invalidInteger("x"), line: 5)) { try XMLPropertyListReader().decode(Array(text.utf8)) }
        let outcome = StreamingPlistOutcome(text)
        #expect(outcome.values == [.string("a\r\nb\rc")])
        #expect(outcome.plistError == PlistRecordError(source: "<memory>", problem: .xml(.invalidInteger("x"), line: 5)))
    }

    @Test("what Ferry's writer exports (a CR as &#13;) reads back the same")
    func writtenDocumentsRoundTrip() throws {
        let written = try XMLPropertyListWriter().encode(.array(Self.records))
        #expect(try XMLPropertyListReader().decode(written) == .array(Self.records))
        #expect(StreamingPlistOutcome(MemoryByteSource(written)).values == Self.records)
    }
}
