import Ferry
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// `Author.books` ⇄ `Book.author` losing or gaining their inverse between versions: both
/// relationships exist on both sides with the same names, so each is carried from the source's
/// pairs, and the check of pairs against the source store compares what each is made from.
@Suite("relationships that lose or gain their inverse")
struct InverseChangeMigrationTests {
    /// `withAuthor: false`: `Book.author` is gone, not only its inverse.
    private static func version(inverses: Bool, withAuthor: Bool = true) -> String {
        let books = inverses ? #" inverseName="author" inverseEntity="Book""# : ""
        let author = inverses ? #" inverseName="books" inverseEntity="Author""# : ""
        let authorRelationship = withAuthor
            ? #"<relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author"\#(author)/>"# : ""
        return #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Author" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book"\#(books)/></entity>"#
            + #"<entity name="Book" syncable="YES"><attribute name="title" attributeType="String"/>\#(authorRelationship)</entity>"#
            + "</model>"
    }

    /// A bundle of `M 1` (inverses), `M 2` (none) and `M 3` (inverses), and a store of `from`
    /// holding two authors with two books each, imported through `Author.books`.
    private func store(from: String, name: String) throws -> (folder: String, bundle: String, store: String) {
        let folder = try TestPaths.temporaryFolder(name)
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("M 1", Self.version(inverses: true)), ("M 2", Self.version(inverses: false)),
                                                                  ("M 3", Self.version(inverses: true))], in: folder)
        let json = folder + "/authors.json"
        try Data(#"[{"name": "A0", "books": [{"title": "B0"}, {"title": "B1"}]}, {"name": "A1", "books": [{"title": "B2"}, {"title": "B3"}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: json))
        let store = folder + "/source.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [json], modelPath: bundle, modelVersion: from, entity: "Author", outputPath: store)).run()
        return (folder, bundle, store)
    }

    @Test("an inverse removed: Author.books keeps its pairs beside Book.author (0 of 4 pairs, exit 5, or exit 0 with --no-verify)")
    func inverseRemoved() throws {
        let (folder, bundle, source) = try store(from: "M 1", name: "inverse-removed")
        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle,
                                                             targetVersion: "M 2", outputPath: out)).run()
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        let books = "SELECT b.ZTITLE, a.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.%@ ORDER BY b.ZTITLE"
        let expected = ["B0|A0", "B1|A0", "B2|A1", "B3|A1"]
        #expect(try storeRows(out, books.replacingOccurrences(of: "%@", with: "ZAUTHOR")) == expected)
        #expect(try storeRows(out, books.replacingOccurrences(of: "%@", with: "Z1BOOKS")) == expected)
    }

    @Test("the inverse relationship removed: Author.books takes its pairs from Book.author's column (they were lost: 0 of 5 pairs, exit 5)")
    func inverseRelationshipRemoved() throws {
        let folder = try TestPaths.temporaryFolder("inverse-relationship-removed")
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("M 1", Self.version(inverses: true)),
                                                                  ("M 2", Self.version(inverses: false, withAuthor: false))], in: folder)
        let json = folder + "/authors.json"
        try Data(#"[{"name": "A0", "books": [{"title": "B0"}, {"title": "B1"}, {"title": "B4"}]}, {"name": "A1", "books": [{"title": "B2"}, {"title": "B3"}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: json))
        let source = folder + "/source.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [json], modelPath: bundle, modelVersion: "M 1", entity: "Author", outputPath: source)).run()
        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle,
                                                             targetVersion: "M 2", outputPath: out)).run()
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(try storeRows(out, "SELECT b.ZTITLE, a.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.Z1BOOKS ORDER BY b.ZTITLE")
                == ["B0|A0", "B1|A0", "B2|A1", "B3|A1", "B4|A0"])
    }

    @Test("the inverse relationship and a sub-entity of the destination removed: the pairs of the books carried are kept, those of the dropped ones dropped with them")
    func inverseRelationshipAndSubEntityRemoved() throws {
        let folder = try TestPaths.temporaryFolder("inverse-and-sub-entity-removed")
        let comic = #"<entity name="Comic" parentEntity="Book" syncable="YES"><attribute name="artist" optional="YES" attributeType="String"/></entity>"#
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [
            ("M 1", Self.version(inverses: true).replacingOccurrences(of: "</model>", with: comic + "</model>")),
            ("M 2", Self.version(inverses: false, withAuthor: false)),
        ], in: folder)
        let json = folder + "/authors.json"
        try Data(#"[{"name": "A0", "books": [{"title": "B0"}, {"title": "B1"}, {"title": "B4"}]}, {"name": "A1", "books": [{"title": "B2"}, {"title": "B3"}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: json))
        let source = folder + "/source.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [json], modelPath: bundle, modelVersion: "M 1", entity: "Author", outputPath: source)).run()
        // B1 and B3 become comics: M 2 has no such entity, so they are dropped with their pairs.
        let database = try SQLiteDatabase(path: source, mode: .readWrite)
        try database.execute("UPDATE ZBOOK SET Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Comic') WHERE ZTITLE IN ('B1', 'B3')")
        try database.close()
        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle,
                                                             targetVersion: "M 2", outputPath: out)).run()
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(summary.unresolvedLinks == 0)
        #expect(try storeRows(out, "SELECT b.ZTITLE, a.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.Z1BOOKS ORDER BY b.ZTITLE")
                == ["B0|A0", "B2|A1", "B4|A0"])
    }

    @Test("an inverse added where the app set both sides: the pairs are checked as the union of both (each pair was counted twice, a false failure, exit 5)")
    func inverseAddedBothSidesSet() throws {
        let (folder, bundle, source) = try store(from: "M 2", name: "inverse-added-both-sides")
        let database = try SQLiteDatabase(path: source, mode: .readWrite)
        try database.execute("UPDATE ZBOOK SET ZAUTHOR = Z1BOOKS WHERE ZTITLE <> 'B3'")
        try database.close()
        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle,
                                                             outputPath: out)).run()
        let pairs = try #require(summary.verification?.sections.first { $0.name == "pairs against source store" })
        #expect(pairs.checks > 0 && pairs.failures.isEmpty, "\(pairs)")
        #expect(try storeRows(out, "SELECT b.ZTITLE, a.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR ORDER BY b.ZTITLE")
                == ["B0|A0", "B1|A0", "B2|A1", "B3|A1"])
    }

    @Test("an inverse added: the pairs of Book.author are checked as made from Author.books (a false failure, exit 5)")
    func inverseAdded() throws {
        let (folder, bundle, source) = try store(from: "M 2", name: "inverse-added")
        #expect(try storeRows(source, "SELECT COUNT(ZAUTHOR), COUNT(Z1BOOKS) FROM ZBOOK") == ["0|4"])
        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle,
                                                             outputPath: out)).run()
        let pairs = try #require(summary.verification?.sections.first { $0.name == "pairs against source store" })
        #expect(pairs.checks > 0 && pairs.failures.isEmpty, "\(pairs)")
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT b.ZTITLE, a.ZNAME FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR ORDER BY b.ZTITLE")
                == ["B0|A0", "B1|A0", "B2|A1", "B3|A1"])
    }
}
