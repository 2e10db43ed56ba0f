import FerryPostgres
import FerryTestSupport
import Foundation
import Testing

@Suite("a connection to a real server", .enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.unavailableReason ?? "")))
struct PostgresConnectionTests {
    @Test("parameters carry values; identifiers are quoted")
    func parameters() throws {
        let connection = try PostgresConnection(ConnectionTarget(try PostgresTestServer.running().database().uri))
        let odd = "we\"ird table"
        try connection.execute("CREATE TABLE \(PostgresIdentifier.quoted(odd)) (name text, n integer)")
        let hostile = "x'); DROP TABLE \"we\"\"ird table\"; --"
        try connection.execute("INSERT INTO \(PostgresIdentifier.quoted(odd)) VALUES ($1, $2)", [hostile, "7"])
        try connection.execute("INSERT INTO \(PostgresIdentifier.quoted(odd)) VALUES ($1, $2)", [nil, nil])
        let rows = try connection.execute("SELECT name, n FROM \(PostgresIdentifier.quoted(odd)) ORDER BY n NULLS LAST")
        #expect(rows == [[hostile, "7"], [nil, nil]])
    }

    @Test("COPY in binary form and binary rows out give back every type exactly")
    func copyAndStream() throws {
        let connection = try PostgresConnection(ConnectionTarget(try PostgresTestServer.running().database().uri))
        try connection.execute("""
            CREATE TABLE t (a smallint, b integer, c bigint, d boolean, e real, f double precision, g numeric, h text,
                            i timestamptz, j bytea, k uuid)
            """)
        let copy = try connection.copyIn("COPY t FROM STDIN (FORMAT binary)")
        try copy.startRow(fieldCount: 11)
        copy.append(int16: -7)
        copy.append(int32: 123_456)
        copy.append(int64: .max)
        copy.append(bool: true)
        copy.append(float32: 1.5)
        copy.append(float64: 0.1)
        copy.append(bytes: try #require(PostgresNumeric.encode("-12345.00067")))
        copy.append(text: "héllo \"quoted\" 'x'")
        copy.append(timestamp: 1_000_000)
        copy.append(bytes: [0, 1, 255])
        copy.append(bytes: Array(0..<16) as [UInt8])
        try copy.startRow(fieldCount: 11)
        for _ in 0..<11 { copy.appendNull() }
        #expect(try copy.finish() == 2)
        #expect(try connection.execute("SELECT i, k FROM t WHERE a IS NOT NULL") == [["2000-01-01 00:00:01+00", "00010203-0405-0607-0809-0a0b0c0d0e0f"]])
        let stream = try connection.rows("SELECT * FROM t WHERE b = $1", ["123456"])
        let row = try #require(try stream.next())
        #expect(try row.integer(0) == -7 && row.integer(1) == 123_456 && row.integer(2) == .max)
        #expect(try row.bool(3) && row.double(4) == 1.5 && row.double(5) == 0.1)
        #expect(try row.numeric(6) == "-12345.00067" && row.text(7) == "héllo \"quoted\" 'x'")
        #expect(try row.timestamp(8) == 1_000_000 && row.bytes(9) == [0, 1, 255] && row.uuid(10) == Array(0..<16))
        #expect(try stream.next() == nil)
        #expect(try connection.execute("SELECT count(*) FROM t") == [["2"]])
    }

    @Test("a statement the server refuses is a typed error with its SQLSTATE; the connection stays usable")
    func serverError() throws {
        let connection = try PostgresConnection(ConnectionTarget(try PostgresTestServer.running().database().uri))
        let error = try #require(throws: PostgresError.self) { try connection.execute("SELECT * FROM missing_table") }
        #expect(error.sqlState == "42P01")
        #expect(try connection.execute("SELECT 1") == [["1"]])
    }

    @Test("a COPY of many blocks arrives whole, and a row the server refuses in a later block fails it")
    func copyManyBlocks() throws {
        let connection = try PostgresConnection(ConnectionTarget(try PostgresTestServer.running().database().uri))
        try connection.execute("CREATE TABLE t (n bigint PRIMARY KEY, b bytea)")
        let padding = [UInt8](repeating: 7, count: 100)
        // About 12 MB: blocks are sent on the sender's thread while later ones are encoded.
        let rows = 100_000
        let copy = try connection.copyIn("COPY t FROM STDIN (FORMAT binary)")
        for n in 1...rows {
            try copy.startRow(fieldCount: 2)
            copy.append(int64: Int64(n))
            copy.append(bytes: padding)
        }
        #expect(try copy.finish() == Int64(rows))
        #expect(try connection.execute("SELECT count(*), sum(n), sum(length(b)) FROM t") == [["\(rows)", "\(rows * (rows + 1) / 2)", "\(rows * 100)"]])

        let refused = try connection.copyIn("COPY t FROM STDIN (FORMAT binary)")
        let error = try #require(throws: PostgresError.self) {
            for n in (rows + 1)...(rows * 2) {
                try refused.startRow(fieldCount: 2)
                // One key taken already, far into the COPY.
                refused.append(int64: Int64(n == rows + 90_000 ? 1 : n))
                refused.append(bytes: padding)
            }
            try refused.finish()
        }
        #expect(error.sqlState == "23505")
        #expect(try connection.execute("SELECT count(*) FROM t") == [["\(rows)"]])
    }

    @Test("a field larger than a COPY block arrives whole, between small rows, with every byte in place")
    func copyLargeField() throws {
        let connection = try PostgresConnection(ConnectionTarget(try PostgresTestServer.running().database().uri))
        try connection.execute("CREATE TABLE t (n bigint PRIMARY KEY, b bytea)")
        // 3 MB: more than a block holds, so the block grows for it with the rows before it kept.
        let large = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        let copy = try connection.copyIn("COPY t FROM STDIN (FORMAT binary)")
        for n in 1...3 {
            try copy.startRow(fieldCount: 2)
            copy.append(int64: Int64(n))
            copy.append(bytes: n == 2 ? large : [UInt8(n)])
        }
        #expect(try copy.finish() == 3)
        // Read back as hex text: a second path, not COPY's binary form.
        #expect(try connection.execute("SELECT n, encode(b, 'hex') FROM t ORDER BY n")
            == [["1", "01"], ["2", Self.hex(large)], ["3", "03"]])
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    @Test("an aborted COPY keeps no rows")
    func abortedCopy() throws {
        let connection = try PostgresConnection(ConnectionTarget(try PostgresTestServer.running().database().uri))
        try connection.execute("CREATE TABLE t (n integer)")
        let copy = try connection.copyIn("COPY t FROM STDIN (FORMAT binary)")
        try copy.startRow(fieldCount: 1)
        copy.append(int32: 1)
        copy.abort("the source failed")
        #expect(try connection.execute("SELECT count(*) FROM t") == [["0"]])
    }

    @Test("a stream dropped early leaves the connection usable")
    func droppedStream() throws {
        let connection = try PostgresConnection(ConnectionTarget(try PostgresTestServer.running().database().uri))
        do {
            let stream = try connection.rows("SELECT generate_series(1, 100000)")
            _ = try stream.next()
        }
        #expect(try connection.execute("SELECT 2") == [["2"]])
    }

    @Test("passwords: a wrong one fails without being shown; the right one connects")
    func passwords() throws {
        let server = try PostgresTestServer.running()
        let name = try server.database(owner: PostgresTestServer.passwordUser).name
        let wrong = "wrong-\(PostgresTestServer.password)-guess"
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection(ConnectionTarget(server.uri(database: name, user: PostgresTestServer.passwordUser, password: wrong)))
        }
        #expect(error.description.contains("password authentication failed"))
        #expect(!error.description.contains(wrong) && !error.description.contains(PostgresTestServer.password))
        let right = try PostgresConnection(ConnectionTarget(
            server.uri(database: name, user: PostgresTestServer.passwordUser, password: PostgresTestServer.password)))
        #expect(try right.execute("SELECT current_user") == [[PostgresTestServer.passwordUser]])
        #expect(!right.target.description.contains(PostgresTestServer.password))
    }
}
