import FerryTestSupport
import Foundation
import Testing

/// A store whose text column holds bytes that are not valid UTF-8, through every verb that reads
/// it: `verify` gives its verdict (exit 5); `export`, `backup`, `query` and a load into PostgreSQL
/// cannot copy or show the value as it is (exit 3); `migrate` rejects the record (exit 1). Each
/// names the store, the entity, the `Z_PK` and the attribute: the store reader's errors named a
/// table, row and column without the entity, `query` named "object Z_PK 2" without it, and the
/// PostgreSQL load and a migration's reject named the store twice.
@Suite("text that is not valid UTF-8, verb by verb")
struct InvalidTextVerbTests {
    /// A Workspace 2 store whose Upload 2 has the file name `a` 0xFF `b`.
    private static func store(_ name: String) throws -> (folder: String, store: String) {
        let folder = try TestPaths.temporaryFolder(name)
        let store = try ExportTestSupport.workspace2Store(folder)
        #expect(try ExportTestSupport.shell("sqlite3 '\(store)' \"UPDATE ZUPLOAD SET ZFILENAME = CAST(x'61ff62' AS TEXT) WHERE Z_PK = 2\"").status == 0)
        return (folder, store)
    }

    private static let named = "Upload Z_PK 2, attribute fileName: text that is not valid UTF-8"

    @Test("verify fails (5); export, backup and query refuse (3); migrate rejects the record (1); each names store, entity, Z_PK, attribute")
    func verbs() throws {
        let (folder, store) = try Self.store("invalid-text-verbs")
        let workspace = ExportTestSupport.workspace
        let runs: [(arguments: [String], status: Int32)] = [
            (["verify", store, "--model", workspace], 5),
            (["export", store, "--model", workspace, "--out", folder + "/out"], 3),
            (["backup", store, "--model", workspace, "--to", folder + "/backups"], 3),
            (["query", store, "--entity", "Upload", "--format", "json"], 3),
            (["migrate", store, "--model", workspace, "--var", "zone=UTC", "--out", folder + "/Migrated.sqlite"], 1),
        ]
        for (arguments, status) in runs {
            let run = try FerryProcess.run(arguments)
            let said = run.out + run.err
            #expect(run.status == status, "\(arguments[0]): \(run.status) \(run.err)")
            #expect(said.contains(Self.named) && said.contains(store), "\(arguments[0]): \(said)")
            #expect(!said.contains("\(store): \(store)") && !said.contains("\(store): Upload: \(store)"), "\(arguments[0]) names the store twice: \(said)")
        }
    }

    @Test("a load into PostgreSQL refuses the store (3), naming store, entity, Z_PK and attribute once",
          .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
    func postgresLoad() throws {
        let (_, store) = try Self.store("invalid-text-postgres")
        let run = try FerryProcess.run(["export", store, "--model", ExportTestSupport.workspace, "--to", try PostgresTestSupport.database()])
        #expect(run.status == 3, "\(run.err)")
        #expect(run.err.contains("ferry export: \(store): table ZUPLOAD, row 2, column ZFILENAME: \(Self.named)"), "\(run.err)")
    }
}
