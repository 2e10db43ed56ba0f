import FerryModel
import FerryStore
import FerryTestSupport
import Testing

@Suite("Delete rules")
struct MutationDeleteTests {
    @Test("Cascade two levels deep, Nullify on to-many inverses and join rows, Z_OPT of survivors")
    func cascadeAndNullify() throws {
        let fixture = try MutationTestStore()
        let store = try MutableStore(path: fixture.path, model: fixture.model)
        let plan = try store.delete(from: "Author", where: FetchPredicate(format: "name == 'Ann'"))
        #expect(plan.deleted.map(\.object.description) == ["Author(1)", "Book(1)", "Book(2)", "Chapter(1)", "Chapter(2)", "Note(1)", "Note(2)"])
        #expect(plan.deleted[1].relationship == "Author.books" && plan.deleted[3].relationship == "Book.chapters")
        #expect(Set(plan.modified.map(\.description)) == ["Library(1)", "Shelf(1)", "Shelf(2)", "Series(1)"])
        #expect(plan.joinRowsRemoved == [fixture.joinTable: 3])
        #expect(try fixture.rows("SELECT Z_PK FROM ZAUTHOR") == ["2"])
        #expect(try fixture.rows("SELECT Z_PK, ZAUTHOR, Z_OPT FROM ZBOOK ORDER BY Z_PK") == ["3|2|1", "4|NULL|1"])
        #expect(try fixture.rows("SELECT Z_PK FROM ZCHAPTER") == ["3"])
        #expect(try fixture.rows("SELECT Z_PK FROM ZNOTE") == ["3"])
        #expect(try fixture.rows("SELECT \(fixture.bookColumn) FROM \(fixture.joinTable)") == ["3"])
        #expect(try fixture.rows("SELECT Z_PK, Z_OPT FROM ZSHELF ORDER BY Z_PK") == ["1|2", "2|2"])
        #expect(try fixture.rows("SELECT Z_OPT FROM ZLIBRARY") == ["2"])
        #expect(try fixture.rows("SELECT Z_OPT FROM ZAUTHOR") == ["1"])
        #expect(try fixture.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'") == ["4"])
    }

    @Test("Nullify with a to-one inverse clears the foreign key and its order key, and bumps Z_OPT")
    func nullifyForeignKeys() throws {
        let fixture = try MutationTestStore()
        let store = try MutableStore(path: fixture.path, model: fixture.model)
        let plan = try store.delete(from: "Series", where: nil)
        #expect(plan.nullified.map(\.object.description).sorted() == ["Book(1)", "Book(3)"])
        #expect(plan.nullified.allSatisfy { $0.relationship == "Book.series" })
        #expect(try fixture.rows("SELECT Z_PK, ZSERIES, Z_FOK_SERIES, Z_OPT FROM ZBOOK ORDER BY Z_PK")
            == ["1|NULL|NULL|2", "2|NULL|NULL|1", "3|NULL|NULL|2", "4|NULL|NULL|1"])
    }

    @Test("An ordered to-many keeps the remaining order keys sparse")
    func orderedSiblings() throws {
        let fixture = try MutationTestStore()
        try MutableStore(path: fixture.path, model: fixture.model).delete(from: "Chapter", where: FetchPredicate(format: "title == 'C1'"))
        #expect(try fixture.rows("SELECT Z_PK, Z_FOK_BOOK FROM ZCHAPTER ORDER BY Z_PK") == ["2|2", "3|1"])
        #expect(try fixture.rows("SELECT Z_PK FROM ZNOTE ORDER BY Z_PK") == ["2", "3"])
        #expect(try fixture.rows("SELECT Z_OPT FROM ZBOOK WHERE Z_PK = 1") == ["2"])
    }

    @Test("No Action leaves the references dangling and the other side unchanged")
    func noAction() throws {
        let fixture = try MutationTestStore()
        let plan = try MutableStore(path: fixture.path, model: fixture.model).delete(from: "Library", where: nil)
        #expect(plan.dangling.map(\.object.description) == ["Book(1)", "Book(4)"])
        #expect(plan.modified.isEmpty)
        #expect(try fixture.rows("SELECT Z_PK, ZLIBRARY, Z_OPT FROM ZBOOK WHERE ZLIBRARY IS NOT NULL") == ["1|1|1", "4|1|1"])
        #expect(try fixture.rows("SELECT count(*) FROM ZLIBRARY") == ["0"])
    }

    @Test("Deny refuses the whole delete, names the blocking records and changes nothing")
    func deny() throws {
        let fixture = try MutationTestStore()
        let before = try fixture.rows("SELECT Z_PK, Z_OPT FROM ZPUBLISHER UNION ALL SELECT Z_PK, Z_OPT FROM ZBOOK")
        let store = try MutableStore(path: fixture.path, model: fixture.model)
        #expect(throws: StoreMutationError.denied([DenyBlock(object: ObjectKey(entity: "Publisher", primaryKey: 1),
                                                             relationship: "Publisher.books",
                                                             destination: ObjectKey(entity: "Book", primaryKey: 3))])) {
            try store.delete(from: "Publisher", where: nil)
        }
        // A cascade reaching a denying object is refused as well: Bob → B3 is fine, but P1 is not deleted.
        #expect(try fixture.rows("SELECT Z_PK, Z_OPT FROM ZPUBLISHER UNION ALL SELECT Z_PK, Z_OPT FROM ZBOOK") == before)
    }

    @Test("A dry run plans without changing anything")
    func dryRun() throws {
        let fixture = try MutationTestStore()
        let store = try MutableStore(path: fixture.path, model: fixture.model)
        let plan = try store.planDelete(of: "Book", where: FetchPredicate(format: "title == 'B3'"))
        #expect(plan.deleted.map(\.object.description) == ["Book(3)", "Chapter(3)", "Note(3)"])
        #expect(Set(plan.modified.map(\.description)) == ["Author(2)", "Publisher(1)", "Series(1)", "Shelf(2)"])
        #expect(try fixture.rows("SELECT count(*) FROM ZBOOK") == ["4"])
        #expect(try fixture.rows("SELECT count(*) FROM \(fixture.joinTable)") == ["4"])
    }

    @Test("Predicate text with SQL in values and keys executes nothing")
    func injection() throws {
        let fixture = try MutationTestStore()
        let store = try MutableStore(path: fixture.path, model: fixture.model)
        let plan = try store.delete(from: "Author", where: FetchPredicate(format: "name == \"x'; DROP TABLE ZBOOK; --\""))
        #expect(plan.deleted.isEmpty)
        #expect(throws: FetchPredicateError.self) {
            try store.delete(from: "Author", where: FetchPredicate(format: "#name == 'a' OR 1 == 1; DROP TABLE ZBOOK"))
        }
        #expect(try fixture.rows("SELECT count(*) FROM ZBOOK") == ["4"])
    }
}
