import Ferry
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// `ferry verify STORE` without `--against` compares a migrated store's fingerprints with the
/// receipt its migration left: a store changed since (by an app, by hand) says which entities
/// and relationships, as a note; it used to say nothing.
@Suite("the receipt of a migrated store, read by a plain verify")
struct ReceiptNoteTests {
    private static let model = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        + #"<entity name="Author" syncable="YES"><attribute name="name" attributeType="String"/>"#
        + #"<relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>"#
        + #"<entity name="Book" syncable="YES"><attribute name="title" attributeType="String"/>"#
        + #"<relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity>"#
        + "</model>"

    private func verifiedNote(_ store: String) throws -> String? {
        let report = try StoreVerifier(path: store, model: .modelCache).verify(options: VerificationOptions())
        #expect(report.passed)
        return ReceiptNote.note(store: store, report: report)
    }

    @Test("a migrated store says it is as verified, and once changed, what changed; a store without a receipt says nothing")
    func receiptNote() throws {
        let folder = try TestPaths.temporaryFolder("receipt-note")
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("M 1", Self.model), ("M 2", Self.model.replacingOccurrences(
            of: #"<attribute name="title" attributeType="String"/>"#, with: #"<attribute name="title" attributeType="String"/><attribute name="pages" optional="YES" attributeType="Integer 32"/>"#))],
            in: folder)
        let json = folder + "/authors.json"
        try Data(#"[{"name": "A0", "books": [{"title": "B0"}, {"title": "B1"}]}, {"name": "A1", "books": [{"title": "B2"}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: json))
        let source = folder + "/source.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [json], modelPath: bundle, modelVersion: "M 1", entity: "Author", outputPath: source)).run()
        #expect(try verifiedNote(source) == nil, "an imported store has no migration receipt")

        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle,
                                                             outputPath: out)).run()
        #expect(summary.verification?.passed == true)
        let kept = try #require(try verifiedNote(out))
        #expect(kept.contains("are as the migration that wrote the store verified them"), "\(kept)")

        let database = try SQLiteDatabase(path: out, mode: .readWrite)
        try database.execute("UPDATE ZBOOK SET ZTITLE = 'B9' WHERE ZTITLE = 'B1'")
        try database.close()
        let changed = try #require(try verifiedNote(out))
        #expect(changed.contains("changed since the migration that wrote the store verified it: Book ("), "\(changed)")
        #expect(!changed.contains("Author"), "\(changed)")
    }
}
