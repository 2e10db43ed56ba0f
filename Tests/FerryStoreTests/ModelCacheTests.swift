import FerryFormats
import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// A corpus store's model cache and metadata hashes, read from a private copy (the corpus is
/// read-only and a `-wal` without `-shm` would need a writable folder).
struct ModelCacheSample {
    var path: String
    /// `Z_MODELCACHE.Z_CONTENT`; nil when the store has no such table (fw 241 and 519).
    var modelCache: [UInt8]?
    var storedHashes: [String: [UInt8]]

    init(store path: String) throws {
        self.path = path
        let folder = try TestPaths.temporaryFolder("modelcache")
        let copy = folder + "/" + (path.split(separator: "/").last.map(String.init) ?? "store.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        if FileManager.default.fileExists(atPath: path + "-wal") {
            try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try SQLiteDatabase(path: copy, mode: .readOnly)
        if try database.scalarInteger("SELECT count(*) FROM sqlite_master WHERE name = 'Z_MODELCACHE'") == 1 {
            let cache = try database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE")
            guard try cache.step(), let content = cache.bytes(at: 0) else { throw SampleError.missing("Z_MODELCACHE row", path) }
            modelCache = content
            cache.finalize()
        }
        let metadata = try database.prepare("SELECT Z_PLIST FROM Z_METADATA")
        guard try metadata.step(), let plist = metadata.bytes(at: 0),
              case .dictionary(let keys) = try PropertyList.decode(plist),
              case .dictionary(let hashes)? = keys["NSStoreModelVersionHashes"] else { throw SampleError.missing("NSStoreModelVersionHashes", path) }
        storedHashes = hashes.compactMapValues { if case .data(let bytes) = $0 { bytes } else { nil } }
        metadata.finalize()
        try database.close()
    }

    enum SampleError: Error { case missing(String, String) }

    /// Every corpus store that has a model cache (fw 754 on; the fw 241/519 stores have none).
    static func withModelCache() throws -> [(sample: ModelCacheSample, cache: [UInt8])] {
        try TestPaths.files(under: TestPaths.corpus + "/coredata") { $0.hasSuffix(".sqlite") }.compactMap { path in
            let sample = try ModelCacheSample(store: path)
            return sample.modelCache.map { (sample, $0) }
        }
    }

    var name: String { String(path.split(separator: "/").last?.dropLast(7) ?? "") }
}

@Suite("Store model caches")
struct ModelCacheTests {
    @Test("every store's Z_MODELCACHE decodes and its hashes equal Z_METADATA's", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func cachesReproduceStoredHashes() throws {
        let stores = try ModelCacheSample.withModelCache()
        #expect(stores.count >= 13)
        for (sample, cache) in stores {
            let model = try ModelArchiveDecoder.decodeModelCache(cache, name: sample.name)
            let hashes = VersionHasher.hashes(of: model)
            #expect(Set(hashes.entityHashes.keys) == Set(sample.storedHashes.keys), "\(sample.name) entity set")
            #expect(hashes.differingEntities(from: sample.storedHashes).isEmpty, "\(sample.name) differing entity hashes")
        }
    }

    @Test("the derived attribute of CoreDataPlus Book decodes with its expression", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func derivedAttribute() throws {
        let store = try #require(try ModelCacheSample.withModelCache().first { $0.sample.name == "SampleModel2_V1" })
        let model = try ModelArchiveDecoder.decodeModelCache(store.cache, name: "SampleModel2_V1")
        let count = try #require(model.entity(named: "Book")?.attribute(named: "pagesCount"))
        #expect(count.isDerived && count.isReadOnly && count.isOptional && count.type == .integer64)
        #expect(count.derivationExpression == "count:(pages)" && count.filteringPredicate == nil)
        #expect(model.entity(named: "GraphicNovel")?.attributes.map(\.name) == ["isBlackAndWhite"])
        let author = try #require(model.entity(named: "Author"))
        #expect(author.parentName == "Writer")
        #expect(author.fetchedProperties.map(\.name) == ["favFeedbacks", "feedbacks"])
        #expect(author.fetchedProperties.map(\.predicateString) == [
            "authorAlias == $FETCH_SOURCE.alias AND comment CONTAINS[c] $FETCHED_PROPERTY.userInfo.search",
            "authorAlias == $FETCH_SOURCE.alias",
        ])
        #expect(author.fetchedProperties.map(\.fetchEntity) == ["Feedback", "Feedback"])
        #expect(author.fetchedProperties.first?.userInfo == ["search": "great"])
        #expect(model.configurations.map(\.name).isEmpty == false)
    }

    /// The CoreDataPlus SampleModel2 stores, the only ones with a derived attribute (`Book.pagesCount`).
    private func derivedSamples() throws -> [(sample: ModelCacheSample, model: ManagedObjectModel)] {
        let samples = try ModelCacheSample.withModelCache().filter { $0.sample.name.hasPrefix("SampleModel2_") }
        #expect(samples.count == 2)
        return try samples.map { ($0.sample, try ModelArchiveDecoder.decodeModelCache($0.cache, name: $0.sample.name)) }
    }

    @Test("Book.pagesCount reproduces the stored hashes through its expression alone, in either spelling",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func derivedAttributeHash() throws {
        for (sample, model) in try derivedSamples() {
            func differing(_ change: (inout Attribute) -> Void) -> [String] {
                let entities = model.entities.map { entity in
                    var entity = entity
                    entity.attributes = entity.attributes.map { attribute in
                        var attribute = attribute
                        if entity.name == "Book" && attribute.name == "pagesCount" { change(&attribute) }
                        return attribute
                    }
                    return entity
                }
                return VersionHasher.hashes(of: ManagedObjectModel(name: model.name, entities: entities)).differingEntities(from: sample.storedHashes)
            }
            #expect(differing { _ in } == [], "\(sample.name)")
            #expect(differing { $0.derivationExpression = "pages.@count" } == [], "\(sample.name)")
            #expect(differing { $0.type = .double; $0.isOptional = false; $0.isReadOnly = false; $0.versionHashModifier = "x" } == [],
                    "\(sample.name)")
            #expect(differing { $0.derivationExpression = "sum:(pages)" } == ["Book", "GraphicNovel"], "\(sample.name)")
            #expect(differing { $0.isDerived = false } == ["Book", "GraphicNovel"], "\(sample.name)")
        }
    }

    /// CoreDataPlus `SampleModel2_V1` as Xcode would write it, `Book.pagesCount` spelled as a key path.
    static let sampleModel2V1XML = """
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Author" parentEntity="Writer">
                <attribute name="alias" attributeType="String"/>
                <attribute name="siteURL" optional="YES" attributeType="URI"/>
                <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="alias"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Book">
                <attribute name="cover" attributeType="Transformable"/>
                <attribute name="pagesCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="pages.@count"/>
                <attribute name="price" attributeType="Decimal"/>
                <attribute name="publishedAt" attributeType="Date"/>
                <attribute name="title" attributeType="String"/>
                <attribute name="uniqueID" attributeType="UUID"/>
                <relationship name="author" minCount="1" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
                <relationship name="pages" toMany="YES" minCount="1" maxCount="10000" deletionRule="Cascade" destinationEntity="Page" inverseName="book" inverseEntity="Page"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="uniqueID"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Feedback">
                <attribute name="authorAlias" attributeType="String"/>
                <attribute name="bookID" attributeType="UUID"/>
                <attribute name="comment" optional="YES" attributeType="String"/>
                <attribute name="rating" attributeType="Double"/>
            </entity>
            <entity name="GraphicNovel" parentEntity="Book">
                <attribute name="isBlackAndWhite" attributeType="Boolean" defaultValueString="NO"/>
            </entity>
            <entity name="Page">
                <attribute name="content" attributeType="Transformable"/>
                <attribute name="isBookmarked" attributeType="Boolean" defaultValueString="NO"/>
                <attribute name="number" attributeType="Integer 32"/>
                <relationship name="book" minCount="1" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/>
            </entity>
            <entity name="Writer" isAbstract="YES">
                <attribute name="age" attributeType="Integer 16"/>
            </entity>
        </model>
        """

    @Test("an XML model with a derived attribute hashes as the store's model cache and Apple's stored hashes",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func xmlDerivedAttribute() throws {
        let (sample, cached) = try #require(try derivedSamples().first { $0.sample.name == "SampleModel2_V1" })
        let xml = try XcodeModelLoader.loadModel(at: TestPaths.xcodeModelFolder(Self.sampleModel2V1XML, name: "SampleModel2"))
        #expect(xml.entity(named: "Book")?.attribute(named: "pagesCount")?.derivationExpression == "count:(pages)")
        let fromXML = VersionHasher.hashes(of: xml), fromCache = VersionHasher.hashes(of: cached)
        // Author's unbounded to-many is -1 in this code-built model, 0 in any XML model: not comparable.
        for entity in ["Book", "GraphicNovel", "Page", "Feedback", "Writer"] {
            #expect(fromXML.entityHashes[entity] == fromCache.entityHashes[entity], "\(entity)")
            #expect(fromXML.entityHashes[entity] == sample.storedHashes[entity], "\(entity)")
        }
    }

    @Test("validation rules and Spotlight indexing of relationships decode from the stores that have them",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func validationRulesAndSpotlight() throws {
        let stores = Dictionary(uniqueKeysWithValues: try ModelCacheSample.withModelCache().map { ($0.sample.name, $0.cache) })
        let admin = try ModelArchiveDecoder.decodeModelCache(try #require(stores["RMAdminStore-Local"]), name: "RMAdmin")
        #expect(admin.entity(named: "CoreUser")?.attribute(named: "passcodeEntryAttemptCount")?.validationRules
            == [ValidationRule(predicate: "SELF >= 0", warning: .code(1620))])
        let notes = try ModelArchiveDecoder.decodeModelCache(try #require(stores["NoteStore"]), name: "NoteStore")
        #expect(notes.entity(named: "ICAccount")?.attribute(named: "serverSideUpdateTaskFailureCount")?.validationRules
            == [ValidationRule(predicate: "SELF >= 0", warning: .code(1620))])
        #expect(notes.entity(named: "ICNote")?.relationship(named: "noteData")?.isIndexedBySpotlight == true)
        #expect(notes.entity(named: "ICAttachment")?.relationship(named: "location")?.isIndexedBySpotlight == true)
        #expect(notes.entities.flatMap(\.relationships).filter(\.isIndexedBySpotlight).count == 2)
        let sample = try ModelArchiveDecoder.decodeModelCache(try #require(stores["SampleModel2_V1"]), name: "SampleModel2_V1")
        #expect(sample.entity(named: "Book")?.attribute(named: "title")?.validationRules == [
            ValidationRule(predicate: "length >= 3 AND length <= 50", warning: .message("Title must have a length between 3 and 50 chars.")),
            ValidationRule(predicate: "SELF CONTAINS \"title\"", warning: .message("Title must contain 'title'.")),
        ])
    }

    @Test("defaults decoded from a store equal those its XML model compiles to, Boolean-style spellings included",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func defaultsMatchTheXMLModel() throws {
        let store = try #require(try ModelCacheSample.withModelCache().first { $0.sample.name == "ATDataModelv6" })
        let decoded = try ModelArchiveDecoder.decodeModelCache(store.cache, name: "ATDataModel 6")
        let xml = try XcodeModelLoader.loadModel(at: TestPaths.corpus
            + "/coredata/apptentive__apptentive-ios/Apptentive/Apptentive/Model/ATDataModel.xcdatamodeld/ATDataModel 6.xcdatamodel")
        func defaults(_ model: ManagedObjectModel) -> [String] {
            model.entities.flatMap { entity in
                entity.attributes.map { "\(entity.name).\($0.name) = \($0.defaultValueString ?? "none")" }
            }.sorted()
        }
        #expect(defaults(decoded) == defaults(xml))
        // The XML says YES on an Integer 32 and NO on a Boolean; the store holds the numbers 0 and 0.
        #expect(defaults(xml).contains("ATMessage.pendingState = 0"))
        #expect(defaults(xml).contains("ATMessage.errorOccurred = NO"))
    }

    @Test("decoded store models survive encode → decode, and re-encoded properties carry the store's keys and _P words",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func cachesRoundTrip() throws {
        for (sample, cache) in try ModelCacheSample.withModelCache() {
            let model = try ModelArchiveDecoder.decodeModelCache(cache, name: sample.name)
            let encoded = try ModelArchiveEncoder.encodeModelCache(model)
            let again = try ModelArchiveDecoder.decodeModelCache(encoded, name: sample.name)
            #expect(again == model, "\(sample.name)")
            #expect(VersionHasher.hashes(of: again).differingEntities(from: sample.storedHashes).isEmpty,
                    "\(sample.name) hashes after the round trip")
            let original = try propertyShapes(KeyedArchive(bytes: RawDeflate.inflate(cache)))
            let written = try propertyShapes(KeyedArchive(bytes: RawDeflate.inflate(encoded)))
            #expect(original.keys.sorted() == written.keys.sorted(), "\(sample.name) listed properties")
            let differingShapes = original.filter { written[$0.key] != $0.value }
            #expect(differingShapes.isEmpty,
                    "\(sample.name) property shapes, store vs written: \(differingShapes.map { "\($0.key): \($0.value) vs \(written[$0.key] ?? "nothing")" })")
        }
    }

    /// "Entity.property" → class, `_P` and field names of every property object an entity lists,
    /// and the `NSReferenceID` of a proxy.
    private func propertyShapes(_ archive: KeyedArchive) throws -> [String: String] {
        var shapes: [String: String] = [:]
        for (entityName, entityIndex) in try archive.root().entries("NSEntities") {
            let entity = try archive.object(at: entityIndex, keyPath: entityName)
            for (name, index) in try entity.entries("NSProperties") {
                let property = try archive.object(at: index, keyPath: name)
                let fields = property.fields.keys.filter { $0 != "$class" }.sorted().joined(separator: ",")
                let reference = try property.integer("NSReferenceID").map { " NSReferenceID=\($0)" } ?? ""
                shapes[entityName + "." + name] = "\(property.className) _P=\(try property.integer("_P") ?? -1) [\(fields)]\(reference)"
            }
        }
        return shapes
    }
}
