import FerryFormats
import FerryModel
import Testing

/// The objects the encoder writes, key by key, where Core Data's form is known from store archives.
@Suite("Model archive shape")
struct ModelArchiveShapeTests {
    /// The object an entity lists under a property name in `NSProperties`.
    private func listed(_ property: String, of entity: String, in archive: KeyedArchive) throws -> ArchivedObject {
        let entities = try archive.root().entries("NSEntities")
        let entityIndex = try #require(entities.first { $0.key == entity }?.value)
        let properties = try archive.object(at: entityIndex, keyPath: entity).entries("NSProperties")
        let propertyIndex = try #require(properties.first { $0.key == property }?.value)
        return try archive.object(at: propertyIndex, keyPath: property)
    }

    @Test("a relationship without an inverse writes both inverse keys as $null")
    func relationshipWithoutInverse() throws {
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", relationships: [Relationship(name: "bs", destinationEntity: "B", isToMany: true)]),
            Entity(name: "B"),
        ])
        let archive = try KeyedArchive(bytes: ModelArchiveEncoder.encodeModel(model))
        let relationship = try listed("bs", of: "A", in: archive)
        #expect(relationship.fields["_NSInverseRelationshipName"] == .uid(0))
        #expect(relationship.fields["NSInverseRelationship"] == .uid(0))
        let decoded = try ModelArchiveDecoder.decodeModel(archive: ModelArchiveEncoder.encodeModel(model), name: "M")
        #expect(decoded.entity(named: "A")?.relationship(named: "bs")?.inverseName == nil)
    }

    /// plaso `netusage`'s `Process` and its sub-entity `App`, with the kinds of property that fix
    /// the order Core Data numbers them in.
    private func processAndApp(_ form: InheritedPropertyForm) -> ManagedObjectModel {
        func toMany(_ name: String, ordered: Bool = false) -> Relationship {
            Relationship(name: name, destinationEntity: "Usage", isToMany: true, isOrdered: ordered)
        }
        func hint(_ name: String) -> Relationship { Relationship(name: name, destinationEntity: "Usage", isTransient: true) }
        return ManagedObjectModel(name: "netusage", entities: [
            Entity(name: "Process",
                   attributes: ["timeStamp", "procName", "firstTimeStamp", "bundleName"].map { Attribute(name: $0, type: .string) },
                   relationships: [toMany("hasLiveUsage"), hint("hintLiveUsage")]),
            Entity(name: "App", parentName: "Process", relationships: [
                toMany("hasTypicalUsage", ordered: true), hint("hintCalendarUsage"), toMany("hasCalendarUsage"),
                toMany("hasAppRun"), toMany("hasAppExperience"), toMany("hasAppDomainUsage"),
            ]),
            Entity(name: "Usage"),
        ], inheritedPropertyForm: form)
    }

    @Test("inherited properties are written as proxies numbered in Core Data's property order, when the model says so")
    func inheritedPropertyProxies() throws {
        let model = processAndApp(.proxies)
        let bytes = try ModelArchiveEncoder.encodeModel(model)
        let archive = try KeyedArchive(bytes: bytes)
        let entities = Dictionary(uniqueKeysWithValues: try archive.root().entries("NSEntities").map { ($0.key, $0.value) })
        var references: [String: Int] = [:]
        for name in ["bundleName", "firstTimeStamp", "procName", "timeStamp", "hasLiveUsage", "hintLiveUsage"] {
            let proxy = try listed(name, of: "App", in: archive)
            #expect(proxy.className == "_NSPropertyDescriptionProxy")
            #expect(Set(proxy.fields.keys) == ["$class", "NSUnderlyingProperty", "NSEntityDescription", "NSReferenceID"])
            #expect(try proxy.reference("NSUnderlyingProperty") == listed(name, of: "Process", in: archive).index)
            #expect(try proxy.reference("NSEntityDescription") == entities["App"])
            references[name] = try proxy.integer("NSReferenceID")
        }
        // As netusage holds them: attributes 0-3, the inherited to-many ahead of App's own, the
        // inherited transient to-one (10) ahead of App's own (11).
        #expect(references == ["bundleName": 0, "firstTimeStamp": 1, "procName": 2, "timeStamp": 3,
                               "hasLiveUsage": 4, "hintLiveUsage": 10])
        #expect(try listed("hasAppRun", of: "App", in: archive).className == "NSRelationshipDescription")
        let decoded = try ModelArchiveDecoder.decodeModel(archive: bytes, name: "netusage")
        #expect(decoded.inheritedPropertyForm == .proxies)
        #expect(decoded.entity(named: "App")?.attributes.isEmpty == true)
    }

    @Test("inherited properties are written as copies by default, and decode as copies")
    func inheritedPropertyCopies() throws {
        let bytes = try ModelArchiveEncoder.encodeModel(processAndApp(.copies))
        let copy = try listed("procName", of: "App", in: KeyedArchive(bytes: bytes))
        #expect(copy.className == "NSAttributeDescription")
        #expect(try ModelArchiveDecoder.decodeModel(archive: bytes, name: "netusage").inheritedPropertyForm == .copies)
    }

    @Test("an ordering comparison's operator repeats its type as NSVariant, as Core Data writes it")
    func comparisonVariant() throws {
        let model = ManagedObjectModel(name: "M", entities: [Entity(name: "A", fetchedProperties: [
            FetchedProperty(name: "f", fetchEntity: "A", predicateString: "rank >= 2 AND rank <= 9 AND rank < 8 AND rank > 1"),
        ])])
        let archive = try KeyedArchive(bytes: ModelArchiveEncoder.encodeModel(model))
        var variants: [Int: Int] = [:]
        for index in archive.objects.indices where try archive.className(at: index, keyPath: "") == "NSComparisonPredicateOperator" {
            let op = try archive.object(at: index, keyPath: "")
            variants[try #require(try op.integer("NSOperatorType"))] = try op.integer("NSVariant")
        }
        #expect(variants == [0: 0, 1: 1, 2: 2, 3: 3])
    }

    @Test("validation rules and Spotlight indexing write their keys and _P bits as Apple's stores hold them")
    func validationRulesAndSpotlight() throws {
        let model = ManagedObjectModel(name: "M", entities: [Entity(
            name: "A",
            attributes: [Attribute(name: "n", type: .integer64, isOptional: false,
                                   validationRules: [ValidationRule(predicate: "SELF >= 0", warning: .code(1620))])],
            relationships: [Relationship(name: "b", destinationEntity: "A", isOptional: false, isIndexedBySpotlight: true)])])
        let bytes = try ModelArchiveEncoder.encodeModel(model)
        let archive = try KeyedArchive(bytes: bytes)
        // RMAdminStore-Local's CoreUser.passcodeEntryAttemptCount: _P 193, without the no-predicates/warnings bits.
        let number = try listed("n", of: "A", in: archive)
        #expect(try number.integer("_P") == 193)
        #expect(try archive.value(of: number, key: "NSValidationWarnings") == .array([.integer(1620)]))
        #expect(try number.elements("NSValidationPredicates").count == 1)
        // NoteStore's ICNote.noteData: _P 497 with NSIndexedBySpotlight.
        let relationship = try listed("b", of: "A", in: archive)
        #expect(try relationship.integer("_P") == 497)
        #expect(relationship.fields["NSIndexedBySpotlight"] == .bool(true))
        #expect(try ModelArchiveDecoder.decodeModel(archive: bytes, name: "M") == model)
    }
}
