import Ferry
import FerryMigration
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A written mapping's `where` filter leaves out only the records it says no to: Binary values
/// are values, a pattern that cannot compile fails the mapping, and a filter that cannot be
/// evaluated on a record rejects that record.
@Suite("written mappings: where filters")
struct MappingFilterTests {
    private static let entity = """
        <entity name="Post" representedClassName="Post" syncable="YES">
            <attribute name="title" attributeType="String"/>
            <attribute name="pattern" optional="YES" attributeType="String"/>
            <attribute name="image" optional="YES" attributeType="Binary"/>
        </entity>
        """

    /// Migrates `records` (JSON) from Blog 1 to Blog 2 with a mapping whose filter is `filter`.
    private func migrate(_ filter: String, _ records: String, name: String) throws -> (MigrationSummary, String) {
        let folder = try TestPaths.temporaryFolder(name)
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\#(Self.entity)</model>"#
        let bundle = try TestPaths.xcodeModelBundle("Blog", versions: [("Blog 1", xml), ("Blog 2", xml)], in: folder)
        try Data("mapping \"Blog 1\" -> \"Blog 2\"\nentity Post\n  where \(filter)\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/Blog 1 to Blog 2.mapping"))
        let source = folder + "/posts.json"
        try Data(records.utf8).write(to: URL(fileURLWithPath: source))
        let out = folder + "/Blog2.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(argument: "Post@Blog 1:\(source)")],
                                                             modelPath: bundle, outputPath: out)).run()
        return (summary, out)
    }

    @Test("image != nil keeps the posts that have an image (Binary values read as nil, and every post was filtered out)")
    func binaryIsAValue() throws {
        let posts = #"[{"title": "with", "image": "aGVsbG8="}, {"title": "without"}]"#
        let (kept, out) = try migrate("image != nil", posts, name: "filter-binary")
        #expect(kept.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZTITLE FROM ZPOST") == ["with"])
        let (other, otherOut) = try migrate("image == nil", posts, name: "filter-binary-nil")
        #expect(other.verification?.passed == true)
        #expect(try storeRows(otherOut, "SELECT ZTITLE FROM ZPOST") == ["without"])
    }

    @Test("a MATCHES pattern that does not compile fails the mapping before anything is read (every record was filtered out, exit 0)")
    func badPatternFailsTheMapping() throws {
        let error = try #require(throws: MigrateError.self) { try migrate(#"title MATCHES "[a-""#, #"[{"title": "a"}]"#, name: "filter-regex") }
        #expect(error.description.contains("invalid MATCHES pattern \"[a-\""), "\(error)")
    }

    @Test("a filter that cannot be evaluated on a record rejects that record, named, instead of leaving it out")
    func unevaluableFilterRejects() throws {
        let (summary, out) = try migrate("title MATCHES pattern", #"[{"title": "abc", "pattern": "a.c"}, {"title": "x", "pattern": "[x-"}]"#,
                                         name: "filter-record-regex")
        #expect(summary.rejected == 1 && summary.sampleRejects.first?.reason.contains("invalid MATCHES pattern \"[x-\"") == true,
                "\(summary.sampleRejects)")
        #expect(try storeRows(out, "SELECT ZTITLE FROM ZPOST") == ["abc"])
    }
}
