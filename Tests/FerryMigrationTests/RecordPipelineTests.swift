import FerryMigration
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// The record pipeline on its own: sources given as cursors of records built here, a chain of one
/// version or of two Workspace versions, and the store it writes read back with SQL.
@Suite("record pipeline")
struct RecordPipelineTests {
    private let bundle: ModelBundle
    private let last: ManagedObjectModel

    init() throws {
        bundle = try XcodeModelLoader.loadBundle(at: TestPaths.migrations + "/Workspace.xcdatamodeld")
        last = try #require(bundle.version(named: "Workspace 3"))
    }

    /// Items handed out in order; `finish` reports `skipped` lines of `entity`.
    private final class ListCursor: RecordCursor {
        let path: String
        let version: Int
        let total: Int? = nil
        let keepsOneToOneSides = false
        let bringsNewObjects = true
        private var items: [SourceItem]
        private let skipped: Int
        private let entity: String
        private(set) var finishedWith: (read: [String: Int], stopped: Bool)?

        init(path: String, version: Int, entity: String, items: [SourceItem], skipped: Int = 0) {
            self.path = path
            self.version = version
            self.entity = entity
            self.items = items.reversed()
            self.skipped = skipped
        }

        func next() throws(PipelineError) -> SourceItem? { items.popLast() }

        func finish(read: [String: Int], stopped: Bool) throws(PipelineError) -> SourceEnd {
            finishedWith = (read, stopped)
            return SourceEnd(skippedLines: skipped, entity: entity)
        }
    }

    /// A pipeline writing a new store at `path` of the last of `versions`, keeping the first of duplicates.
    private func pipeline(at path: String, versions: [ManagedObjectModel], limit: Int? = nil) throws -> RecordPipeline {
        let model = versions[versions.count - 1]
        let hashes = VersionHasher.hashes(of: model)
        let writer = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: hashes.entityHashes, versionIdentifiers: [""])
        var steps: [MappingModel] = []
        for index in versions.indices.dropLast() {
            steps.append(MappingInference.infer(from: versions[index], to: versions[index + 1]))
        }
        let chain = MigrationChain(versions: versions, steps: steps, options: CoercionOptions(), variables: [:])
        return RecordPipeline(chain: chain, graph: StoreGraphWriter(writer: writer, model: model, duplicates: .keepFirst), rejects: RejectCollector(limit: limit))
    }

    private func tag(_ name: String, line: Int, row: Int64? = nil) throws -> SourceItem {
        let schema = try #require(RecordSchema(model: last, entityName: "Tag"))
        let values = schema.attributes.map { $0.name == "name" ? AttributeValue.string(name) : .null }
        return .record(Record(values: values, location: SourceLocation(file: "tags", line: line)), entity: "Tag", defaulted: line == 2, row: row)
    }

    @Test("every item is counted once: written, merged, rejected, skipped; the cursor is told what was read")
    func ledger() throws {
        let path = try TestPaths.temporaryFolder("pipeline-ledger") + "/out.sqlite"
        var pipeline = try pipeline(at: path, versions: [last])
        let bad = Reject(location: SourceLocation(file: "tags", line: 3), entity: "Tag", reason: "not a tag")
        let cursor = ListCursor(path: "tags", version: 0, entity: "Tag",
                                items: [try tag("work", line: 1), try tag("home", line: 2), .reject(bad, entity: "Tag"), try tag("work", line: 4)],
                                skipped: 2)
        try pipeline.read(cursor, namespace: 0)
        try pipeline.graph.writer.finish()

        let ledger = try #require(pipeline.ledgers.first)
        #expect(pipeline.ledgers.count == 1)
        #expect((ledger.read, ledger.written, ledger.merged, ledger.rejected, ledger.skipped) == (6, 2, 1, 1, 2))
        #expect(ledger.isBalanced && ledger.version == "Workspace 3")
        #expect((pipeline.records.read, pipeline.records.written, pipeline.records.defaulted) == (6, 2, 1))
        #expect(pipeline.sampleRejects == [bad])
        #expect(cursor.finishedWith?.read == ["Tag": 4] && cursor.finishedWith?.stopped == false)
        #expect(try storeRows(path, "SELECT ZNAME FROM ZTAG ORDER BY Z_PK") == ["work", "home"])
    }

    @Test("the reject limit stops reading the source: the cursor is told, nothing more is read")
    func stopsAtLimit() throws {
        let path = try TestPaths.temporaryFolder("pipeline-limit") + "/out.sqlite"
        var pipeline = try pipeline(at: path, versions: [last], limit: 1)
        let bad = Reject(location: SourceLocation(file: "tags", line: 1), entity: "Tag", reason: "not a tag")
        let cursor = ListCursor(path: "tags", version: 0, entity: "Tag", items: [.reject(bad, entity: "Tag"), try tag("work", line: 2)])
        try pipeline.read(cursor, namespace: 0)
        pipeline.graph.writer.discard()
        #expect(pipeline.stoppedEarly)
        #expect(pipeline.records.read == 1 && pipeline.records.written == 0)
        #expect(cursor.finishedWith?.stopped == true)
    }

    @Test("records of the oldest version are carried through the chain, renamed as the next version names them")
    func carriesThroughChain() throws {
        let path = try TestPaths.temporaryFolder("pipeline-chain") + "/out.sqlite"
        let versions = Array(bundle.versions.prefix(2))
        var pipeline = try pipeline(at: path, versions: versions)
        let schema = try #require(RecordSchema(model: versions[0], entityName: "UploadEntity"))
        let values = schema.attributes.map { attribute -> AttributeValue in
            switch attribute.name {
            case "urlPath": .string("/a.jpg")
            case "fileName": .string("a.jpg")
            default: .null
            }
        }
        let record = SourceItem.record(Record(values: values, location: SourceLocation(file: "uploads", line: 1)), entity: "UploadEntity",
                                       defaulted: false, row: nil)
        try pipeline.read(ListCursor(path: "uploads", version: 0, entity: "UploadEntity", items: [record]), namespace: 0)
        try pipeline.graph.writer.finish()
        #expect(pipeline.written == ["Upload": 1])
        #expect(pipeline.ledgers.map(\.version) == ["Workspace 1"] && pipeline.ledgers.allSatisfy(\.isBalanced))
        #expect(try storeRows(path, "SELECT ZREMOTEPATH FROM ZUPLOAD") == ["/a.jpg"])
    }

    @Test("records that keep their source's keys get them, the keys between reserved; a key out of order stops the run")
    func keepsSourceKeys() throws {
        let path = try TestPaths.temporaryFolder("pipeline-keys") + "/out.sqlite"
        var pipeline = try pipeline(at: path, versions: [last])
        pipeline.keepsSourceKeys = true
        try pipeline.read(ListCursor(path: "tags", version: 0, entity: "Tag",
                                     items: [try tag("a", line: 1, row: 2), try tag("b", line: 2, row: 5)]), namespace: 0)
        #expect(throws: PipelineError.self) {
            try pipeline.read(ListCursor(path: "more", version: 0, entity: "Tag", items: [try tag("c", line: 1, row: 5)]), namespace: 1)
        }
        try pipeline.graph.writer.finish()
        #expect(try storeRows(path, "SELECT Z_PK, ZNAME FROM ZTAG ORDER BY Z_PK") == ["2|a", "5|b"])
        #expect(try storeRows(path, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Tag'") == ["5"])
    }
}
