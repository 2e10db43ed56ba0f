import FerryFormats
import FerryModel
import FerryTestSupport
import FoundationEssentials
import Testing

@Suite("Xcode model loader")
struct XcodeModelLoaderTests {
    private let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#

    @Test("every contents file in the corpus loads", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func corpusModelsLoad() throws {
        let files = TestPaths.files(under: TestPaths.corpus + "/coredata") { $0.hasSuffix(".xcdatamodel/contents") }
        #expect(files.count >= 26)
        for file in files {
            let model = try XcodeModelLoader.loadModel(at: file)
            #expect(!model.entities.isEmpty, "\(file) has no entities")
        }
    }

    @Test("every .xcdatamodeld in the corpus loads with its current version", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func corpusBundlesLoad() throws {
        let bundles = Set(TestPaths.files(under: TestPaths.corpus + "/coredata") { $0.contains(".xcdatamodeld/") }
            .map { String($0[..<$0.range(of: ".xcdatamodeld/")!.lowerBound]) + ".xcdatamodeld" })
        #expect(bundles.count >= 9)
        for path in bundles {
            let bundle = try XcodeModelLoader.loadBundle(at: path)
            #expect(bundle.current != nil, "\(path) has no current version")
        }
        let xcserver = try XcodeModelLoader.loadBundle(
            at: TestPaths.corpus + "/coredata/richardpiazza__XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld")
        #expect(xcserver.versions.map(\.name) == ["XCServerCoreData", "XCServerCoreData1.1.0", "XCServerCoreData1.2.0",
                                                 "XCServerCoreData2.0.0", "XCServerCoreData2.0.1", "XCServerCoreData2.0.2",
                                                 "XCServerCoreData2.0.3"])
        #expect(xcserver.currentVersionName == "XCServerCoreData2.0.3")
    }

    @Test("the CoreDataPlus sample model reads inheritance, constraints, transients and renaming identifiers",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func sampleModelDetails() throws {
        let bundle = try XcodeModelLoader.loadBundle(
            at: TestPaths.corpus + "/coredata/alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld")
        let v1 = try #require(bundle.version(named: "SampleModel"))
        #expect(v1.versionIdentifier == "1")
        #expect(v1.entityNumbers == ["Car": 1, "SportCar": 2, "ExpensiveSportCar": 3, "Person": 4])
        let car = try #require(v1.entity(named: "Car"))
        #expect(car.uniquenessConstraints == [["numberPlate"]])
        #expect(car.attribute(named: "currentDrivingSpeed")?.isTransient == true)
        #expect(car.attribute(named: "color")?.valueTransformerName == "ColorTransformer")
        let owner = try #require(car.relationship(named: "owner"))
        #expect(owner.destinationEntity == "Person" && owner.inverseName == "cars" && !owner.isToMany && owner.maxCount == 1)
        #expect(v1.allAttributes(of: "ExpensiveSportCar").map(\.name).contains("numberPlate"))
        let person = try #require(v1.entity(named: "Person"))
        #expect(person.attribute(named: "id")?.preserveAfterDeletion == true)
        #expect(person.relationship(named: "cars")?.isToMany == true)
        let v2 = try #require(bundle.version(named: "SampleModel2.xcdatamodel"))
        #expect(v2.entity(named: "LuxuryCar")?.renamingIdentifier == "ExpensiveSportCar")
    }

    @Test("unknown elements and attributes do not fail a load")
    func unknownElementsTolerated() throws {
        let folder = try TestPaths.xcodeModelFolder(header + """
            <model type="com.apple.IDECoreDataModeler.DataModel" futureAttribute="x">
                <futureElement><nested/></futureElement>
                <entity name="A" syncable="YES" brandNewFlag="YES">
                    <attribute name="a" optional="YES" attributeType="String" sparkle="7"/>
                    <someNewThing/>
                </entity>
            </model>
            """)
        let model = try XcodeModelLoader.loadModel(at: folder)
        #expect(model.entity(named: "A")?.attributes.map(\.name) == ["a"])
    }

    @Test("numeric and Boolean defaults hold what Apple's model compiler makes of their text, and survive the archive",
          arguments: [
              ("Integer 16", "YES", "0"), ("Integer 32", "YES", "0"), ("Integer 64", "NO", "0"), ("Integer 32", "true", "0"),
              ("Integer 32", " 12abc", "12"), ("Integer 16", "-7", "-7"), ("Integer 64", "+42", "42"), ("Integer 32", "2.9", "2"),
              ("Integer 64", "99999999999999999999", "9223372036854775807"),
              ("Boolean", "YES", "YES"), ("Boolean", "yes", "YES"), ("Boolean", "true", "YES"), ("Boolean", "1", "YES"),
              ("Boolean", "007", "YES"), ("Boolean", "NO", "NO"), ("Boolean", "false", "NO"), ("Boolean", "0", "NO"),
              ("Boolean", "", "NO"),
              ("Double", "YES", "0.0"), ("Double", "0", "0.0"), ("Float", "2.5e1x", "25.0"), ("Decimal", ".5", "0.5"),
              ("Double", "-1.25", "-1.25"), ("String", "YES", "YES"),
          ])
    func compiledDefaults(type: String, written: String, compiled: String) throws {
        let folder = try TestPaths.xcodeModelFolder(header + """
            <model><entity name="A"><attribute name="x" attributeType="\(type)" defaultValueString="\(written)"/></entity></model>
            """)
        let model = try XcodeModelLoader.loadModel(at: folder)
        #expect(model.entity(named: "A")?.attribute(named: "x")?.defaultValueString == compiled)
        let decoded = try ModelArchiveDecoder.decodeModel(archive: ModelArchiveEncoder.encodeModel(model), name: model.name)
        #expect(decoded.entity(named: "A")?.attribute(named: "x")?.defaultValueString == compiled)
    }

    @Test("spotlightIndexingEnabled marks attributes and relationships")
    func spotlightIndexing() throws {
        let folder = try TestPaths.xcodeModelFolder(header + """
            <model><entity name="A">
                <attribute name="title" optional="YES" attributeType="String" spotlightIndexingEnabled="YES"/>
                <relationship name="body" maxCount="1" deletionRule="Cascade" destinationEntity="A" spotlightIndexingEnabled="YES"/>
                <relationship name="other" optional="YES" maxCount="1" destinationEntity="A"/>
            </entity></model>
            """)
        let entity = try #require(try XcodeModelLoader.loadModel(at: folder).entity(named: "A"))
        #expect(entity.attribute(named: "title")?.isIndexedBySpotlight == true)
        #expect(entity.relationship(named: "body")?.isIndexedBySpotlight == true)
        #expect(entity.relationship(named: "other")?.isIndexedBySpotlight == false)
    }

    @Test("a derivation loads in Core Data's normalised form and hashes as a model that holds that form", arguments: [
        ("pages.@count", "count:(pages)"), ("pages.@sum", "sum:(pages)"), ("pages.@total", "sum:(pages)"), ("count:(pages)", "count:(pages)"),
    ])
    func derivedAttribute(written: String, kept: String) throws {
        let folder = try TestPaths.xcodeModelFolder(header + """
            <model><entity name="Book">
                <attribute name="pagesCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="\(written)"/>
                <relationship name="pages" optional="YES" toMany="YES" destinationEntity="Page" inverseName="book" inverseEntity="Page"/>
            </entity><entity name="Page">
                <relationship name="book" optional="YES" maxCount="1" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/>
            </entity></model>
            """)
        let loaded = try XcodeModelLoader.loadModel(at: folder)
        let attribute = try #require(loaded.entity(named: "Book")?.attribute(named: "pagesCount"))
        #expect(attribute.isDerived && attribute.isReadOnly && attribute.derivationExpression == kept)
        let archived = try ModelArchiveDecoder.decodeModel(archive: ModelArchiveEncoder.encodeModel(loaded), name: loaded.name)
        #expect(archived.entity(named: "Book")?.attribute(named: "pagesCount")?.derivationExpression == kept)
        #expect(VersionHasher.hashes(of: archived) == VersionHasher.hashes(of: loaded))
    }

    @Test("a stored composite attribute (Xcode 15) is refused with its line: its values were lost with exit 0; a transient one is kept")
    func compositeAttributeIsRefused() throws {
        let composite = try TestPaths.xcodeModelFolder(header + """

            <model>
            <entity name="Person">
            <attribute name="name" attributeType="String"/>
            <attribute name="address" optional="YES" attributeType="Composite" composite="Address"/>
            </entity>
            <composite name="Address"><attribute name="city" attributeType="String"/></composite>
            </model>
            """)
        let error = try #require(throws: ModelLoadError.self) { try XcodeModelLoader.loadModel(at: composite) }
        #expect(error.description.contains("contents:5: <attribute>: attribute 'address' is a composite attribute, which Ferry does not read yet"),
                "\(error)")
        let transient = try TestPaths.xcodeModelFolder(header + """
            <model><entity name="Person"><attribute name="address" optional="YES" transient="YES" attributeType="Composite"/></entity></model>
            """)
        #expect(try XcodeModelLoader.loadModel(at: transient).entities.first?.attributes.first?.type == .composite)
    }

    /// `A.b` naming `B.c` while `B.c` points at `C`, or two relationships naming one inverse: a
    /// link of one was written into the other's column too (a B→C pair no record gave), and the
    /// store verified, exit 0.
    @Test("a relationship whose inverse does not point back, or names another relationship as its own inverse, is refused; a one-sided pair and a sub-entity destination load")
    func inversesMustPointBack() throws {
        func relationship(_ name: String, to destination: String, inverse: String?, toMany: Bool = false) -> String {
            #"<relationship name="\#(name)" optional="YES" \#(toMany ? #"toMany="YES""# : #"maxCount="1""#) deletionRule="Nullify" destinationEntity="\#(destination)""#
                + (inverse.map { #" inverseName="\#($0)" inverseEntity="\#(destination)""# } ?? "") + "/>"
        }
        func load(_ entities: [(name: String, parent: String?, relationships: [String])]) throws -> ManagedObjectModel {
            let body = entities.map { entity in
                #"<entity name="\#(entity.name)"\#(entity.parent.map { #" parentEntity="\#($0)""# } ?? "")>"#
                    + entity.relationships.joined() + "</entity>"
            }.joined(separator: "\n")
            return try XcodeModelLoader.loadModel(at: try TestPaths.xcodeModelFolder(header + "<model>\n" + body + "\n</model>"))
        }
        let elsewhere = #expect(throws: ModelLoadError.self) {
            try load([("A", nil, [relationship("b", to: "B", inverse: "c")]), ("B", nil, [relationship("c", to: "C", inverse: "b")]),
                      ("C", nil, [relationship("b", to: "B", inverse: "c")])])
        }
        #expect(elsewhere?.description.contains("inconsistent model: relationship 'A.b' names inverse 'B.c', which points at 'C', not at 'A'") == true,
                "\(String(describing: elsewhere))")
        let shared = #expect(throws: ModelLoadError.self) {
            try load([("A", nil, [relationship("bs", to: "B", inverse: "a", toMany: true), relationship("bs2", to: "B", inverse: "a", toMany: true)]),
                      ("B", nil, [relationship("a", to: "A", inverse: "bs")])])
        }
        #expect(shared?.description.contains("relationship 'A.bs2' names inverse 'B.a', whose own inverse is 'bs': each of a pair must name the other") == true,
                "\(String(describing: shared))")
        // A one-sided pair, and an inverse pointing at a sub-entity of the declaring one, load.
        _ = try load([("A", nil, [relationship("b", to: "B", inverse: "a")]), ("B", nil, [relationship("a", to: "A", inverse: nil)])])
        _ = try load([("P", nil, [relationship("items", to: "I", inverse: "owner", toMany: true)]), ("S", "P", []),
                      ("I", nil, [relationship("owner", to: "S", inverse: "items")])])
    }

    /// Undefined (also an attribute without `attributeType`) and Object ID got no column: every
    /// value was dropped as a key "matching no attribute", exit 0; a sub-entity declaring its
    /// parent's property got a version hash and was refused only when written.
    @Test("a stored Undefined or Object ID attribute, or a property a sub-entity declares again, is refused with its place; transient ones load")
    func storedAttributesNeedAType() throws {
        for (declaration, type) in [(#"attributeType="Undefined""#, "an Undefined"), ("", "an Undefined"), (#"attributeType="ObjectID""#, "an ObjectID")] {
            let folder = try TestPaths.xcodeModelFolder(header + """

                <model><entity name="Item"><attribute name="code" optional="YES" \(declaration)/></entity></model>
                """)
            let error = try #require(throws: ModelLoadError.self) { try XcodeModelLoader.loadModel(at: folder) }
            #expect(error.description.contains("contents:2: <attribute>: attribute 'code' is \(type) attribute that is not transient"), "\(error)")
            let transient = try TestPaths.xcodeModelFolder(header + """
                <model><entity name="Item"><attribute name="code" optional="YES" transient="YES" \(declaration)/></entity></model>
                """)
            #expect(try XcodeModelLoader.loadModel(at: transient).entities.first?.attributes.first?.isTransient == true)
        }
        let redeclared = try TestPaths.xcodeModelFolder(header + """
            <model><entity name="A"><attribute name="a" optional="YES" attributeType="String"/></entity>
            <entity name="B" parentEntity="A"><attribute name="a" optional="YES" attributeType="String"/></entity></model>
            """)
        let error = try #require(throws: ModelLoadError.self) { try XcodeModelLoader.loadModel(at: redeclared) }
        #expect(error.description.contains("entity 'B' declares property 'a', which it inherits from 'A'"), "\(error)")
    }

    @Test("a malformed model names the file, the line and the element")
    func malformedModelHasLocation() throws {
        let missingName = try TestPaths.xcodeModelFolder(header + """
            <model>
                <entity name="A">
                    <attribute optional="YES" attributeType="String"/>
                </entity>
            </model>
            """)
        #expect(throws: ModelLoadError.invalidElement(file: missingName + "/contents", line: 3, element: "attribute",
                                                      reason: "missing 'name' attribute")) {
            try XcodeModelLoader.loadModel(at: missingName)
        }
        let badType = try TestPaths.xcodeModelFolder(header + "\n<model>\n<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"Integer 12\"/>\n</entity>\n</model>")
        let error = try #require(throws: ModelLoadError.self) { try XcodeModelLoader.loadModel(at: badType) }
        #expect(error.description.contains("contents:4: <attribute>: attribute 'x' has unknown attributeType 'Integer 12'"))

        let broken = try TestPaths.xcodeModelFolder(header + "\n<model>\n<entity name=\"A\">\n</model>")
        let xmlError = try #require(throws: ModelLoadError.self) { try XcodeModelLoader.loadModel(at: broken) }
        guard case let .xml(.malformed(source, line, _)) = xmlError else {
            Issue.record("expected a malformed-XML error, got \(xmlError)")
            return
        }
        #expect(source.hasSuffix("/contents") && line == 4)
    }

    @Test("dangling references are refused")
    func danglingReferences() throws {
        let folder = try TestPaths.xcodeModelFolder(header + """
            <model><entity name="A"><relationship name="b" maxCount="1" destinationEntity="Missing"/></entity></model>
            """)
        let error = try #require(throws: ModelLoadError.self) { try XcodeModelLoader.loadModel(at: folder) }
        #expect(error.description.contains("points at unknown entity 'Missing'"))
        let cycle = try TestPaths.xcodeModelFolder(header + #"<model><entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/></model>"#)
        #expect(throws: ModelLoadError.self) { try XcodeModelLoader.loadModel(at: cycle) }
    }

    @Test("a missing path and an Xcode 3 model are clear errors")
    func notAModel() throws {
        #expect(throws: ModelLoadError.unreadable(path: "/nonexistent/x.xcdatamodel", reason: "no such file")) {
            try XcodeModelLoader.loadModel(at: "/nonexistent/x.xcdatamodel")
        }
        let folder = try TestPaths.temporaryFolder("xcode3") + "/Old.xcdatamodel"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("bplist00".utf8).write(to: URL(fileURLWithPath: folder + "/elements"))
        #expect(throws: ModelLoadError.xcode3Format(path: folder)) { try XcodeModelLoader.loadModel(at: folder) }
    }
}
