import FerryModel
import FerryStore
import FerryTestSupport
import Testing

@Suite("Updates")
struct MutationUpdateTests {
    @Test("Sets typed values on matching rows and bumps Z_OPT")
    func setsValues() throws {
        let fixture = try MutationTestStore()
        let store = try MutableStore(path: fixture.path, model: fixture.model)
        let changed = try store.update("Author", where: FetchPredicate(format: "rank >= 2"),
                                       set: [("born", .date(86_400.5)), ("rank", .integer(7))])
        #expect(changed == 1)
        #expect(try fixture.rows("SELECT Z_PK, ZBORN, ZRANK, Z_OPT FROM ZAUTHOR ORDER BY Z_PK") == ["1|NULL|1|1", "2|86400.5|7|2"])
    }

    @Test("A uniqueness violation aborts everything and names the value")
    func uniqueness() throws {
        let fixture = try MutationTestStore()
        let store = try MutableStore(path: fixture.path, model: fixture.model)
        #expect(throws: StoreMutationError.uniquenessViolation(entity: "Author", keys: ["name"], values: ["'Bob'"])) {
            try store.update("Author", where: FetchPredicate(format: "name == 'Ann'"), set: [("name", .string("Bob")), ("rank", .integer(9))])
        }
        #expect(try fixture.rows("SELECT ZNAME, ZRANK, Z_OPT FROM ZAUTHOR ORDER BY Z_PK") == ["Ann|1|1", "Bob|2|1"])
    }

    @Test("Required attributes refuse NULL, types and ranges are checked, unknown keys are named")
    func refusals() throws {
        let fixture = try MutationTestStore()
        let store = try MutableStore(path: fixture.path, model: fixture.model)
        #expect(throws: StoreMutationError.requiredAttribute(entity: "Author", attribute: "name")) {
            try store.update("Author", where: nil, set: [("name", .null)])
        }
        #expect(throws: StoreMutationError.self) { try store.update("Author", where: nil, set: [("rank", .integer(40_000))]) }
        #expect(throws: StoreMutationError.self) { try store.update("Author", where: nil, set: [("born", .string("abc"))]) }
        #expect(throws: StoreMutationError.unknownAttribute(entity: "Author", key: "name = 'x'; DROP TABLE ZBOOK; --")) {
            try store.update("Author", where: nil, set: [("name = 'x'; DROP TABLE ZBOOK; --", .string("x"))])
        }
        try store.update("Author", where: nil, set: [("rank", .null)])
        #expect(try fixture.rows("SELECT ZNAME, ZRANK, Z_OPT FROM ZAUTHOR ORDER BY Z_PK") == ["Ann|NULL|2", "Bob|NULL|2"])
        try store.update("Book", where: FetchPredicate(format: "title == 'B1'"), set: [("title", .string("'); DROP TABLE ZAUTHOR; --"))])
        #expect(try fixture.rows("SELECT ZTITLE FROM ZBOOK WHERE Z_PK = 1") == ["'); DROP TABLE ZAUTHOR; --"])
        #expect(try fixture.rows("SELECT count(*) FROM ZAUTHOR") == ["2"])
    }
}
