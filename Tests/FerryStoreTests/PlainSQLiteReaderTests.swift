import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// A plain SQLite database made here reads as entities and records.
@Suite struct PlainSQLiteReaderTests {
    private func makeDatabase(in folder: String) throws -> String {
        let path = folder + "/plain.sqlite"
        let database = try SQLiteDatabase(path: path, mode: .create)
        try database.execute("""
            CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE, rating REAL, active BOOLEAN,
                                  price NUMERIC, photo BLOB, misc);
            CREATE TABLE "book list" (isbn VARCHAR(13), title TEXT, author_id INTEGER REFERENCES authors(id), pages INT,
                                      published DATETIME);
            CREATE TABLE tags (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID;
            CREATE TABLE counters (n INTEGER PRIMARY KEY, hits BIGINT) WITHOUT ROWID;
            INSERT INTO authors VALUES (1, 'Ada', '1815-12-10', 4.5, 1, '12.50', x'0001', 'x');
            INSERT INTO authors VALUES (2, 'Grace', 700000000, NULL, 0, 7, NULL, 42);
            INSERT INTO authors VALUES (3, 'Bad', NULL, NULL, 5, NULL, NULL, NULL);
            INSERT INTO authors VALUES (4, 'Last', NULL, 2, NULL, 0.1, NULL, NULL);
            INSERT INTO "book list" VALUES ('978', 'Notes', 1, 100, '2020-01-01 10:00:00');
            INSERT INTO "book list" VALUES ('979', '日本語', 2, NULL, NULL);
            INSERT INTO "book list" VALUES (NULL, 'Orphan', NULL, 5, NULL);
            INSERT INTO tags VALUES ('b', 'Beta'), ('a', 'Alpha');
            INSERT INTO counters VALUES (10, 1), (5, 2);
            """)
        try database.close()
        return path
    }

    @Test func tablesReadAsEntitiesAndRecords() throws {
        let folder = try TestPaths.temporaryFolder("plain-sqlite")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reader = try PlainSQLiteReader(path: try makeDatabase(in: folder))

        #expect(reader.model.entities.map(\.name) == ["authors", "book_list", "counters", "tags"])
        let authors = try #require(reader.table(forEntity: "authors"))
        #expect(authors.key == .column("id"))
        #expect(authors.attributes.map(\.type) == [.integer64, .string, .string, .double, .boolean, .decimal, .binary, .string])
        let books = try #require(reader.table(forEntity: "book_list"))
        #expect(books.table == "book list")
        #expect(books.key == .rowid)
        #expect(books.attributes.map(\.attribute) == ["isbn", "title", "pages", "published"])
        #expect(books.foreignKeys == [PlainForeignKey(relationship: "author_id", column: "author_id",
                                                      destinationEntity: "authors", inverse: "book_list_author_id")])
        #expect(reader.table(forEntity: "tags")?.key == .position(primaryKeyColumns: ["code"]))
        #expect(reader.table(forEntity: "counters")?.key == .column("n"))
        let inverse = try #require(reader.model.entity(named: "authors")?.relationship(named: "book_list_author_id"))
        #expect(inverse.isToMany && inverse.destinationEntity == "book_list")
        _ = try StoreLayout(model: reader.model)

        let cursor = try reader.records(of: "authors")
        let ada = try #require(try cursor.next())
        #expect(ada == StoredRecord(primaryKey: 1, entity: "authors", attributes: [
            "id": .integer(1), "name": .string("Ada"), "born": .string("1815-12-10"), "rating": .double(4.5),
            "active": .bool(true), "price": .decimal("12.5"), "photo": .binary([0, 1]), "misc": .string("x"),
        ], toOne: [:]))
        let grace = try #require(try cursor.next())
        #expect(grace.attributes["born"] == .string("700000000"))
        #expect(grace.attributes["price"] == .decimal("7"))
        #expect(grace.attributes["misc"] == .string("42"))
        #expect(grace.attributes["rating"] == .null)
        // A Boolean column holding 5 is a typed error naming the row; the stream goes on.
        #expect(throws: StoreReaderError.invalidValue(path: reader.path, table: "authors", primaryKey: 3, column: "active",
                                                      reason: "attribute active: 5 is not a Boolean (0 or 1)")) {
            try cursor.next()
        }
        let last = try #require(try cursor.next())
        #expect(last.primaryKey == 4 && last.attributes["rating"] == .double(2) && last.attributes["price"] == .decimal("0.1"))
        #expect(try cursor.next() == nil)

        let bookCursor = try reader.records(of: "book_list")
        var bookRecords: [StoredRecord] = []
        while let record = try bookCursor.next() { bookRecords.append(record) }
        #expect(bookRecords.map(\.primaryKey) == [1, 2, 3])
        #expect(bookRecords.map { $0.toOne["author_id"] } == [StoredReference(primaryKey: 1, entity: "authors"),
                                                              StoredReference(primaryKey: 2, entity: "authors"), nil])
        #expect(bookRecords[1].attributes["title"] == .string("日本語"))
        #expect(bookRecords[0].attributes["published"] == .string("2020-01-01 10:00:00"))

        let tags = try reader.records(of: "tags")
        let alpha = try #require(try tags.next())
        #expect(alpha.primaryKey == 1 && alpha.attributes["label"] == .string("Alpha"))
        let counters = try reader.records(of: "counters")
        #expect(try counters.next()?.primaryKey == 5)

        var edges: [RelationshipEdge] = []
        let inverseEdges = try reader.edges(of: "book_list_author_id", of: "authors")
        while let edge = try inverseEdges.next() { edges.append(edge) }
        #expect(edges == [RelationshipEdge(source: 1, destination: 1), RelationshipEdge(source: 2, destination: 2)])
        let forward = try reader.edges(of: "author_id", of: "book_list")
        #expect(try forward.next() == RelationshipEdge(source: 1, destination: 1))

        #expect(try reader.count(for: "book_list") == 3)
        #expect(try reader.count(for: "authors") == 4)
        #expect(throws: StoreReaderError.unknownEntity(path: reader.path, entity: "nope")) { try reader.count(for: "nope") }
    }

    @Test func awkwardNamesAreSanitizedAndUnique() throws {
        let folder = try TestPaths.temporaryFolder("plain-names")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/names.sqlite"
        let database = try SQLiteDatabase(path: path, mode: .create)
        try database.execute("""
            CREATE TABLE "2024 data" ("a-b" TEXT, "A_B" TEXT, "" INT);
            CREATE TABLE "Da ta" (x); CREATE TABLE "DA_TA" (y);
            CREATE TABLE "_METADATA" (z);
            """)
        try database.close()
        let reader = try PlainSQLiteReader(path: path)
        #expect(reader.tables.map(\.entity) == ["T2024_data", "Da_ta", "DA_TA1", "_METADATA1"])
        #expect(reader.tables[0].attributes.map(\.attribute) == ["a_b", "A_B1", "c"])
        _ = try StoreLayout(model: reader.model)
    }
}
