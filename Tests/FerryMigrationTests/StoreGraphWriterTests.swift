import FerryMigration
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

@Suite("writing linked records")
struct StoreGraphWriterTests {
    private let model: ManagedObjectModel
    private let upload: RecordSchema
    private let task: RecordSchema
    private let tag: RecordSchema

    init() throws {
        let bundle = try XcodeModelLoader.loadBundle(at: TestPaths.migrations + "/Workspace.xcdatamodeld")
        model = try #require(bundle.version(named: "Workspace 3"))
        upload = try #require(RecordSchema(model: model, entityName: "Upload"))
        task = try #require(RecordSchema(model: model, entityName: "Task"))
        tag = try #require(RecordSchema(model: model, entityName: "Tag"))
    }

    private func makeWriter(_ folder: String, duplicates: DuplicatePolicy = .reject,
                            createMissing: Set<String> = []) throws -> (StoreGraphWriter, String) {
        let path = folder + "/Workspace.sqlite"
        let hashes = VersionHasher.hashes(of: model)
        let store = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: hashes.entityHashes,
                                                   versionIdentifiers: [""], batchSize: 7)
        return (StoreGraphWriter(writer: store, model: model, duplicates: duplicates, createMissing: createMissing), path)
    }

    private func values(_ schema: RecordSchema, _ pairs: [String: AttributeValue]) -> [AttributeValue] {
        schema.attributes.map { pairs[$0.name] ?? .null }
    }

    private func uploadRecord(_ number: Int, key: Int64? = nil) -> Record {
        Record(values: values(upload, ["remotePath": .string("/u/\(number).jpg"), "kind": .integer(5),
                                       "uploadID": .uuid(UUIDBytes([UInt8](repeating: UInt8(number), count: 16))!)]),
               location: SourceLocation(file: "uploads", line: number), key: key.map(RecordKey.integer))
    }


    @Test("attachments by remote path, tags found or created by name, a dangling link reported")
    func linksByAttribute() throws {
        let folder = try TestPaths.temporaryFolder("graph")
        let (graph, path) = try makeWriter(folder, createMissing: ["Task.tags"])
        for number in 1...4 { #expect(try graph.write(uploadRecord(number), schema: upload, namespace: 0) == .inserted) }
        #expect(try graph.write(Record(values: values(tag, ["name": .string("work")]), location: SourceLocation(file: "tags")),
                                schema: tag, namespace: 0) == .inserted)
        let tasks: [(Int64, [Int], [String])] = [(1, [1, 2], ["work", "家庭"]), (2, [3, 99], ["work"]), (3, [], [])]
        for (id, attachments, tags) in tasks {
            let record = Record(
                values: values(task, ["taskID": .integer(id), "title": .string("t\(id)")]),
                location: SourceLocation(file: "tasks.json", line: Int(id)),
                links: [RecordLink(relationship: "attachments",
                                   targets: attachments.map { .match(attribute: "remotePath", value: .string("/u/\($0).jpg")) }),
                        RecordLink(relationship: "tags", targets: tags.map { .match(attribute: "name", value: .string($0)) })])
            #expect(try graph.write(record, schema: task, namespace: 1) == .inserted)
        }
        var unresolved: [Reject] = []
        let reports = try graph.resolveLinks { unresolved.append($0) }
        try graph.writer.finish()

        let attachments = try #require(reports.first { $0.relationship == "Task.attachments" })
        #expect(attachments.links == 4 && attachments.resolved == 3 && attachments.unresolved == 1)
        // Located where the record was read (task 2 is on line 2), not by the row it got in the new store.
        #expect(unresolved == [Reject(location: SourceLocation(file: "tasks.json", line: 2), entity: "Task", attribute: "attachments",
                                      value: "/u/99.jpg", reason: "unresolved link: no Upload has remotePath '/u/99.jpg'")])
        #expect(attachments.unresolvedSamples == ["tasks.json:2: Task.attachments: unresolved link: no Upload has remotePath '/u/99.jpg'"])
        let tagReport = try #require(reports.first { $0.relationship == "Task.tags" })
        #expect(tagReport.links == 3 && tagReport.resolved == 3 && tagReport.created == 1)

        #expect(try storeRows(path, "SELECT u.ZREMOTEPATH, t.ZTASKID FROM ZUPLOAD u LEFT JOIN ZTASK t ON t.Z_PK = u.ZTASK ORDER BY u.Z_PK")
                == ["/u/1.jpg|1", "/u/2.jpg|1", "/u/3.jpg|2", "/u/4.jpg|NULL"])
        #expect(try storeRows(path, "SELECT Z_PK, ZNAME FROM ZTAG ORDER BY Z_PK") == ["1|work", "2|家庭"])
        #expect(try storeRows(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'") == ["2"])
        let join = try #require(try SQLiteDatabase(path: path, mode: .readOnly)
            .scalarText("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*'"))
        #expect(join == "Z_1TASKS")
        // Pairs (task, tag): task 1 with work and 家庭, task 2 with work.
        #expect(try storeRows(path, "SELECT t.ZTASKID, g.ZNAME FROM Z_1TASKS j JOIN ZTASK t ON t.Z_PK = j.Z_2TASKS JOIN ZTAG g ON g.Z_PK = j.Z_1TAGS ORDER BY 1, 2")
                == ["1|work", "1|家庭", "2|work"])
        #expect(try storeRows(path, "PRAGMA integrity_check") == ["ok"])
        #expect(try storeRows(path, "SELECT name FROM sqlite_master WHERE name LIKE '%ferry%'").isEmpty)
    }

    @Test("links by source key: a to-one written from either side, keys of two sources kept apart")
    func linksByKey() throws {
        let folder = try TestPaths.temporaryFolder("graph")
        let (graph, path) = try makeWriter(folder)
        // Source 0: tasks 10 and 11 with keys 1 and 2; uploads point at their task (to-one side).
        for (key, id) in [(Int64(1), Int64(10)), (2, 11)] {
            _ = try graph.write(Record(values: values(task, ["taskID": .integer(id), "title": .string("")]),
                                       location: SourceLocation(file: "a"), key: .integer(key)), schema: task, namespace: 0)
        }
        var first = uploadRecord(1, key: 1)
        first.links = [RecordLink(relationship: "task", targets: [.key(.integer(2))])]
        _ = try graph.write(first, schema: upload, namespace: 0)
        // Source 1 reuses key 1 for its own task, which lists its uploads (to-many side).
        _ = try graph.write(Record(values: values(task, ["taskID": .integer(20), "title": .string("")]),
                                   location: SourceLocation(file: "b"), key: .integer(1),
                                   links: [RecordLink(relationship: "attachments", targets: [.key(.integer(7)), .key(.integer(8))])]),
                            schema: task, namespace: 1)
        _ = try graph.write(uploadRecord(7, key: 7), schema: upload, namespace: 1)
        let reports = try graph.resolveLinks()
        try graph.writer.finish()
        #expect(reports.map(\.unresolved) == [0, 1])
        #expect(try storeRows(path, "SELECT u.ZREMOTEPATH, t.ZTASKID FROM ZUPLOAD u JOIN ZTASK t ON t.Z_PK = u.ZTASK ORDER BY u.Z_PK")
                == ["/u/1.jpg|11", "/u/7.jpg|20"])
    }

    @Test("duplicates on a uniqueness constraint: reject, keep the first, or keep the newest")
    func duplicates() throws {
        for policy in DuplicatePolicy.allCases {
            let folder = try TestPaths.temporaryFolder("graph")
            let (graph, path) = try makeWriter(folder, duplicates: policy)
            let outcomes = try ["first", "second"].map { title in
                try graph.write(Record(values: values(task, ["taskID": .integer(7), "title": .string(title)]),
                                       location: SourceLocation(file: "t")), schema: task, namespace: 0)
            }
            _ = try graph.resolveLinks()
            try graph.writer.finish()
            #expect(outcomes[0] == .inserted)
            switch policy {
            case .reject:
                #expect(outcomes[1] == .rejected(reason: "duplicate of an earlier record on unique (taskID)"))
                #expect(try storeRows(path, "SELECT ZTITLE FROM ZTASK") == ["first"])
            case .keepFirst:
                #expect(outcomes[1] == .merged(constraint: ["taskID"]))
                #expect(try storeRows(path, "SELECT ZTITLE FROM ZTASK") == ["first"])
            case .keepNewest:
                #expect(outcomes[1] == .merged(constraint: ["taskID"]))
                #expect(try storeRows(path, "SELECT ZTITLE FROM ZTASK") == ["second"])
            }
            #expect(try storeRows(path, "SELECT count(*), max(Z_PK) FROM ZTASK") == ["1|1"])
            #expect(try storeRows(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Task'") == ["1"])
        }
    }

    @Test("attributes that allow external storage match in their tagged form: duplicates on them are found, links by them resolve")
    func externallyStorableKeys() throws {
        let model = ManagedObjectModel(name: "Photos", entities: [
            Entity(name: "Album", attributes: [Attribute(name: "name", type: .string)],
                   relationships: [Relationship(name: "photos", destinationEntity: "Photo", inverseName: "album", isToMany: true)]),
            Entity(name: "Photo", attributes: [
                Attribute(name: "image", type: .binary, allowsExternalBinaryDataStorage: true), Attribute(name: "title", type: .string),
            ], relationships: [Relationship(name: "album", destinationEntity: "Album", inverseName: "photos")],
                   uniquenessConstraints: [["image"]]),
        ])
        let path = try TestPaths.temporaryFolder("graph") + "/Photos.sqlite"
        let store = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                   versionIdentifiers: [""])
        let graph = StoreGraphWriter(writer: store, model: model, duplicates: .keepNewest, createMissing: [])
        let photo = try #require(RecordSchema(model: model, entityName: "Photo"))
        let album = try #require(RecordSchema(model: model, entityName: "Album"))
        func write(_ schema: RecordSchema, _ pairs: [String: AttributeValue], links: [RecordLink] = []) throws -> StoreGraphWriter.Outcome {
            try graph.write(Record(values: schema.attributes.map { pairs[$0.name] ?? .null }, location: SourceLocation(file: "t"), links: links),
                            schema: schema, namespace: 0)
        }
        #expect(try write(photo, ["image": .binary([7]), "title": .string("old")]) == .inserted)
        #expect(try write(photo, ["image": .binary([7]), "title": .string("new")]) == .merged(constraint: ["image"]))
        #expect(try write(photo, ["image": .binary([8]), "title": .string("other")]) == .inserted)
        let link = RecordLink(relationship: "photos", targets: [.match(attribute: "image", value: .binary([8]))])
        #expect(try write(album, ["name": .string("A")], links: [link]) == .inserted)
        let reports = try graph.resolveLinks()
        try graph.writer.finish()
        #expect(reports.map(\.unresolved) == [0])
        #expect(try storeRows(path, "SELECT hex(p.ZIMAGE), p.ZTITLE, a.ZNAME FROM ZPHOTO p LEFT JOIN ZALBUM a ON a.Z_PK = p.ZALBUM ORDER BY p.Z_PK")
                == ["0107|new|NULL", "0108|other|A"])
    }

    @Test("a to-one link with several destinations, an unknown relationship or a match on no attribute is an error")
    func badLinks() throws {
        let folder = try TestPaths.temporaryFolder("graph")
        let (graph, _) = try makeWriter(folder)
        func failure(_ links: [RecordLink]) throws -> String {
            var record = uploadRecord(1)
            record.links = links
            return try #require(throws: GraphWriteError.self) { try graph.write(record, schema: upload, namespace: 0) }.description
        }
        // The record is named, with how many it lists, and what would let it through.
        #expect(try failure([RecordLink(relationship: "task", targets: [.key(.integer(1)), .key(.integer(2))])])
                .hasPrefix("Upload.task: a to-one relationship takes one destination in the version written, but the record at "))
        #expect(try failure([RecordLink(relationship: "task", targets: [.key(.integer(1)), .key(.integer(2))])])
                .hasSuffix(" lists 2 (was it a to-many?), and no rule chooses one: keep the relationship to-many, or drop its pairs with written "
                    + "rules `task <- nil` for Upload and `attachments <- nil` for Task"))
        #expect(try failure([RecordLink(relationship: "owner", targets: [.key(.integer(1))])]) == "entity 'Upload' has no relationship 'owner'")
        #expect(try failure([RecordLink(relationship: "task", targets: [.match(attribute: "colour", value: .string("red"))])])
                == "Upload.task: Task has no attribute 'colour' to match")
        let edge = #expect(throws: GraphWriteError.self) {
            try graph.stageLink(to: .key(.integer(2)), position: 1, relationship: "task", ofRecordWithKey: .integer(1), entity: "Upload",
                                namespace: 0, file: "Upload.sqlite")
        }
        // An edge read apart from its record: the count is not known yet (it said "not 2" of a record listing 5).
        #expect(edge?.description.contains("the record at Upload.sqlite Z_PK 1 lists more than one (was it a to-many?)") == true, "\(String(describing: edge))")
        graph.writer.discard()
    }
}
