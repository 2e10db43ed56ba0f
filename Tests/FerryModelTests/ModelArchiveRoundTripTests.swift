import FerryFormats
import FerryModel
import FerryTestSupport
import Testing

@Suite("Model archive round trip")
struct ModelArchiveRoundTripTests {
    /// Encodes, decodes and compares with the model as an archive can hold it; hashes must not move.
    private func roundTrip(_ model: ManagedObjectModel, _ context: String) throws {
        let expected = ModelArchiveCorpus.withoutUnarchivedFields(model, keepTransformableClass: true)
        let decoded = try ModelArchiveDecoder.decodeModel(archive: ModelArchiveEncoder.encodeModel(model), name: model.name)
        ModelArchiveCorpus.expectEqual(decoded, expected, context)
        #expect(decoded == expected, "\(context): whole model")
        ModelArchiveCorpus.expectEqualHashes(decoded, model, context)
        let cached = try ModelArchiveDecoder.decodeModelCache(ModelArchiveEncoder.encodeModelCache(model), name: model.name)
        #expect(cached == decoded, "\(context): through the deflated model cache")
    }

    @Test("every XML model in the corpus survives encode → decode", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func corpusXMLModels() throws {
        let files = TestPaths.files(under: ModelArchiveCorpus.coredata) { $0.hasSuffix(".xcdatamodel/contents") }
        #expect(files.count >= 26)
        for file in files {
            try roundTrip(try XcodeModelLoader.loadModel(at: file), file)
        }
    }

    @Test("every .mom in the corpus survives decode → encode → decode", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func corpusMoms() throws {
        for mom in ModelArchiveCorpus.moms {
            try roundTrip(try ModelArchiveDecoder.decodeModel(archive: TestPaths.read(mom), name: "m"), mom)
        }
    }

    @Test("the project's own models survive encode → decode")
    func projectModels() throws {
        let bundles = ["Workspace", "KYTask", "Upload"].map { TestPaths.migrations + "/\($0).xcdatamodeld" }
        var versions = 0
        for path in bundles {
            for model in try XcodeModelLoader.loadBundle(at: path).versions {
                try roundTrip(model, "\(path) \(model.name)")
                versions += 1
            }
        }
        #expect(versions >= 5)
    }

    @Test("a hand-made model with every archived feature survives encode → decode")
    func everyFeature() throws {
        let model = ManagedObjectModel(name: "All", versionIdentifier: "7", entities: [
            Entity(name: "Base", isAbstract: true, renamingIdentifier: "OldBase", versionHashModifier: "v2", attributes: [
                Attribute(name: "id", type: .uuid, isOptional: false, defaultValueString: "0F0E0D0C-0B0A-0908-0706-050403020100",
                          isIndexed: true, userInfo: ["k": "v"]),
                Attribute(name: "when", type: .date, defaultDateTimeInterval: 12.5, minValueString: "1.0", maxValueString: "99.5"),
                Attribute(name: "blob", type: .binary, allowsExternalBinaryDataStorage: true, preserveAfterDeletion: true),
                Attribute(name: "count", type: .integer32, isOptional: false, defaultValueString: "-3", minValueString: "0", maxValueString: "10",
                          validationRules: [ValidationRule(predicate: "SELF >= -5", warning: .code(1620))]),
                Attribute(name: "flag", type: .boolean, defaultValueString: "YES", isIndexedBySpotlight: true),
                Attribute(name: "scratch", type: .string, isTransient: true, renamingIdentifier: "tmp", versionHashModifier: "x"),
                Attribute(name: "total", type: .integer64, isReadOnly: true, isDerived: true, derivationExpression: "count:(children)",
                          filteringPredicate: "rank >= 2"),
                Attribute(name: "thing", type: .transformable, valueTransformerName: "T", customClassName: "Thing"),
            ], relationships: [
                Relationship(name: "children", destinationEntity: "Child", inverseName: "parent", inverseEntity: "Child",
                             isToMany: true, minCount: 1, maxCount: -1, isOrdered: true, deleteRule: .cascade, isIndexedBySpotlight: true,
                             validationRules: [ValidationRule(predicate: "@count <= 9", warning: .message("too many"))]),
                Relationship(name: "peers", destinationEntity: "Base", inverseName: "peers", inverseEntity: "Base",
                             isToMany: true, deleteRule: .deny),
            ], fetchedProperties: [
                FetchedProperty(name: "recent", fetchEntity: "Child",
                                predicateString: "(name BEGINSWITH[cd] \"a\" OR rank >= 2.5) AND NOT parent == $FETCH_SOURCE",
                                userInfo: ["a": "b"]),
            ], uniquenessConstraints: [["id"], ["count", "flag"]],
            fetchIndexes: [FetchIndex(name: "byCount", elements: [FetchIndex.Element(property: "count", isAscending: false)]),
                           FetchIndex(name: "pair", elements: [FetchIndex.Element(property: "count"), FetchIndex.Element(property: "flag")])],
            userInfo: ["entity": "info"]),
            Entity(name: "Child", relationships: [
                Relationship(name: "parent", destinationEntity: "Base", inverseName: "children", inverseEntity: "Base", deleteRule: .noAction),
            ]),
            Entity(name: "Leaf", representedClassName: "App.Leaf", parentName: "Base", attributes: [Attribute(name: "extra", type: .float, defaultValueString: "0.5")]),
        ], configurations: [Configuration(name: "Cloud", entityNames: ["Base", "Leaf"])],
           fetchRequests: [FetchRequestTemplate(name: "all", entity: "Child", predicateString: "name == nil")])
        try roundTrip(model, "hand-made")
        var proxied = model
        proxied.inheritedPropertyForm = .proxies
        try roundTrip(proxied, "hand-made, inherited properties as proxies")
    }

    @Test("models an archive cannot hold are rejected with the element's path")
    func unencodable() throws {
        func path(_ model: ManagedObjectModel) -> String? {
            do { _ = try ModelArchiveEncoder.encodeModel(model); return nil } catch {
                guard case .unencodable(_, let path) = error else { return "wrong error \(error)" }
                return path
            }
        }
        #expect(path(ManagedObjectModel(name: "M", entities: [Entity(name: "A", parentName: "Nope")])) == "A")
        #expect(path(ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", attributes: [Attribute(name: "n", type: .uuid, defaultValueString: "many")])])) == "A.n")
        #expect(path(ManagedObjectModel(name: "M", entities: [Entity(name: "A", fetchedProperties: [
            FetchedProperty(name: "f", fetchEntity: "A", predicateString: "a ~~ b")])])) == "A.f")
        #expect(path(ManagedObjectModel(name: "M", entities: [Entity(name: "A")],
                                        configurations: [Configuration(name: "C", entityNames: ["B"])])) == "configuration C")
        #expect(path(ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", attributes: [Attribute(name: "x", type: .string)]),
            Entity(name: "B", parentName: "A", attributes: [Attribute(name: "x", type: .string)])])) == "B")
    }
}
