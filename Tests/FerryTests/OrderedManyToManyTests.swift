import Ferry
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// A many-to-many ordered on one side only (`Shelf.books`), whose other side (`Book.shelves`)
/// sorts first by name: `migrate` once read the pairs from `Book.shelves`, and the writer gave
/// `Shelf.books` an order of its own (by `Z_PK`), exit 0, every check passing, because no
/// fingerprint or pair check looked at the order. Orders are read with plain SQL.
@Suite("ordered many-to-many relationships keep their order")
struct OrderedManyToManyTests {
    /// Shelf name → its books' titles in the shelf's order, from the join table's order key.
    private static let order = """
        SELECT s.ZNAME || ':' || group_concat(b.ZTITLE, ',') FROM \
        (SELECT * FROM Z_1SHELVES ORDER BY Z_2SHELVES, Z_FOK_1BOOKS) j \
        JOIN ZBOOK b ON b.Z_PK = j.Z_1BOOKS JOIN ZSHELF s ON s.Z_PK = j.Z_2SHELVES GROUP BY s.ZNAME ORDER BY s.ZNAME
        """

    /// A Shelves store of three books and two shelves, each listing books in an order that is not
    /// the books' `Z_PK` order; and the model bundle.
    private func shelvesStore(_ folder: String) throws -> (store: String, bundle: String) {
        let bundle = try TestPaths.xcodeModelBundle("Shelves", versions: [("Shelves", ShelvesStore.contents(version: 1, booksOrdered: false)),
                                                                          ("Shelves 2", ShelvesStore.contents(version: 2, booksOrdered: false))], in: folder)
        let store = try ShelvesStore.make(in: folder, bundle: bundle, version: "Shelves",
                                          shelves: #"[{"name": "x", "books": ["c", "a", "b"]}, {"name": "y", "books": ["b", "c"]}]"#)
        return (store, bundle)
    }

    @Test("migrate keeps the order of the ordered side, and its check against the source store compares it")
    func orderCarried() throws {
        let folder = try TestPaths.temporaryFolder("ordered-many-to-many")
        let (source, bundle) = try shelvesStore(folder)
        #expect(try storeRows(source, Self.order) == ["x:c,a,b", "y:b,c"])
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, outputPath: folder + "/shelves2.sqlite")
        let summary = try MigrateJob(request: request).run()
        #expect(summary.chains == [["Shelves", "Shelves 2"]])
        #expect(try storeRows(request.outputPath, Self.order) == ["x:c,a,b", "y:b,c"])
        let report = try #require(summary.verification)
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")
        let section = try #require(report.section(named: "pairs against source store"))
        #expect(section.checks == 2 && section.failures.isEmpty, "Book.shelves and Shelf.books")
    }

    @Test("a store whose ordered pairs are the same but in another order fails verification against its source")
    func reorderedPairsFail() throws {
        let folder = try TestPaths.temporaryFolder("ordered-many-to-many-reordered")
        let (source, bundle) = try shelvesStore(folder)
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, outputPath: folder + "/shelves2.sqlite")
        _ = try MigrateJob(request: request).run()
        let before = try StoreVerifier(path: request.outputPath).verify()
        // Shelf x lists c, a, b: move c to the end (c, a, b → a, b, c); the pairs stay the same.
        let database = try SQLiteDatabase(path: request.outputPath, mode: .readWrite)
        try database.execute("""
            UPDATE Z_1SHELVES SET Z_FOK_1BOOKS = 1000000 WHERE Z_2SHELVES = (SELECT Z_PK FROM ZSHELF WHERE ZNAME = 'x') \
            AND Z_1BOOKS = (SELECT Z_PK FROM ZBOOK WHERE ZTITLE = 'c')
            """)
        try database.close()
        #expect(try storeRows(request.outputPath, Self.order) == ["x:a,b,c", "y:b,c"])
        let after = try StoreVerifier(path: request.outputPath).verify()
        #expect(after.passed, "the store alone is sound: its order keys are distinct")
        #expect(after.edgeFingerprint(of: "Book.shelves") != before.edgeFingerprint(of: "Book.shelves"))
        let report = try SourceVerification.verify(store: request.outputPath, against: request, rerun: true)
        #expect(!report.passed)
        let section = try #require(report.section(named: "pairs against source store"))
        #expect(Set(section.failures.map(\.subject)) == ["Book.shelves", "Shelf.books"], "\(section.failures)")
    }

    @Test("an ordered list with a missing or repeated order key is refused by export and migrate, naming the row: no order is made up")
    func ambiguousOrderIsRefused() throws {
        for (label, sql, reason) in [
            ("null", "UPDATE Z_1SHELVES SET Z_FOK_1BOOKS = NULL WHERE rowid = (SELECT min(rowid) FROM Z_1SHELVES)", "no order key in the ordered list of"),
            ("twice", "UPDATE Z_1SHELVES SET Z_FOK_1BOOKS = (SELECT min(Z_FOK_1BOOKS) FROM Z_1SHELVES j WHERE j.Z_2SHELVES = Z_1SHELVES.Z_2SHELVES)",
             "appears twice in the ordered list of"),
        ] {
            let folder = try TestPaths.temporaryFolder("ordered-many-to-many-\(label)")
            let (source, bundle) = try shelvesStore(folder)
            let database = try SQLiteDatabase(path: source, mode: .readWrite)
            try database.execute(sql)
            try database.close()
            let exported = try #require(throws: ExportError.self) {
                try ExportJob(request: ExportRequest(storePath: source, outputFolder: folder + "/export", modelPath: bundle)).run()
            }
            #expect(exported.description.contains("table Z_1SHELVES") && exported.description.contains(reason), "\(label): \(exported)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/export"))
            let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, outputPath: folder + "/shelves2.sqlite")
            #expect(throws: (any Error).self, "\(label)") { try MigrateJob(request: request).run() }
            #expect(!FileManager.default.fileExists(atPath: request.outputPath))
        }
    }
}
