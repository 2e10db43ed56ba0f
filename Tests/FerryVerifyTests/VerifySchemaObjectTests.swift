import FerryModel
import FerryStore
import FerryTestSupport
import FerryVerify
import FerryVerifyTestSupport
import Foundation
import Testing

/// Schema objects Core Data never writes decide which writes a store accepts: a trigger that
/// deletes other rows, a `CHECK`, a `NOT NULL` column, a `NOCASE` collation, a unique index over
/// an expression. Each passed verify, and the app's next valid save (or Ferry's `update` and
/// `import --append`) then failed or changed rows nobody asked to change. Each now fails the
/// table's `schema-objects` check, naming it. Stores written by Ferry, then altered with plain SQL.
@Suite("verify fails schema objects Core Data never writes")
struct VerifySchemaObjectTests {
    private func verify(_ path: String, model: ManagedObjectModel = VerifyStores.workspace3) throws -> VerificationReport {
        try StoreVerifier(path: path, model: .model(model)).verify(options: VerificationOptions(fingerprints: false))
    }

    /// The `schema-objects` failures, as `subject: message`.
    private func schemaFailures(_ report: VerificationReport) -> [String] {
        report.failures.filter { $0.check == "schema-objects" }.map { "\($0.subject): \($0.message)" }
    }

    /// `ZTAG` rebuilt with `column` in place of `ZNAME`, its rows and unique index kept.
    private static func rebuiltTag(_ column: String, extra: String = "") -> String {
        "CREATE TABLE T2 (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \(column)\(extra)); "
            + "INSERT INTO T2 SELECT *\(extra.isEmpty ? "" : ", 1") FROM ZTAG; DROP TABLE ZTAG; ALTER TABLE T2 RENAME TO ZTAG; "
            + "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)"
    }

    @Test("a store as Ferry writes it has no schema-objects failure, nor does a column whose name holds the word CHECK")
    func intact() throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-schema"))
        #expect(schemaFailures(try verify(path)).isEmpty)
        let named = try VerifyStores.broken(path, "named", "ALTER TABLE ZTAG ADD COLUMN \"CHECK\" VARCHAR DEFAULT 'CHECK (1)'")
        #expect(schemaFailures(try verify(named)).isEmpty)
    }

    @Test("a trigger of the store that is not Core Data's fails, naming the trigger, its table and its statement")
    func foreignTrigger() throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-schema"))
        let statement = "CREATE TRIGGER evil AFTER UPDATE ON ZTASK BEGIN DELETE FROM ZUPLOAD; END"
        let report = try verify(try VerifyStores.broken(path, "trigger", statement))
        #expect(schemaFailures(report) == [
            "Task: table ZTASK holds what Core Data never writes, so Core Data's saves and Ferry's can be refused or change other rows: "
                + "trigger evil on ZTASK is not Core Data's (it writes none but the Z_DA_ triggers of the model's derived attributes): "
                + statement,
        ])
        // On a table of no entity (Core Data's own), the store's check names it.
        let other = try verify(try VerifyStores.broken(path, "bookkeeping", "CREATE TRIGGER keys AFTER UPDATE ON Z_PRIMARYKEY BEGIN SELECT 1; END"))
        let onStore = schemaFailures(other)
        #expect(onStore.count == 1 && onStore.first?.hasPrefix("store: the store holds what Core Data never writes") == true, "\(onStore)")
        #expect(onStore.first?.contains("trigger keys on Z_PRIMARYKEY") == true, "\(onStore)")
    }

    @Test("a column or index declaration Core Data never writes fails its table's check, naming it", arguments: [
        (rebuiltTag("ZNAME VARCHAR", extra: ", ZEVIL INTEGER NOT NULL"), "column ZEVIL is NOT NULL"),
        (rebuiltTag("ZNAME VARCHAR CHECK (ZNAME = lower(ZNAME))"), "a CHECK constraint"),
        (rebuiltTag("ZNAME VARCHAR COLLATE NOCASE"), "column ZNAME collates NOCASE"),
        (rebuiltTag("ZNAME VARCHAR REFERENCES ZTASK (Z_PK) ON DELETE CASCADE"), "foreign key ZNAME REFERENCES ZTASK(Z_PK) ON DELETE CASCADE"),
        ("DROP INDEX Z_Tag_UNIQUE_name; CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE NOCASE)",
         "unique index Z_Tag_UNIQUE_name (ZNAME COLLATE NOCASE), which refuses values no uniqueness constraint of the model refuses"),
        ("CREATE UNIQUE INDEX EVIL ON ZTAG (lower(ZNAME))",
         "unique index EVIL (an expression), which refuses values no uniqueness constraint of the model refuses"),
        ("CREATE UNIQUE INDEX EVIL ON ZTAG (Z_ENT, Z_PK)", "unique index EVIL (Z_ENT, Z_PK), which refuses values no uniqueness constraint of the model refuses"),
        ("CREATE INDEX EVIL ON ZTAG (ZNAME) WHERE ZNAME > 'a'", "partial index EVIL (ZNAME), which holds only the rows its WHERE clause picks"),
    ])
    func declaration(sql: String, problem: String) throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-schema"))
        let failures = schemaFailures(try verify(try VerifyStores.broken(path, "declared", sql)))
        #expect(failures.count == 1 && failures.first?.hasPrefix("Tag: table ZTAG holds what Core Data never writes") == true, "\(failures)")
        #expect(failures.first?.contains(problem) == true, "\(failures)")
    }

    @Test("a unique index over more columns than a uniqueness constraint's refuses nothing the constraint allows, and passes")
    func impliedUniqueIndex() throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-schema"))
        let wider = try VerifyStores.broken(path, "wider", "CREATE UNIQUE INDEX WIDER ON ZTASK (ZTITLE, ZTASKID)")
        #expect(schemaFailures(try verify(wider)).isEmpty)
    }

    /// Book.pagesCount (`count:(pages)`, kept by Core Data's triggers), Book.loudTitle (`uppercase:(title)`, whose triggers are not known).
    static let books = ManagedObjectModel(name: "Books", entities: [
        Entity(name: "Book", attributes: [
            Attribute(name: "title", type: .string),
            Attribute(name: "pagesCount", type: .integer64, isDerived: true, derivationExpression: "pages.@count"),
            Attribute(name: "loudTitle", type: .string, isDerived: true, derivationExpression: "uppercase:(title)"),
        ], relationships: [Relationship(name: "pages", destinationEntity: "Page", inverseName: "book", isToMany: true)]),
        Entity(name: "Page", attributes: [Attribute(name: "number", type: .integer32)],
               relationships: [Relationship(name: "book", destinationEntity: "Book", inverseName: "pages")]),
    ])

    @Test("Core Data's Z_DA_ triggers pass as written; one with their name and another statement fails; one of an unknown derivation is noted")
    func derivedAttributeTriggers() throws {
        let folder = try TestPaths.temporaryFolder("verify-schema-derived")
        let path = folder + "/Books.sqlite"
        let store = try CoreDataStoreWriter.create(at: path, model: Self.books, versionHashes: VersionHasher.hashes(of: Self.books).entityHashes,
                                                   versionIdentifiers: [""])
        try store.finish()
        let intact = try verify(path, model: Self.books)
        #expect(schemaFailures(intact).isEmpty && intact.passed, "\(intact.failures)")
        let replaced = try VerifyStores.broken(path, "replaced", """
            DROP TRIGGER Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT;
            CREATE TRIGGER Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT AFTER INSERT ON ZPAGE FOR EACH ROW BEGIN DELETE FROM ZBOOK; END
            """)
        let failures = schemaFailures(try verify(replaced, model: Self.books))
        #expect(failures.count == 1 && failures.first?.hasPrefix("Page: table ZPAGE holds") == true, "\(failures)")
        #expect(failures.first?.contains("trigger Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT on ZPAGE has the name of Core Data's trigger "
            + "keeping Book.pagesCount (count:(pages)) but another statement") == true, "\(failures)")
        let unknown = try verify(try VerifyStores.broken(path, "unknown", """
            CREATE TRIGGER Z_DA_ZBOOK_Book_loudTitle_SOURCE_INSERT AFTER INSERT ON ZBOOK FOR EACH ROW BEGIN SELECT 1; END
            """), model: Self.books)
        #expect(schemaFailures(unknown).isEmpty)
        #expect(unknown.notes.contains { $0.hasPrefix("trigger Z_DA_ZBOOK_Book_loudTitle_SOURCE_INSERT on ZBOOK: named as Core Data names") })
    }

    @Test("an entity table whose Z_PK is INTEGER PRIMARY KEY DESC (no row ID: a key may be NULL) is refused, as every verb refuses it")
    func descendingKey() throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-schema"))
        let descending = try VerifyStores.broken(path, "desc", Self.rebuiltTag("ZNAME VARCHAR").replacingOccurrences(
            of: "Z_PK INTEGER PRIMARY KEY,", with: "Z_PK INTEGER PRIMARY KEY DESC,"))
        let error = #expect(throws: VerificationError.self) { try StoreVerifier(path: descending, model: .model(VerifyStores.workspace3)) }
        #expect(error.map { "\($0)" }?.contains("table ZTAG: Z_PK is a PRIMARY KEY kept in index sqlite_autoindex_ZTAG_1") == true,
                "\(String(describing: error))")
        // update and delete, and import --append (which wrote a row with Z_PK NULL and called it verified), refuse it before writing.
        #expect(throws: StoreMutationError.self) { try MutableStore(path: descending, model: VerifyStores.workspace3) }
        #expect(throws: StoreWriterError.self) { try CoreDataStoreWriter.append(to: descending, model: VerifyStores.workspace3) }
    }

    @Test("Z_MAX of Core Data's persistent-history entities below their tables' keys, or their rows missing, fails")
    func historyKeys() throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-schema"))
        let history = try VerifyStores.broken(path, "history", """
            CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            INSERT INTO ACHANGE VALUES (1, 16001, NULL), (2, 16001, NULL), (3, 16001, NULL);
            INSERT INTO ATRANSACTION VALUES (1, 16002, NULL);
            INSERT INTO Z_PRIMARYKEY VALUES (16001, 'CHANGE', 0, 3), (16002, 'TRANSACTION', 0, 1);
            """)
        #expect(try verify(history).passed)
        let low = try verify(try VerifyStores.broken(history, "low", "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_ENT = 16001"))
        #expect(low.failures.map(\.message) == ["Z_PRIMARYKEY.Z_MAX of Core Data's history entity CHANGE is 1, below 2 Z_PK(s) of ACHANGE "
            + "(largest 3): the app's next save recording history would take a key in use"])
        let missing = try verify(try VerifyStores.broken(history, "missing", "DELETE FROM Z_PRIMARYKEY WHERE Z_ENT = 16002"))
        #expect(missing.failures.map(\.message) == ["Z_PRIMARYKEY has no row for Core Data's history entity TRANSACTION, whose table "
            + "ATRANSACTION holds 1 row(s): its next key would be one in use"])
    }

    @Test("an order key that is not an integer (text, a real) fails the structural checks, without fingerprints", arguments: [
        "UPDATE ZNOTE SET Z_FOK_ITEM = 'zz' WHERE ZTEXT = 'two'", "UPDATE ZNOTE SET Z_FOK_ITEM = 1.5 WHERE ZTEXT = 'two'",
    ])
    func orderKeyStorage(sql: String) throws {
        let path = try VerifyStores.makeInheritance(in: try TestPaths.temporaryFolder("verify-schema"))
        let report = try verify(try VerifyStores.broken(path, "fok", sql), model: VerifyStores.inheritance)
        #expect(report.failures.map { "\($0.check) \($0.subject)" } == ["order-key Note.item"], "\(report.failures)")
    }
}
