import Testing
@testable import FerryFormats

/// The rewriting that keeps CRs of an XML property list's text through libxml2: which CRs it
/// escapes, and that a stream cut anywhere is escaped as the whole document is.
struct XMLCarriageReturnEscaperTests {
    static func escaped(_ text: String) -> String {
        String(decoding: XMLCarriageReturnEscaper.escaping(Array(text.utf8)), as: UTF8.self)
    }

    /// `text` as UTF-16 code units in bytes.
    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        text.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// Markup of every kind holding CRs, `>` and `<` where they do not end or start it.
    static let document = """
        <?xml version="1.0"?>\r
        <!DOCTYPE plist [\r
        <!ELEMENT a (#PCDATA)>\r
        <!-- an apostrophe ' and '<b>\r' -->\r
        <!ATTLIST a b CDATA "x>\r]">\r
        <?pi in the subset ]> \r?>\r
        ]>\r
        <a b="1\r>" c='/'>x\r
        <!--\r- >\r-->\r<?p \r>?><![CDATA[\r]]]>\r<e/>\r<e f="/>"/>\r</a>\r
        <!-- after the root -->\r

        """

    @Test("only CRs of the root element's text and CDATA are escaped; the prolog, markup and what follows the root keep theirs")
    func escapesTextOnly() {
        #expect(Self.escaped(Self.document) == """
            <?xml version="1.0"?>\r
            <!DOCTYPE plist [\r
            <!ELEMENT a (#PCDATA)>\r
            <!-- an apostrophe ' and '<b>\r' -->\r
            <!ATTLIST a b CDATA "x>\r]">\r
            <?pi in the subset ]> \r?>\r
            ]>\r
            <a b="1\r>" c='/'>x&#13;
            <!--\r- >\r-->&#13;<?p \r>?><![CDATA[]]>&#13;<![CDATA[]]]>&#13;<e/>&#13;<e f="/>"/>&#13;</a>\r
            <!-- after the root -->\r

            """)
        // libxml2 takes the escaped document (the reader's complaint is only that <a> is no plist element), on the same line.
        #expect(throws: PropertyListError.xml(.unexpectedElement("a"), line: 8)) { try XMLPropertyListReader().decode(Array(Self.document.utf8)) }
    }

    @Test("a document without CRs is returned as it is")
    func documentWithoutCarriageReturns() {
        let bytes = Array("<plist><string>a\nb</string></plist>".utf8)
        #expect(XMLCarriageReturnEscaper.escaping(bytes) == bytes)
    }

    @Test("escaping a stream in chunks of any size gives the whole document's escaping, UTF-8 and UTF-16", arguments: [1, 2, 3, 4, 5, 7, 16])
    func chunksGiveTheWholeEscaping(size: Int) {
        let inputs = [Array(Self.document.utf8), [0xFE, 0xFF] + Self.utf16(Self.document, bigEndian: true),
                      [0xFF, 0xFE] + Self.utf16(Self.document, bigEndian: false), Self.utf16(Self.document, bigEndian: true)]
        for input in inputs {
            var escaper = XMLCarriageReturnEscaper()
            var output: [UInt8] = []
            for start in stride(from: 0, to: input.count, by: size) {
                input[start..<min(start + size, input.count)].withUnsafeBytes { escaper.escape($0, into: &output) }
            }
            escaper.finish(into: &output)
            #expect(output == XMLCarriageReturnEscaper.escaping(input))
        }
    }

    @Test("UTF-16 is escaped in its own units, in either byte order, with or without a byte order mark")
    func utf16Units() {
        let expected = Self.escaped(Self.document)
        for bigEndian in [true, false] {
            let mark: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
            #expect(XMLCarriageReturnEscaper.escaping(mark + Self.utf16(Self.document, bigEndian: bigEndian))
                        == mark + Self.utf16(expected, bigEndian: bigEndian))
            #expect(XMLCarriageReturnEscaper.escaping(Self.utf16(Self.document, bigEndian: bigEndian)) == Self.utf16(expected, bigEndian: bigEndian))
        }
    }

    @Test("input that starts like UCS-4 passes unchanged")
    func otherEncodingsPassUnchanged() {
        let ucs4 = "<a>\r</a>".unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value)] as [UInt8] }
        #expect(XMLCarriageReturnEscaper.escaping(ucs4) == ucs4)
    }
}
