import CSQLite
import FerryStore
import FoundationEssentials
import Testing

@Suite struct SQLiteDatabaseTests {
    @Test func openingAMissingFileIsATypedError() throws {
        let path = temporaryStorePath("missing")
        let error = try #require(throws: SQLiteError.self) { try SQLiteDatabase(path: path, mode: .readOnly) }
        #expect(error.primaryCode == SQLITE_CANTOPEN)
        #expect(error.path == path)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func openingANonSQLiteFileIsATypedError() throws {
        let path = temporaryStorePath("not-a-database")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("name,age\nAda,36\n".utf8 + Array(repeating: 0x20, count: 200))))
        let error = try #require(throws: SQLiteError.self) { try SQLiteDatabase(path: path, mode: .readOnly) }
        #expect(error.primaryCode == SQLITE_NOTADB)
        #expect(error.sql == "SELECT count(*) FROM sqlite_master")
        #expect(error.description.contains(path))
    }

    @Test func bindingsRoundTripIncludingEmptyTextAndBlobs() throws {
        let database = try SQLiteDatabase(path: ":memory:", mode: .create)
        try database.execute("CREATE TABLE t (i INTEGER, r FLOAT, s VARCHAR, b BLOB, n INTEGER)")
        let insert = try database.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        let rows: [[StoreValue]] = [
            [.integer(Int64.min), .real(-0.5), .text("héllo"), .blob([0, 1, 255]), .null],
            [.integer(0), .real(0), .text(""), .blob([]), .null],
            [.integer(7), .real(1e300), .utf8(Array("bytes".utf8)), .blob([0x10]), .integer(1)],
        ]
        for row in rows {
            for (offset, value) in row.enumerated() { try insert.bind(value, at: Int32(offset + 1)) }
            try insert.run()
            try insert.reset()
        }
        let select = try database.prepare("SELECT i, r, s, b, n, typeof(s), typeof(b) FROM t ORDER BY rowid")
        #expect(try select.step())
        #expect(select.int64(at: 0) == Int64.min)
        #expect(select.double(at: 1) == -0.5)
        #expect(select.string(at: 2) == "héllo")
        #expect(select.bytes(at: 3) == [0, 1, 255])
        #expect(select.isNull(at: 4))
        #expect(try select.step())
        #expect(select.string(at: 5) == "text")
        #expect(select.string(at: 6) == "blob")
        #expect(select.withText(at: 2) { $0.count } == 0)
        #expect(try select.step())
        #expect(select.withText(at: 2) { Array($0) } == Array("bytes".utf8))
        #expect(select.int64(at: 4) == 1)
        #expect(try !select.step())
    }

    @Test func failedStatementsCarryTheirSQLAndTransactionsRollBack() throws {
        let database = try SQLiteDatabase(path: ":memory:", mode: .create)
        try database.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
        let error = try #require(throws: SQLiteError.self) { try database.prepare("SELECT nope FROM t") }
        #expect(error.sql == "SELECT nope FROM t")
        #expect(error.primaryCode == SQLITE_ERROR)
        #expect(throws: SQLiteError.self) {
            try database.transaction {
                try database.execute("INSERT INTO t VALUES (1)")
                try database.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(!database.isInTransaction)
        #expect(try database.scalarInteger("SELECT count(*) FROM t") == 0)
    }

    @Test func finalizedStatementsAndClosedConnectionsAreMisuseErrors() throws {
        let database = try SQLiteDatabase(path: ":memory:", mode: .create)
        let statement = try database.prepare("SELECT 1")
        #expect(throws: SQLiteError.self) { try database.close() }
        statement.finalize()
        let error = try #require(throws: SQLiteError.self) { try statement.step() }
        #expect(error.code == SQLITE_MISUSE)
        try database.close()
        #expect(throws: SQLiteError.self) { try database.execute("SELECT 1") }
    }
}
