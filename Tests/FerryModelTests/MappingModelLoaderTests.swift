import FerryFormats
@testable import FerryModel
import FerryTestSupport
import Testing

@Suite("Mapping model loader (xcmapping.xml, .cdm)")
struct MappingModelLoaderTests {
    private static let coredata = TestPaths.corpus + "/coredata"
    private static var documents: [String] { TestPaths.files(under: coredata) { $0.hasSuffix(".xcmappingmodel/xcmapping.xml") } }

    /// Each compiled mapping model of the corpus and the `.xcmappingmodel` it was compiled from.
    private static let compiledPairs = [
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel/MappingModels/V2toV3.xcmappingmodel",
         "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/V2toV3.cdm"),
        ("richardpiazza__XcodeServer/Sources/XcodeServerModel_1_1_0/Resources/MappingModel.xcmappingmodel",
         "richardpiazza__XcodeServer/Sources/XcodeServerModel_1_1_0/Resources/MappingModel.cdm_precompiled"),
        ("richardpiazza__XcodeServer/Sources/XcodeServerModel_2_0_0/Resources/MappingModel.xcmappingmodel",
         "richardpiazza__XcodeServer/Sources/XcodeServerModel_2_0_0/Resources/MappingModel.cdm_precompiled"),
    ]

    @Test("every xcmapping.xml in the corpus loads", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func everyDocumentLoads() throws {
        #expect(Self.documents.count == 10)
        var mappings = 0
        for document in Self.documents {
            let model = try MappingModelLoader.load(at: String(document.dropLast("/xcmapping.xml".count)))
            #expect(!model.entityMappings.isEmpty, "\(document)")
            mappings += model.entityMappings.count
        }
        #expect(mappings == 125)
    }

    @Test("what Ferry derives from xcmapping.xml equals Apple's compiled .cdm, field by field",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func derivedEqualsCompiled() throws {
        var fields = 0
        for (document, compiled) in Self.compiledPairs {
            let derived = try MappingModelLoader.load(at: Self.coredata + "/" + document)
            let apple = try MappingModelLoader.load(at: Self.coredata + "/" + compiled)
            #expect(derived.entityMappings.map(\.name) == apple.entityMappings.map(\.name), "\(document): mapping order")
            for (ours, theirs) in zip(derived.entityMappings, apple.entityMappings) {
                let place = "\(document): \(theirs.name)"
                #expect(ours.type == theirs.type, "\(place) type")
                #expect(ours.sourceEntityName == theirs.sourceEntityName, "\(place) source")
                #expect(ours.destinationEntityName == theirs.destinationEntityName, "\(place) destination")
                #expect(ours.sourceEntityVersionHash == theirs.sourceEntityVersionHash, "\(place) source hash")
                #expect(ours.destinationEntityVersionHash == theirs.destinationEntityVersionHash, "\(place) destination hash")
                #expect(ours.sourceExpression == theirs.sourceExpression, "\(place) source expression")
                #expect(ours.migrationPolicyClassName == theirs.migrationPolicyClassName, "\(place) policy class")
                fields += 7
                for (kind, mine, apples) in [("attribute", ours.attributeMappings, theirs.attributeMappings),
                                             ("relationship", ours.relationshipMappings, theirs.relationshipMappings)] {
                    #expect(mine.map(\.name) == apples.map(\.name), "\(place) \(kind) order")
                    for (property, expected) in zip(mine, apples) {
                        #expect(property.valueExpression == expected.valueExpression,
                                "\(place).\(expected.name): \(property.valueExpression?.text ?? "nil") != \(expected.valueExpression?.text ?? "nil")")
                        fields += 2
                    }
                }
            }
            #expect(derived.entityMappings == apple.entityMappings, "\(document)")
        }
        #expect(fields == 1_489)
    }

    @Test("the model snapshots of xcmapping.xml hash as the .xcdatamodel versions they were taken from",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func snapshotsHashAsTheirModels() throws {
        var matched = 0
        var unmatched: [String] = []
        for document in Self.documents {
            let parsed = try XcodeMappingDocument(bytes: TestPaths.read(document), file: document)
            let repository = document.split(separator: "/").first { $0.contains("__") }.map(String.init) ?? ""
            for (side, snapshot) in [("source", parsed.sourceModel), ("destination", parsed.destinationModel)] {
                // The same version name can live in several bundles of a repository: one of them is the snapshot's.
                let candidates = TestPaths.files(under: Self.coredata + "/" + repository) { $0.hasSuffix("/\(snapshot.name).xcdatamodel/contents") }
                let hashes = VersionHasher.hashes(of: snapshot).entityHashes
                if try candidates.contains(where: { VersionHasher.hashes(of: try XcodeModelLoader.loadModel(at: $0)).entityHashes == hashes }) {
                    matched += 1
                } else {
                    unmatched.append("\(repository) \(side) \(snapshot.name)")
                }
            }
        }
        #expect(matched == 19)
        // XcodeServer 1.1.0's mapping model maps from the version before it, which the corpus does not hold.
        #expect(unmatched == ["richardpiazza__XcodeServer source XcodeServer"])
    }

    @Test("a derived mapping model names its version hashes, and is chosen by them, not by name",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func chosenByHashes() throws {
        let model = try MappingModelLoader.load(at: Self.coredata + "/wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Migration/Mappings/Migration1to2.xcmappingmodel")
        let bundle = try XcodeModelLoader.loadBundle(at: Self.coredata + "/wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld")
        let hashes = bundle.versions.map { VersionHasher.hashes(of: $0).entityHashes }
        #expect(model.maps(from: hashes[0], to: hashes[1]))
        #expect(!model.maps(from: hashes[1], to: hashes[2]))
        #expect(!model.maps(from: hashes[0], to: hashes[0]))
        let mapping = try #require(model.entityMappings.first)
        #expect(mapping.name == "PostToPost" && mapping.type == .copy && mapping.sourcePredicate == "TRUEPREDICATE")
        #expect(mapping.attributeMappings.map { $0.valueExpression?.text } == ["$source.date", "$source.color", "$source.postID"])
    }

    @Test("what is not a mapping model is refused with its place")
    func refusals() throws {
        let folder = try TestPaths.temporaryFolder("mapping")
        #expect(throws: MappingModelLoadError.unreadable(path: folder + "/none.cdm", reason: "no such file")) {
            try MappingModelLoader.load(at: folder + "/none.cdm")
        }
        let orphan = folder + "/orphan.xml"
        try Array(#"<?xml version="1.0"?><database><object type="XDDEVENTITYMAPPING" id="z1"></object></database>"#.utf8)
            .write(to: orphan)
        #expect(throws: MappingModelLoadError.notAMappingModel(path: orphan, reason: "it holds 0 XDDEVMAPPINGMODEL objects, not one")) {
            try MappingModelLoader.load(at: orphan)
        }
        // A written mapping given as a mapping model (`--mapping`) was "malformed XML".
        let written = folder + "/V1 to V2.mapping"
        try Array("mapping \"V1\" -> \"V2\"\nentity Item\n".utf8).write(to: written)
        let error = try #require(throws: MappingModelLoadError.self) { try MappingModelLoader.load(at: written) }
        #expect(error.description.hasPrefix(written + ": not a Core Data mapping model: it is a written mapping, which is read from beside the model"),
                "\(error)")
        let dangling = folder + "/dangling.xml"
        try Array(("<?xml version=\"1.0\"?>\n<database>\n<object type=\"XDDEVMAPPINGMODEL\" id=\"z1\">"
            + "<relationship name=\"entitymappings\" idrefs=\"z9\"></relationship></object>\n</database>").utf8).write(to: dangling)
        #expect(throws: MappingModelLoadError.invalidObject(file: dangling, line: 3, object: "z1", reason: "sourcemodeldata is missing or not base64")) {
            try MappingModelLoader.load(at: dangling)
        }
    }
}

private extension Array where Element == UInt8 {
    func write(to path: String) throws {
        let sink = try FileByteSink(path: path)
        try sink.write(self)
        try sink.close()
    }
}
