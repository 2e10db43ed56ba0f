import FerryFormats
import FerryModel
import FerryTestSupport
import FoundationEssentials
import Testing

@Suite("hostile XML")
struct HostileXMLTests {
    private func parse(_ xml: String) throws(XMLDocumentError) -> XMLElementTree {
        try SafeXMLParser.parse(Array(xml.utf8), source: "hostile.xml")
    }

    @Test("an external entity is refused before anything is read")
    func externalEntity() throws {
        let secret = try TestPaths.temporaryFolder("xxe") + "/secret.txt"
        try Data("TOP SECRET".utf8).write(to: URL(fileURLWithPath: secret))
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE model [
              <!ENTITY xxe SYSTEM "file://\(secret)">
            ]>
            <model><entity name="&xxe;"/></model>
            """
        #expect(throws: XMLDocumentError.entityDeclaration(source: "hostile.xml", line: 3)) { try parse(xml) }
    }

    @Test("a network entity is refused")
    func networkEntity() {
        let xml = #"<?xml version="1.0"?><!DOCTYPE m [<!ENTITY net SYSTEM "http://127.0.0.1:9/x">]><m>&net;</m>"#
        #expect(throws: XMLDocumentError.self) { try parse(xml) }
    }

    @Test("billion laughs is refused without expansion")
    func billionLaughs() {
        var declarations = #"<!ENTITY lol0 "lol">"#
        for level in 1...9 {
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\(declarations)]>\n<lolz a=\"&lol9;\">&lol9;</lolz>"
        #expect(throws: XMLDocumentError.entityDeclaration(source: "hostile.xml", line: 2)) { try parse(xml) }
    }

    @Test("parameter entities are refused")
    func parameterEntity() {
        let xml = #"<?xml version="1.0"?><!DOCTYPE m [<!ENTITY % p "<!ENTITY x 'y'>"> %p;]><m/>"#
        #expect(throws: XMLDocumentError.self) { try parse(xml) }
    }

    @Test("a hostile model file fails to load with the XML error")
    func hostileModelFile() throws {
        let folder = try TestPaths.temporaryFolder("model") + "/Evil.xcdatamodel"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"<?xml version="1.0"?><!DOCTYPE model [<!ENTITY e "x">]><model/>"#.utf8).write(to: URL(fileURLWithPath: folder + "/contents"))
        let error = try #require(throws: ModelLoadError.self) { try XcodeModelLoader.loadModel(at: folder) }
        #expect(error.description.contains("entity declarations are not allowed"))
    }

    @Test("a plain DOCTYPE without entities, predefined entities and character references are fine")
    func harmlessDocuments() throws {
        let root = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist a="x &amp; y"><string>&lt;&#x4E2D;&#25991;&gt;</string></plist>
            """)
        #expect(root[attribute: "a"] == "x & y")
        #expect(root.children.first?.text == "<中文>")
        #expect(root.children.first?.line == 3)
    }

    @Test("empty, truncated and wrongly encoded documents are malformed")
    func malformed() {
        #expect(throws: XMLDocumentError.empty(source: "hostile.xml")) { try parse("") }
        #expect(throws: XMLDocumentError.self) { try parse("<model><entity>") }
        #expect(throws: XMLDocumentError.self) { try parse(#"<?xml version="1.0" encoding="foobar"?><a/>"#) }
        #expect(throws: XMLDocumentError.self) { try SafeXMLParser.parse([0x3C, 0x61, 0x3E, 0xFF, 0xFE, 0x3C, 0x2F, 0x61, 0x3E], source: "x") }
    }
}
