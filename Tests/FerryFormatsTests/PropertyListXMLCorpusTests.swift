import Testing
@testable import FerryFormats

/// Conformance of the XML reader, and XML ≡ binary twins, against public corpora and Apple-made
/// Core Data files (skipped when `../shared/corpus` is absent).
@Suite(.enabled(if: PropertyListCorpus.isAvailable, "needs ../shared/corpus"))
struct PropertyListXMLCorpusTests {
    let xml = XMLPropertyListReader()
    let binary = BinaryPropertyListReader()

    func load(_ path: String) throws -> PropertyListValue {
        try PropertyList.decode(try PropertyListCorpus.bytes(path))
    }

    @Test func genericPropertiesAreTheSameInXMLAndBinary() throws {
        let fromXML = try xml.decode(try PropertyListCorpus.bytes(PropertyListCorpus.swiftFoundation + "/Generic_XML_Properties.plist"))
        let fromBinary = try binary.decode(try PropertyListCorpus.bytes(PropertyListCorpus.swiftFoundation + "/Generic_XML_Properties_Binary.plist"))
        #expect(fromXML == fromBinary)
        #expect(fromXML["item1"] == .string("value1"))
        #expect(fromXML["array1"] == .array([
            .string("arr0"), .integer(42), .bool(false), .date(-781_099_200),
            .data([0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33]),
        ]))
    }

    @Test(arguments: ["Test_5616259.bad", "Test_82142612.bad", "bad_plist.bad"])
    func swiftFoundationBadFilesFail(_ name: String) throws {
        let bytes = try PropertyListCorpus.bytes(PropertyListCorpus.swiftFoundation + "/" + name)
        #expect(throws: PropertyListError.self) { try PropertyList.decode(bytes) }
    }

    @Test func foobarEncodingIsReportedAsUnsupported() throws {
        let bytes = try PropertyListCorpus.bytes(PropertyListCorpus.swiftFoundation + "/Test_5616259.bad")
        #expect {
            try xml.decode(bytes)
        } throws: { error in
            guard case .xml(.unsupportedEncoding, _)? = error as? PropertyListError else { return false }
            return true
        }
    }

    @Test(arguments: ["xml_error.plist", "xml_entity_error.plist"])
    func rustBadXMLFails(_ name: String) throws {
        let bytes = try PropertyListCorpus.bytes(PropertyListCorpus.rust + "/" + name)
        #expect(throws: PropertyListError.self) { try xml.decode(bytes) }
    }

    /// `xml.plist` and `binary.plist` share eleven keys; each has two of its own.
    @Test func rustXMLMatchesBinary() throws {
        guard case .dictionary(let fromXML) = try load(PropertyListCorpus.rust + "/xml.plist"),
              case .dictionary(let fromBinary) = try load(PropertyListCorpus.rust + "/binary.plist") else {
            Issue.record("roots are not dictionaries"); return
        }
        let shared = Set(fromXML.keys).intersection(fromBinary.keys)
        #expect(shared.count == 11)
        for key in shared { #expect(fromXML[key] == fromBinary[key], "\(key)") }
        #expect(fromXML["BiggestNumber"] == .integer(Int128(UInt64.max)))
        #expect(fromXML["HexademicalNumber"] == .integer(0xDEADBEEF))
        #expect(fromXML["Pets"] == .string("A cat & a dog."))
        #expect(Set(fromBinary.keys).subtracting(shared) == ["EmptyArray", "EmptyDictionary"])
    }

    @Test func nodeInt64XMLMatchesBinary() throws {
        let fromXML = try load(PropertyListCorpus.node + "/int64.xml")
        #expect(fromXML == (try load(PropertyListCorpus.node + "/int64.bplist")))
        #expect(fromXML["int64item"] == .integer(12_345_678_901_234_567_890))
    }

    @Test func corelibsXMLPlistsDecode() throws {
        #expect(try load(PropertyListCorpus.corelibs + "/Test.plist") == .dictionary([
            "Foo": .string("Bar"), "emptyValue": .string(""),
            "Baz": .array([.string("hello"), .string("property"), .string("lists")]),
        ]))
        let archives = try PropertyListCorpus.files(in: PropertyListCorpus.corelibs, suffix: ".plist")
        #expect(archives.count == 13)
        for path in archives {
            let value = try load(path)
            guard path.contains("NSKeyedUnarchiver-") else { continue }
            #expect(value["$top"]?["root"].map { if case .uid = $0 { true } else { false } } == true, "\(path)")
        }
    }

    /// Pins our libxml2 behaviour on go-plist's parser-differential probes: s01–s04 and s11 are
    /// accepted (as plistlib does), the rest are rejected.
    @Test func goUnusualCases() throws {
        func load(_ name: String) throws -> PropertyListValue {
            try xml.decode(try PropertyListCorpus.bytes(PropertyListCorpus.goXML + "/" + name))
        }
        #expect(try load("s01.plist") == .dictionary(["copyright": .string("©")]))
        #expect(try load("s02.plist") == .dictionary(["name": .string("value")]))
        #expect(try load("s03.plist") == .dictionary(["": .string("value")]))
        #expect(try load("s04.plist") == .dictionary(["": .string("value")]))
        #expect(try load("s11.plist") == .dictionary(["test": .string("libplist")]))
        for name in ["s05.plist", "s06.plist", "s07.plist", "s08.plist", "s09.plist", "s10.plist"] {
            #expect(throws: PropertyListError.self, "\(name)") { try load(name) }
        }
    }

    /// Every `VersionInfo.plist` that momc wrote (binary) holds the model's version hashes.
    @Test func coreDataVersionInfoPlists() throws {
        let paths = PropertyListCorpus.files(named: "VersionInfo.plist", under: PropertyListCorpus.root + "/coredata")
        #expect(paths.count >= 3)
        for path in paths {
            let value = try load(path)
            guard case .dictionary(let hashes)? = value["NSManagedObjectModel_VersionHashes"] else {
                Issue.record("no NSManagedObjectModel_VersionHashes in \(path)"); continue
            }
            #expect(!hashes.isEmpty, "\(path)")
            // What we read, we can write back byte-for-byte equivalent in value.
            #expect(try binary.decode(try BinaryPropertyListWriter().encode(value)) == value, "\(path)")
            #expect(try xml.decode(try XMLPropertyListWriter().encode(value)) == value, "\(path)")
        }
    }
}
