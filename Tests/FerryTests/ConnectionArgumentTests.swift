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
        #expect(!(result.out + result.err).contains(secret), "\(arguments): \(result.out)\(result.err)")
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
}
