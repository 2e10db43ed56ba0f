import FerryTestSupport
import Foundation
import Testing

/// A PostgreSQL connection where a file was expected was used as a path and shown (with its
/// password) in messages, `--json` and the names of folders `export --out` made; a password
/// holding `/` was read by libpq as part of the database name, and a mistyped `postgresql:/`
/// was quoted whole by libpq's parse error. None needs a server: all are refused (exit 2)
/// before anything connects, and the password shows nowhere.
@Suite("PostgreSQL connections in arguments")
struct ConnectionArgumentTests {
    private let secret = "Zq9SECRETpw"

    private func refused(_ arguments: [String], saying text: String, in folder: String) throws {
        let result = try FerryProcess.run(arguments, in: folder)
        #expect(result.status == 2, "\(arguments): \(result.err)")
        #expect(result.err.contains(text), "\(arguments): \(result.err)")
        // Any part of it: a scrubber that replaced a piece of it left the rest readable.
        #expect(!(result.out + result.err).contains("SECRET"), "\(arguments): \(result.out)\(result.err)")
    }

    @Test("a connection where a file or store is expected, a password holding '/', a mistyped scheme: exit 2, no password shown, nothing written")
    func refusedWithoutPassword() throws {
        let folder = try TestPaths.temporaryFolder("connection-arguments")
        let uri = "postgresql://u:\(secret)@/db"
        try refused(["inspect", uri], saying: "postgresql://u@/db: a PostgreSQL connection, where this verb takes files and stores", in: folder)
        try refused(["query", uri, "--entity", "E"], saying: "a PostgreSQL connection, where this verb takes files and stores", in: folder)
        try refused(["export", "s.sqlite", "--out", uri], saying: "--out takes a file or folder, not a PostgreSQL connection (postgresql://u@/db)",
                    in: folder)
        try refused(["verify", "s.sqlite", "--against", uri], saying: "--against takes a file or folder, not a PostgreSQL connection", in: folder)
        // restore and verify take one as their first argument only.
        try refused(["restore", "backup", "--out", uri, "--model", "M.xcdatamodeld"], saying: "--out takes a file or folder", in: folder)
        try refused(["verify", "s.sqlite", uri], saying: "(a connection is its first argument)", in: folder)
        try refused(["export", "s.sqlite", "--to", "postgresql://u:ab/\(secret)@/db"], saying: "percent-encode '/', '?', '#' and '@'", in: folder)
        try refused(["export", "s.sqlite", "--to", "postgresql:/u:\(secret)@/db"], saying: "not a PostgreSQL connection string", in: folder)
        try refused(["import", "PostgreSQL:/u:\(secret)@h/db", "--model", "M.xcdatamodeld", "--entity", "E", "--out", "s.sqlite"],
                    saying: "a PostgreSQL connection", in: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// libpq ended the password at its first '@' and quoted the rest as a host name; it read a
    /// URI of another scheme, or none, as key=value pairs and quoted the password as a keyword.
    @Test("a connection text libpq would misread is refused by every PostgreSQL verb (exit 2) with no part of the password in text, --json or --log json")
    func misreadConnections() throws {
        let folder = try TestPaths.temporaryFolder("connection-misread")
        let texts = ["postgresql://ferry_secret:p@ss\(secret)@localhost/t5", "postgres://u:\(secret)@@localhost/t5",
                     "jdbc:postgresql://ferry_secret:\(secret)@localhost/t5?sslmode=disable",
                     "postgresql+psycopg2://ferry_secret:\(secret)@localhost/t5?sslmode=require", "ferry_secret:\(secret)@localhost/t5?sslmode=require"]
        for text in texts {
            for mode in [[], ["--json"], ["--log", "json"]] {
                try refused(["export", "s.sqlite", "--to", text] + mode, saying: "not a PostgreSQL connection string", in: folder)
            }
        }
        let uri = texts[0]
        try refused(["restore", uri, "--store", "DC2CE2A7-3DCC-4AB1-B809-C114CD80DA91", "--model", "M.xcdatamodeld", "--out", "r.sqlite", "--json"],
                    saying: "percent-encode", in: folder)
        try refused(["verify", uri, "--against", "s.sqlite", "--log", "json"], saying: "percent-encode", in: folder)
        try refused(["migrate", "s.sqlite", "--model", "M.xcdatamodeld", "--out", uri, "--json"], saying: "percent-encode", in: folder)
        // Where a file is expected, another scheme naming PostgreSQL is a connection too.
        try refused(["inspect", texts[3]], saying: "a PostgreSQL connection, where this verb takes files and stores", in: folder)
        try refused(["export", "s.sqlite", "--out", texts[2]], saying: "--out takes a file or folder, not a PostgreSQL connection", in: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
