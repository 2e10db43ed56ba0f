@testable import Ferry
import FerryMigration
import FerryModel
import FerryTestSupport
import Testing

/// Core Data's semantics of a declarative mapping model, as Ferry's chain runs it: exact entities,
/// filters, `$source` key paths, constants and defaults, links by mapping name and by source
/// relationship, a second mapping of one source entity with links back to the first's record,
/// and refusals with what to do instead.
@Suite("Core Data mapping models as chain steps")
struct DeclarativeMappingTests {
    private static let notes1 = ManagedObjectModel(name: "Notes 1", entities: [
        Entity(name: "Note", attributes: [Attribute(name: "title", type: .string), Attribute(name: "body", type: .string),
                                          Attribute(name: "archived", type: .boolean)],
               relationships: [Relationship(name: "folder", destinationEntity: "Folder", inverseName: "notes"),
                               Relationship(name: "tags", destinationEntity: "Tag", inverseName: "notes", isToMany: true)]),
        Entity(name: "Folder", attributes: [Attribute(name: "name", type: .string)],
               relationships: [Relationship(name: "notes", destinationEntity: "Note", inverseName: "folder", isToMany: true)]),
        Entity(name: "Tag", attributes: [Attribute(name: "name", type: .string)],
               relationships: [Relationship(name: "notes", destinationEntity: "Note", inverseName: "tags", isToMany: true)]),
        Entity(name: "Draft", attributes: [Attribute(name: "text", type: .string)]),
    ])

    private static let notes2 = ManagedObjectModel(name: "Notes 2", entities: [
        Entity(name: "Note", attributes: [Attribute(name: "title", type: .string), Attribute(name: "text", type: .string),
                                          Attribute(name: "pinned", type: .boolean, isOptional: false, defaultValueString: "NO"),
                                          Attribute(name: "kind", type: .integer16)],
               relationships: [Relationship(name: "folder", destinationEntity: "Folder", inverseName: "notes"),
                               Relationship(name: "tags", destinationEntity: "Tag", inverseName: "notes", isToMany: true),
                               Relationship(name: "attachment", destinationEntity: "Attachment", inverseName: "note")]),
        Entity(name: "Attachment", attributes: [Attribute(name: "caption", type: .string)],
               relationships: [Relationship(name: "note", destinationEntity: "Note", inverseName: "attachment")]),
        Entity(name: "Folder", attributes: [Attribute(name: "name", type: .string)],
               relationships: [Relationship(name: "notes", destinationEntity: "Note", inverseName: "folder", isToMany: true)]),
        Entity(name: "Tag", attributes: [Attribute(name: "name", type: .string)],
               relationships: [Relationship(name: "notes", destinationEntity: "Note", inverseName: "tags", isToMany: true)]),
    ])

    private typealias Form = MappingExpressionForm

    /// An entity mapping as the mapping compiler writes one.
    private static func mapping(_ source: String, _ destination: String, filter: String = "TRUEPREDICATE", policy: String? = nil,
                                attributes: [String: ArchivedExpression?], relationships: [String: ArchivedExpression] = [:]) -> CoreDataEntityMapping {
        CoreDataEntityMapping(
            name: "\(source)To\(destination)", type: policy != nil ? .custom : source == destination ? .copy : .transform,
            sourceEntityName: source, sourceEntityVersionHash: VersionHasher.hashes(of: notes1).entityHashes[source],
            destinationEntityName: destination, destinationEntityVersionHash: VersionHasher.hashes(of: notes2).entityHashes[destination],
            sourceExpression: Form.sourceFetch(entity: source, predicate: filter), migrationPolicyClassName: policy,
            attributeMappings: attributes.sorted { $0.key < $1.key }.map { CoreDataPropertyMapping(name: $0.key, valueExpression: $0.value) },
            relationshipMappings: relationships.sorted { $0.key < $1.key }.map { CoreDataPropertyMapping(name: $0.key, valueExpression: $0.value) })
    }

    /// Note makes a Note (its body becomes text, kind is 3, pinned the default) and, unless it is
    /// archived, an Attachment linked to that Note; folders and tags are copied.
    private static func notesModel(notePolicy: String? = nil, extra: [CoreDataEntityMapping] = []) -> CoreDataMappingModel {
        CoreDataMappingModel(path: "Notes.xcmappingmodel", entityMappings: [
            mapping("Note", "Note", policy: notePolicy,
                    attributes: ["title": Form.sourceKeyPath("title"), "text": Form.sourceKeyPath("body"), "pinned": nil,
                                 "kind": .constant(.integer(3))],
                    relationships: ["folder": Form.destinationInstances(.entityMapping("FolderToFolder"), sourceInstances: Form.sourceKeyPath("folder")),
                                    "tags": Form.destinationInstances(.sourceRelationship("tags"), sourceInstances: Form.sourceKeyPath("tags")),
                                    "attachment": Form.destinationInstances(.entityMapping("NoteToAttachment"), sourceInstances: .variable("source"))]),
            mapping("Note", "Attachment", filter: "archived == NO", attributes: ["caption": Form.sourceKeyPath("title")],
                    relationships: ["note": Form.destinationInstances(.entityMapping("NoteToNote"), sourceInstances: .variable("source"))]),
            mapping("Folder", "Folder", attributes: ["name": Form.sourceKeyPath("name")],
                    relationships: ["notes": Form.destinationInstances(.sourceRelationship("notes"), sourceInstances: Form.sourceKeyPath("notes"))]),
            mapping("Tag", "Tag", attributes: ["name": Form.sourceKeyPath("name")],
                    relationships: ["notes": Form.destinationInstances(.sourceRelationship("notes"), sourceInstances: Form.sourceKeyPath("notes"))]),
        ] + extra)
    }

    private static func step(_ model: CoreDataMappingModel) -> MappingModel {
        DeclarativeMapping.translate(model, from: notes1, to: notes2, writtenMappingPath: "Notes 1 to Notes 2.mapping")
    }

    private static func note(title: String, archived: Bool, key: Int64) throws -> Record {
        let schema = try #require(RecordSchema(model: notes1, entityName: "Note"))
        let values: [String: AttributeValue] = ["title": .string(title), "body": .string("body of \(title)"), "archived": .bool(archived)]
        return Record(values: schema.attributes.map { values[$0.name] ?? .null }, location: SourceLocation(file: "notes"), key: .integer(key),
                      links: [RecordLink(relationship: "folder", targets: [.key(.integer(1))]),
                              RecordLink(relationship: "tags", targets: [.key(.integer(2)), .key(.integer(3))])])
    }

    @Test("the translated step: exact entities, a second mapping of Note as a branch, Draft dropped, rules from the model")
    func translation() throws {
        let step = Self.step(Self.notesModel())
        #expect(step.mappingModelPath == "Notes.xcmappingmodel")
        #expect(step.entities.map(\.destination) == ["Note", "Folder", "Tag"] && step.branches.map(\.destination) == ["Attachment"])
        #expect(step.droppedEntities == ["Draft"] && step.addedEntities.isEmpty && step.refused.isEmpty)
        let note = try #require(step.mapping(forSource: "Note"))
        #expect(note.attributes.map { MigrationPlan.describe($0.rule) } == ["copy title", "copy body", "default", "= 3"])
        #expect(note.attributes.allSatisfy { $0.origin == .mappingModel })
        #expect(note.relationships == [RelationshipMapping(destination: "folder", source: "folder", origin: .mappingModel),
                                       RelationshipMapping(destination: "tags", source: "tags", origin: .mappingModel)])
        #expect(note.sourceRecordLinks == ["attachment"])
        #expect(step.branches.first?.filter?.text == "archived == NO")
    }

    @Test("a relationship the mapping model sets on one side only is carried on both, as Core Data sets inverses")
    func inverseSide() throws {
        var model = Self.notesModel()
        model.entityMappings[0].relationshipMappings.removeAll { $0.name == "folder" }
        let step = Self.step(model)
        #expect(step.mapping(forSource: "Note")?.relationships.contains(RelationshipMapping(destination: "folder", source: "folder", origin: .mappingModel)) == true)
        #expect(step.mapping(forSource: "Folder")?.relationships == [RelationshipMapping(destination: "notes", source: "notes", origin: .mappingModel)])
    }

    @Test("one source record feeds both mappings, linked to each other; the second mapping's filter applies to its records only")
    func fanOut() throws {
        let chain = MigrationChain(versions: [Self.notes1, Self.notes2], steps: [Self.step(Self.notesModel())], options: .init(), variables: [:])
        let route = chain.route(entity: "Note", from: 0)
        guard case let .record(note, entity, _, made) = try chain.carry(Self.note(title: "a", archived: false, key: 5), route: route) else {
            Issue.record("the note was not carried")
            return
        }
        #expect(entity == "Note")
        let schema = try #require(chain.schema(version: 1, entity: "Note"))
        #expect(note.values == schema.attributes.map { ["title": .string("a"), "text": .string("body of a"), "pinned": .bool(false), "kind": .integer(3)][$0.name] ?? .null })
        #expect(note.key == .integer(5))
        #expect(note.links.contains(RecordLink(relationship: "attachment", targets: [.key(.integer(5))])))
        #expect(note.links.contains(RecordLink(relationship: "tags", targets: [.key(.integer(2)), .key(.integer(3))])))
        #expect(made.count == 1 && made.first?.version == 1 && made.first?.record.entity == "Attachment")
        #expect(made.first?.record.record.key == .integer(5))
        #expect(made.first?.record.record.links == [RecordLink(relationship: "note", targets: [.key(.integer(5))])])
        guard case let .record(_, _, _, archived) = try chain.carry(Self.note(title: "b", archived: true, key: 6), route: route) else {
            Issue.record("the archived note was not carried")
            return
        }
        #expect(archived.isEmpty)
    }

    @Test("a custom policy is refused when a record reaches it, and a written block for its entity runs in its place")
    func policyRefusedAndConverted() throws {
        let step = Self.step(Self.notesModel(notePolicy: "Notes.NoteMigrationPolicy"))
        let refusal = try #require(step.refusal(forSource: "Note"))
        #expect(refusal.policyClass == "Notes.NoteMigrationPolicy" && refusal.entityMapping == "NoteToNote")
        #expect(refusal.error.description == "Notes.xcmappingmodel: entity mapping NoteToNote: it runs the migration policy class Notes.NoteMigrationPolicy, app code Ferry cannot run: write what it does as a written mapping, an 'entity Note' block in \"Notes 1 to Notes 2.mapping\", which Ferry runs in its place")
        let chain = MigrationChain(versions: [Self.notes1, Self.notes2], steps: [step], options: .init(), variables: [:])
        #expect(throws: refusal.error) { try chain.carry(Self.note(title: "a", archived: false, key: 5), route: chain.route(entity: "Note", from: 0)) }
        // Records of other entities cross the step.
        let folder = try #require(RecordSchema(model: Self.notes1, entityName: "Folder"))
        let carried = try chain.carry(Record(values: folder.attributes.map { _ in .string("inbox") }, location: SourceLocation(file: "folders"), key: .integer(1)),
                                      route: chain.route(entity: "Folder", from: 0))
        guard case .record = carried else {
            Issue.record("the folder was not carried")
            return
        }
        let file = try MappingFile(text: "entity Note\n  text = upper(body)\n", path: "Notes 1 to Notes 2.mapping")
        let converted = try WrittenMapping.apply(file, to: step, source: Self.notes1, destination: Self.notes2)
        #expect(converted.refused.isEmpty)
        let note = try #require(converted.mapping(forSource: "Note"))
        #expect(note.attributes.map { MigrationPlan.describe($0.rule) } == ["copy title", "= upper(body)", "default", "= 3"])
    }

    /// A second `where` replaced the first without a word (records it left out were written),
    /// as a second `unique`, `todo` or `entity` block of one source did.
    @Test("a second where, unique or todo for an entity, or a second destination for one source entity, is an error naming both lines")
    func secondDirectives() throws {
        let cases: [(String, String)] = [
            ("entity Note\n  where priority > 1\n  where title != nil\n",
             "m.mapping:3:3: a second where in this entity block (the first is at line 2): join the conditions with 'and' in one where"),
            ("entity Note\n  unique title keep first\n  unique body keep newest\n", "m.mapping:3:3: a second unique in this entity block (the first is at line 2)"),
            ("entity Note\n  todo \"a\"\n  todo \"b\"\n", "m.mapping:3:3: a second todo in this entity block (the first is at line 2)"),
            ("entity Note\n  text = body\nentity Note -> Memo\n  text = title\n",
             "m.mapping:3:1: entity Note is mapped to Memo here and to Note at line 1; a source entity maps to one destination"),
            ("entity Note\n  where priority > 1\nentity Note\n  where title != nil\n",
             "m.mapping:4:1: a second where for entity Note (the first is at line 2): keep one"),
            ("entity Note\n  note \"no condition\"\n", "m.mapping:2:8: expected note \"WHAT IS REPORTED\" if CONDITION"),
            ("entity Note\n  note \"bad\" if priority >\n", "m.mapping:2:"),
        ]
        for (text, message) in cases {
            let error = try #require(throws: MappingError.self) { try MappingFile(text: text, path: "m.mapping") }
            #expect(error.description.hasPrefix(message), "\(error)")
        }
        // A second rule for one attribute wins, in one block or an appended one: a converted
        // mapping model is completed below its rules.
        let file = try MappingFile(text: "entity Note\n  text = body\n  text = title\nentity Note\n  title = body\n", path: "m.mapping")
        #expect(file.entities.first?.rules.count == 2 && file.entities.count == 2)
    }

    /// Under --lenient, a failing rule of a required attribute without a default rejected the
    /// record as "required and has no value or default", the rule's failure unsaid.
    @Test("lenient: a required attribute whose rule failed is rejected with the rule's failure")
    func lenientRequired() throws {
        let folder = try TestPaths.temporaryFolder("lenient-required")
        let version = { (attribute: String) in
            #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
                + #"<entity name="Rec" syncable="YES">\#(attribute)</entity></model>"#
        }
        let model = try TestPaths.xcodeModelBundle("R", versions: [
            ("R 1", version(#"<attribute name="s" optional="YES" attributeType="String"/>"#)),
            ("R 2", version(#"<attribute name="n" attributeType="Integer 64" usesScalarValueType="YES"/>"#)),
        ], in: folder)
        try "mapping \"R 1\" -> \"R 2\"\nentity Rec\n  n = integer(s)\n".write(toFile: model + "/../R 1 to R 2.mapping", atomically: true, encoding: .utf8)
        try "{\"s\": \"x\"}\n{\"s\": \"7\"}\n".write(toFile: folder + "/in.ndjson", atomically: true, encoding: .utf8)
        let run = try FerryProcess.run(["migrate", "Rec:" + folder + "/in.ndjson", "--model", model, "--lenient", "--out", folder + "/out.sqlite"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("Rec.n is required and has no value or default (its rule failed: integer(s): 'x' is not an integer)"),
                "\(run.err)")
    }

    @Test("what Ferry cannot run as Core Data would is refused per entity mapping, with the reason")
    func refusals() throws {
        func reason(_ extra: CoreDataEntityMapping, _ source: String) -> String? {
            Self.step(Self.notesModel(extra: [extra])).refusal(forSource: source)?.error.description
        }
        #expect(reason(Self.mapping("Draft", "Tag", attributes: ["name": Form.sourceKeyPath("folder.name")]), "Draft")
            == "Notes.xcmappingmodel: entity mapping DraftToTag, name: $source.folder.name reads through a relationship: Ferry's records carry their own attributes only; write the rule in a written mapping")
        #expect(reason(Self.mapping("Draft", "Tag", attributes: ["name": .function(operand: .variable("source"), selector: "uppercaseString", arguments: [])]), "Draft")
            == "Notes.xcmappingmodel: entity mapping DraftToTag, name: Ferry runs attribute expressions $source.ATTRIBUTE and constants, not FUNCTION($source, \"uppercaseString\"); write the rule in a written mapping")
        #expect(reason(Self.mapping("Draft", "Tag", attributes: [:], relationships: [
            "notes": Form.destinationInstances(.entityMapping("NoteToAttachment"), sourceInstances: .variable("source"))]), "Draft")
            == "Notes.xcmappingmodel: entity mapping DraftToTag, notes: NoteToAttachment makes Attachment, which is not a Note")
        #expect(reason(Self.mapping("Note", "Folder", attributes: [:]), "Note")
            == "Notes.xcmappingmodel: entity mapping NoteToAttachment: 3 entity mappings take Note objects: Ferry runs at most two mappings of one source entity")
        #expect(reason(Self.mapping("Tag", "Folder", attributes: [:], relationships: [
            "notes": Form.destinationInstances(.sourceRelationship("notes"), sourceInstances: Form.sourceKeyPath("notes"))]), "Tag")
            == "Notes.xcmappingmodel: entity mapping TagToFolder: it carries Tag.notes, whose links a store keeps apart from its rows: Ferry carries those along the first mapping of Tag only")
        // A second mapping into another entity tree is a branch, not a refusal.
        #expect(reason(Self.mapping("Folder", "Tag", attributes: [:]), "Folder") == nil)
        var again = Self.mapping("Folder", "Folder", attributes: [:])
        again.name = "FolderToFolder2"
        #expect(reason(again, "Folder")
            == "Notes.xcmappingmodel: entity mapping FolderToFolder2: FolderToFolder and FolderToFolder2 make records of one entity tree (Folder) from the same objects: Ferry's links could not tell them apart")
    }
}
