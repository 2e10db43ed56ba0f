import Testing
@testable import FerryFormats

/// Hostile XML: entity declarations are refused, with their line, before anything is expanded
/// and before any record is yielded.
struct StreamingPlistHostileTests {
    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE plist [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
          <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
          <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
          <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
          <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
          <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <plist><array><string>&lol9;</string></array></plist>
        """

    static let externalEntity = """
        <?xml version="1.0"?>
        <!DOCTYPE plist [
        <!ENTITY secret SYSTEM "file:///etc/passwd">
        ]>
        <plist><array><dict><key>k</key><string>&secret;</string></dict></array></plist>
        """

    static let externalParameterEntity = """
        <!DOCTYPE plist [<!ENTITY % remote SYSTEM "http://127.0.0.1:1/evil.dtd"> %remote;]>
        <plist><array/></plist>
        """

    static let unparsedEntity = """
        <!DOCTYPE plist [
        <!NOTATION png SYSTEM "image/png">

        <!ENTITY picture SYSTEM "picture.png" NDATA png>
        ]>
        <plist><array/></plist>
        """

    @Test(arguments: [(billionLaughs, 3), (externalEntity, 3), (externalParameterEntity, 1), (unparsedEntity, 4)])
    func entityDeclarationsAreRefusedWithTheirLine(_ text: String, line: Int) {
        let outcome = StreamingPlistOutcome(text)
        #expect(outcome.records.isEmpty)
        #expect(outcome.plistError == PlistRecordError(source: "<memory>", problem: .xml(.entityDeclaration, line: line)))
        // The tree reader refuses them the same way.
        #expect(throws: PropertyListError.xml(.entityDeclaration, line: line)) { try XMLPropertyListReader().decode(Array(text.utf8)) }
    }

    /// The declaration comes after a prolog longer than several reads: the guard keeps reading.
    @Test func declarationsAfterALongPrologAreRefused() {
        let comment = "<!--" + String(repeating: "padding ", count: 4096) + "-->\n"
        let text = "<?xml version=\"1.0\"?>\n" + comment + "<!DOCTYPE plist [\n<!ENTITY a \"b\">\n]>\n<plist><array><string>&a;</string></array></plist>"
        let outcome = StreamingPlistOutcome(text, bufferSize: 512)
        #expect(outcome.records.isEmpty)
        #expect(outcome.plistError?.problem == .xml(.entityDeclaration, line: 4))
    }

    @Test func undeclaredEntityReferencesAreRefused() {
        // Without a DTD, an undeclared entity is a well-formedness error (libxml2's message).
        let bare = StreamingPlistOutcome("<plist><array>\n<string>ok</string>\n<string>&nope;</string></array></plist>")
        guard case .xml(.malformed(let message), let line)? = bare.plistError?.problem else {
            Issue.record("expected a malformed-XML error, got \(String(describing: bare.error))"); return
        }
        #expect(message.contains("nope"))
        #expect(line == 3)
    }

    @Test func aDoctypeWithoutEntitiesIsAccepted() {
        let outcome = StreamingPlistOutcome("""
            <!DOCTYPE plist [
            <!ELEMENT plist ANY>
            <!ATTLIST plist version CDATA "1.0">
            ]>
            <plist><array><string>a &amp; b &#169;</string></array></plist>
            """)
        #expect(outcome.error == nil)
        #expect(outcome.values == [.string("a & b ©")])
    }
}
