import Ferry
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// A many-to-many ordered on both sides (`Book.shelves`, `Shelf.books`): one set of pairs with an
/// order of each side's own. `restore` once linked the pairs from one side and numbered the other
/// side's order by `Z_PK` (exit 0); then it refused such stores. Now `restore` and `migrate` link
/// from both sides and keep both orders. Orders are read with plain SQL, and compared with the
/// source store's through `verify`'s pair fingerprints (which carry each pair's rank).
@Suite("a many-to-many ordered on both sides keeps both orders")
struct BothSidesOrderedTests {
    /// Each shelf's books and each book's shelves, in their orders, from the join table's two order keys.
    private static let orders = """
        SELECT 'shelf ' || s.ZNAME || ':' || group_concat(b.ZTITLE, ',') FROM \
        (SELECT * FROM Z_1SHELVES ORDER BY Z_2SHELVES, Z_FOK_1BOOKS) j \
        JOIN ZBOOK b ON b.Z_PK = j.Z_1BOOKS JOIN ZSHELF s ON s.Z_PK = j.Z_2SHELVES GROUP BY s.ZNAME
        UNION ALL
        SELECT 'book ' || b.ZTITLE || ':' || group_concat(s.ZNAME, ',') FROM \
        (SELECT * FROM Z_1SHELVES ORDER BY Z_1BOOKS, Z_FOK_2SHELVES) j \
        JOIN ZBOOK b ON b.Z_PK = j.Z_1BOOKS JOIN ZSHELF s ON s.Z_PK = j.Z_2SHELVES GROUP BY b.ZTITLE
        ORDER BY 1
        """

    /// Both orders of the source store: no side in `Z_PK` order.
    private static let sourceOrders = ["book a:x", "book b:y,x", "book c:y,x", "shelf x:c,a,b", "shelf y:b,c"]

    /// A store of three books and two shelves in which shelves list their books and books their
    /// shelves, neither in `Z_PK` order (as Core Data writes it: each side's order set apart), and
    /// its model bundle.
    private func store(in folder: String) throws -> (store: String, bundle: String) {
        let bundle = try TestPaths.xcodeModelBundle("BothOrdered", versions: [("BothOrdered", ShelvesStore.contents(version: 1, booksOrdered: true)),
                                                                              ("BothOrdered 2", ShelvesStore.contents(version: 2, booksOrdered: true))], in: folder)
        let store = try ShelvesStore.make(in: folder, bundle: bundle, version: "BothOrdered",
                                          shelves: #"[{"name": "x", "books": ["c", "a", "b"]}, {"name": "y", "books": ["b", "c"]}]"#)
        // Books b and c list shelf y before shelf x.
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("""
            UPDATE Z_1SHELVES SET Z_FOK_2SHELVES = CASE Z_2SHELVES WHEN (SELECT Z_PK FROM ZSHELF WHERE ZNAME = 'y') THEN 2048 ELSE 3072 END \
            WHERE Z_1BOOKS IN (SELECT Z_PK FROM ZBOOK WHERE ZTITLE IN ('b', 'c'))
            """)
        try database.close()
        #expect(try storeRows(store, Self.orders) == Self.sourceOrders)
        return (store, bundle)
    }

    /// The pair fingerprints `verify` computes for both sides of the relationship.
    private func pairFingerprints(_ store: String) throws -> [Fingerprint?] {
        let report = try StoreVerifier(path: store).verify()
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")
        return [report.edgeFingerprint(of: "Book.shelves"), report.edgeFingerprint(of: "Shelf.books")]
    }

    @Test("restore keeps both orders", arguments: [ExportFormat.ndjson, .json, .csv, .plist, .bplist])
    func restore(format: ExportFormat) throws {
        let folder = try TestPaths.temporaryFolder("both-ordered-restore-\(format)")
        let (store, bundle) = try store(in: folder)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", format: format)).run()
        let restored = folder + "/restored.sqlite"
        let summary = try RestoreJob(folder: folder + "/out", modelPath: bundle, outputPath: restored).run()
        #expect(summary.records["Book"] == 3 && summary.records["Shelf"] == 2)
        #expect(try storeRows(restored, Self.orders) == Self.sourceOrders)
        #expect(try pairFingerprints(restored) == (try pairFingerprints(store)))
        #expect(summary.links.allSatisfy { $0.duplicatePairs == 0 && $0.unresolved == 0 }, "\(summary.links)")
    }

    @Test("migrate to the next version keeps both orders, and its check against the source store passes")
    func migrate() throws {
        let folder = try TestPaths.temporaryFolder("both-ordered-migrate")
        let (source, bundle) = try store(in: folder)
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, outputPath: folder + "/shelves2.sqlite")
        let summary = try MigrateJob(request: request).run()
        #expect(summary.chains == [["BothOrdered", "BothOrdered 2"]])
        #expect(try storeRows(request.outputPath, Self.orders) == Self.sourceOrders)
        let report = try #require(summary.verification)
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")
        let section = try #require(report.section(named: "pairs against source store"))
        #expect(section.checks == 2 && section.failures.isEmpty, "Book.shelves and Shelf.books")
    }
}
