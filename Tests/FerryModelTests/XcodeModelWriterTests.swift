import FerryFormats
import FerryModel
import FerryTestSupport
import FoundationEssentials
import Testing

@Suite("Xcode model writer")
struct XcodeModelWriterTests {
    private static let corpusContents: [String] = TestPaths.files(under: TestPaths.corpus + "/coredata") {
        $0.hasSuffix(".xcdatamodel/contents")
    }

    /// Writes `model` as an `.xcdatamodel` folder and loads it back.
    private func reloaded(_ model: ManagedObjectModel) throws -> ManagedObjectModel {
        let xml = String(decoding: try XcodeModelWriter.contents(of: model), as: UTF8.self)
        return try XcodeModelLoader.loadModel(at: try TestPaths.xcodeModelFolder(xml, name: model.name))
    }

    @Test("every XML model in the corpus: load → write → load gives an equal model with equal hashes",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func corpusRoundTrip() throws {
        #expect(Self.corpusContents.count >= 26)
        for file in Self.corpusContents {
            let model = try XcodeModelLoader.loadModel(at: file)
            let again = try reloaded(model)
            #expect(again == model, "\(file)")
            #expect(VersionHasher.hashes(of: again) == VersionHasher.hashes(of: model), "\(file)")
            #expect(XcodeModelWriter.unwrittenParts(of: model).isEmpty, "\(file)")
            #expect(try XcodeModelWriter.contents(of: again) == XcodeModelWriter.contents(of: model), "\(file): written twice alike")
        }
    }

    /// Files of Xcode 9 and later (`<model type=…` first; older Xcode wrote the version identifier
    /// first, and `macOSVersion`/`iOSVersion`) without legacy `<compoundIndexes>`, which the model
    /// holds as fetch indexes and the writer writes as such.
    @Test("corpus files of current Xcode are written byte for byte as Xcode wrote them, but for what a model does not hold",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func xcodeSpelling() throws {
        var compared = 0
        for file in Self.corpusContents {
            let original = String(decoding: try TestPaths.read(file), as: UTF8.self)
            guard original.contains("<model type="), !original.contains("<compoundIndexes>") else { continue }
            let written = String(decoding: try XcodeModelWriter.contents(of: XcodeModelLoader.loadModel(at: file)), as: UTF8.self)
            var expected = Self.withoutToolSettings(original)
            // The model holds a default as Core Data compiles it: `YES` on an Integer 32 is 0 (apptentive's pendingState).
            expected = expected.replacing(#"attributeType="Integer 32" defaultValueString="YES""#, with: #"attributeType="Integer 32" defaultValueString="0""#)
            #expect(written == expected, "\(file)")
            compared += 1
        }
        #expect(compared >= 20)
    }

    /// A model file without what says which Xcode saved it and how it generates code and lays out
    /// the diagram: a model holds none of it.
    private static func withoutToolSettings(_ text: String) -> String {
        var text = text.replacing(#/ (lastSavedToolsVersion|systemVersion|codeGenerationType)="[^"]*"/#, with: "")
        text = text.replacing(#/(<(attribute|relationship) [^>]*) syncable="YES"/#) { String($0.1) }
        text = text.replacing(#/\n *<elements>(.|\n)*</elements>/#, with: "")
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }

    /// A model with every feature the XML can spell, in values that need escaping, its properties
    /// in the order Xcode writes them.
    private static let everyFeature = ManagedObjectModel(name: "All", versionIdentifier: "7 <\"&'>", entities: [
        Entity(name: "Base", representedClassName: "App.Base", isAbstract: true, renamingIdentifier: "OldBase", versionHashModifier: "v2", attributes: [
            Attribute(name: "blob", type: .binary, allowsExternalBinaryDataStorage: true, preserveAfterDeletion: true),
            Attribute(name: "count", type: .integer32, isOptional: false, defaultValueString: "-3", minValueString: "0", maxValueString: "10",
                      usesScalarValueType: true),
            Attribute(name: "flag", type: .boolean, defaultValueString: "YES", isIndexedBySpotlight: true),
            Attribute(name: "id", type: .uuid, isOptional: false, defaultValueString: "0F0E0D0C-0B0A-0908-0706-050403020100",
                      usesScalarValueType: false, isIndexed: true, userInfo: ["k": "line\nbreak\ttab\rreturn", "a": "\"quoted\" & <tagged>"]),
            Attribute(name: "scratch", type: .string, isTransient: true, renamingIdentifier: "tmp", versionHashModifier: "x"),
            Attribute(name: "thing", type: .transformable, valueTransformerName: "NSSecureUnarchiveFromData", customClassName: "[String]"),
            Attribute(name: "total", type: .integer64, isOptional: true, isReadOnly: true, isDerived: true, derivationExpression: "count:(children)"),
            Attribute(name: "when", type: .date, defaultDateTimeInterval: 362848762.79173, minValueString: "0", maxValueString: "978307200.5"),
        ], relationships: [
            Relationship(name: "children", destinationEntity: "Child", inverseName: "parent", inverseEntity: "Child",
                         isToMany: true, minCount: 1, maxCount: 10000, isOrdered: true, deleteRule: .cascade, isIndexedBySpotlight: true,
                         renamingIdentifier: "kids", versionHashModifier: "r", userInfo: ["r": "s"]),
            Relationship(name: "Owner", destinationEntity: "Child", isOptional: false, isTransient: true, deleteRule: .noAction),
            Relationship(name: "peers", destinationEntity: "Base", inverseName: "peers", inverseEntity: "Base", isToMany: true, deleteRule: .deny),
        ], fetchedProperties: [
            FetchedProperty(name: "recent", fetchEntity: "Child", predicateString: "name BEGINSWITH[cd] \"a\" AND rank >= 2.5", userInfo: ["a": "b"]),
        ], uniquenessConstraints: [["id"], ["count", "flag"]],
        fetchIndexes: [FetchIndex(name: "byCount", elements: [FetchIndex.Element(property: "count", isAscending: false)]),
                       FetchIndex(name: "where", elements: [FetchIndex.Element(property: "count", kind: .rTree)])],
        userInfo: ["entity": "info"]),
        Entity(name: "Child", relationships: [
            Relationship(name: "parent", destinationEntity: "Base", inverseName: "children", inverseEntity: "Base"),
        ]),
        Entity(name: "leaf", parentName: "Base", attributes: [Attribute(name: "extra", type: .float, defaultValueString: "0.5")]),
    ], configurations: [Configuration(name: "Cloud", entityNames: ["Base", "leaf"]), Configuration(name: "Empty", entityNames: [])],
       fetchRequests: [FetchRequestTemplate(name: "all", entity: "Child", predicateString: "name == nil")],
       userInfo: ["model": "info"],
       xcodeSettings: XcodeModelSettings(minimumToolsVersion: "Automatic", sourceLanguage: "Swift", usedWithCloudKit: true, usedWithSwiftData: true))

    @Test("every feature the XML spells reads back equal, escaped values included")
    func everyFeatureRoundTrip() throws {
        let model = Self.everyFeature
        let again = try reloaded(model)
        #expect(again == model)
        #expect(VersionHasher.hashes(of: again) == VersionHasher.hashes(of: model))
        #expect(XcodeModelWriter.unwrittenParts(of: model).isEmpty)
    }

    @Test("the spelling of each element: attribute order, key-path derivations, date intervals, escapes")
    func spelling() throws {
        let xml = String(decoding: try XcodeModelWriter.contents(of: Self.everyFeature), as: UTF8.self)
        let lines = xml.split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }
        #expect(lines.first == #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#)
        #expect(lines.contains(#"<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift" usedWithCloudKit="YES" usedWithSwiftData="YES" userDefinedModelVersionIdentifier="7 &lt;&quot;&amp;'&gt;">"#))
        #expect(lines.contains(#"<entity name="Base" representedClassName="App.Base" isAbstract="YES" versionHashModifier="v2" elementID="OldBase" syncable="YES">"#))
        #expect(lines.contains(#"<attribute name="total" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="children.@count"/>"#))
        #expect(lines.contains(#"<attribute name="when" optional="YES" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="978307200.5" defaultDateTimeInterval="362848762.79173"/>"#))
        #expect(lines.contains(#"<attribute name="id" attributeType="UUID" defaultValueString="0F0E0D0C-0B0A-0908-0706-050403020100" usesScalarValueType="NO" indexed="YES">"#))
        #expect(lines.contains(#"<entry key="k" value="line&#xA;break&#x9;tab&#xD;return"/>"#))
        #expect(lines.contains(#"<entry key="a" value="&quot;quoted&quot; &amp; &lt;tagged&gt;"/>"#))
        #expect(lines.contains(#"<relationship name="children" optional="YES" toMany="YES" minCount="1" maxCount="10000" deletionRule="Cascade" ordered="YES" destinationEntity="Child" inverseName="parent" inverseEntity="Child" spotlightIndexingEnabled="YES" versionHashModifier="r" elementID="kids">"#))
        #expect(lines.contains(#"<relationship name="Owner" transient="YES" maxCount="1" deletionRule="No Action" destinationEntity="Child"/>"#))
        #expect(lines.contains(#"<fetchIndexElement property="count" type="Binary" order="descending"/>"#))
        #expect(lines.contains(#"<fetchRequest name="fetchedPropertyFetchRequest" entity="Child" predicateString="name BEGINSWITH[cd] &quot;a&quot; AND rank &gt;= 2.5"/>"#))
        #expect(lines.contains(#"<configuration name="Empty"/>"#))
        // Entities and properties in caseInsensitiveCompare order, kinds grouped; the root closes the file.
        let names = lines.compactMap { $0.firstMatch(of: #/^<(entity|attribute|relationship) name="([^"]*)"/#).map { String($0.2) } }
        #expect(names == ["Base", "blob", "count", "flag", "id", "scratch", "thing", "total", "when", "children", "Owner", "peers",
                          "Child", "parent", "leaf", "extra"])
        #expect(xml.hasSuffix("\n</model>"))
    }

    @Test("derivations are spelled as key paths where Core Data's text is an aggregate of one, and read back the same")
    func derivationSpelling() {
        let cases = ["count:(pages)": "pages.@count", "sum:(book.pages.words)": "book.pages.words.@sum",
                     "legalEntity.name": "legalEntity.name", "count:(a, b)": "count:(a, b)", "now()": "now()"]
        for (normalized, spelled) in cases {
            #expect(DerivationExpression.keyPathSpelling(normalized) == spelled)
            #expect(DerivationExpression.normalized(spelled) == normalized)
        }
    }

    @Test("what the XML cannot hold is listed, and says whether the version hash covers it")
    func unwrittenParts() throws {
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", attributes: [
                Attribute(name: "locked", type: .string, isReadOnly: true),
                Attribute(name: "pages", type: .integer64, isDerived: true, derivationExpression: "count:(b)", filteringPredicate: "x > 1"),
                Attribute(name: "title", type: .string, validationRules: [ValidationRule(predicate: "length >= 3", warning: .message("short"))]),
            ], relationships: [
                Relationship(name: "b", destinationEntity: "A", isToMany: true),
                Relationship(name: "one", destinationEntity: "A", maxCount: 0),
            ]),
        ], fetchRequests: [FetchRequestTemplate(name: "loose", entity: "")])
        let parts = XcodeModelWriter.unwrittenParts(of: model)
        #expect(parts.map(\.location) == ["A.locked", "A.pages", "A.pages", "A.title", "A.one", "fetch request loose"])
        #expect(parts.map(\.changesVersionHash) == [true, false, true, false, true, false])
        #expect(parts[3].description == "A.title: 1 validation rule ('length >= 3') with no XML spelling")
        let again = try reloaded(model)
        #expect(VersionHasher.hashes(of: again).differingEntities(from: VersionHasher.hashes(of: model).entityHashes) == ["A"])
        #expect(again.fetchRequests.isEmpty)
    }

    @Test("a number's bounds held as validation rules (Apple's SELF >= 0, warning 1620) are written as min and max")
    func boundsFromRules() throws {
        let tooSmall = ValidationRule(predicate: "SELF >= 0", warning: .code(1620))
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", attributes: [
                Attribute(name: "count", type: .integer32, validationRules: [
                    tooSmall, ValidationRule(predicate: "SELF <= 9.5", warning: .code(1610)), ValidationRule(predicate: "SELF != 3", warning: .code(1620)),
                ]),
                Attribute(name: "kept", type: .integer16, minValueString: "1", validationRules: [tooSmall]),
                Attribute(name: "text", type: .string, validationRules: [tooSmall]),
            ]),
        ])
        let xml = String(decoding: try XcodeModelWriter.contents(of: model), as: UTF8.self)
        #expect(xml.contains(#"<attribute name="count" optional="YES" attributeType="Integer 32" minValueString="0" maxValueString="9.5"/>"#))
        #expect(xml.contains(#"<attribute name="kept" optional="YES" attributeType="Integer 16" minValueString="1"/>"#))
        #expect(XcodeModelWriter.unwrittenParts(of: model).map(\.description) == [
            "A.count: 1 validation rule ('SELF != 3') with no XML spelling",
            "A.kept: 1 validation rule ('SELF >= 0') with no XML spelling",
            "A.text: 1 validation rule ('SELF >= 0') with no XML spelling",
        ])
        #expect(try reloaded(model).entity(named: "A")?.attribute(named: "count")?.minValueString == "0")
    }

    @Test("a character XML cannot hold is refused with the element and attribute")
    func unencodable() throws {
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", attributes: [Attribute(name: "s", type: .string, defaultValueString: "bell\u{7}")])])
        #expect(throws: ModelWriteError.unencodable(.forbiddenCharacter(scalar: 7, element: "attribute", attribute: "defaultValueString"))) {
            try XcodeModelWriter.contents(of: model)
        }
    }

    @Test("a bundle is written with its current version as Xcode writes .xccurrentversion, and loads back equal")
    func bundle() throws {
        let first = ManagedObjectModel(name: "Shop", entities: [Entity(name: "Cart", attributes: [Attribute(name: "id", type: .uuid)])])
        var second = Self.everyFeature
        second.name = "Shop 2"
        let bundle = ModelBundle(name: "Shop", versions: [first, second], currentVersionName: "Shop 2")
        let path = try TestPaths.temporaryFolder("writer") + "/Shop.xcdatamodeld"
        try XcodeModelWriter.writeBundle(bundle, to: path)
        #expect(try XcodeModelLoader.loadBundle(at: path) == bundle)
        #expect(String(decoding: try TestPaths.read(path + "/.xccurrentversion"), as: UTF8.self) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>Shop 2.xcdatamodel</string>
            </dict>
            </plist>

            """)
        // bundleEntries lists exactly what was written (a caller registers them for removal).
        let entries = XcodeModelWriter.bundleEntries(bundle, at: path)
        let written = try #require(FileManager.default.subpaths(atPath: path)).map { path + "/" + $0 }
        #expect(Set(written + [path]) == Set(entries.folders + entries.files))
        #expect(entries.folders.first == path)
        #expect(throws: ModelWriteError.cannotWrite(path: path, reason: "it exists")) { try XcodeModelWriter.writeBundle(bundle, to: path) }
        let other = try TestPaths.temporaryFolder("writer") + "/Other.xcdatamodeld"
        #expect(throws: ModelWriteError.unknownCurrentVersion("Shop 3")) {
            try XcodeModelWriter.writeBundle(ModelBundle(name: "Shop", versions: [first], currentVersionName: "Shop 3"), to: other)
        }
        var slashed = first
        slashed.name = "a/b"
        #expect(throws: ModelWriteError.invalidName("a/b")) {
            try XcodeModelWriter.writeBundle(ModelBundle(name: "Shop", versions: [slashed], currentVersionName: "a/b"), to: other)
        }
        #expect(!FileManager.default.fileExists(atPath: other))
    }
}
