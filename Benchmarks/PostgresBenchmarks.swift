import Ferry
import FerryFixtures
import FerryFormats
import FerryTestSupport
import Foundation

/// PostgreSQL benchmarks, against a server the driver starts for the run (the tests' server:
/// a Unix socket in a temp folder, run as `postgres` when the driver runs as root, stopped when
/// the driver ends). Each run starts from an empty database and a checkpointed server: before
/// every run of either side (not timed) the last runs' tables are dropped and `CHECKPOINT`
/// writes out what they left dirty, so that neither side pays for the other's pages or meets a
/// checkpoint the other one's WAL started. Registered in `Catalog.all()`.
enum PostgresBenchmarks {
    static func all() -> [Benchmark] {
        [
            Benchmark(
                name: "export-postgres",
                summary: "every upload of a Workspace 1 store into PostgreSQL: ferry export --to (binary COPY, foreign keys, verified) vs sqlite3 -csv piped into psql \\copy of a typed table with a primary key",
                targets: [.speedup(atLeast: 1.0, issue: "#17"), .ferryPeak(below: 64, issue: "#17")],
                prepare: { w in
                    try w.uploadStore()
                    _ = try PostgresTestServer.running()
                },
                reset: { _ in try resetDatabase("DROP SCHEMA IF EXISTS bench CASCADE; DROP TABLE IF EXISTS reference") },
                warmUp: true,
                ferry: { w in
                    .shell(ShellQuote.quote(w.ferry) + " export " + ShellQuote.quote(w.uploadStorePath)
                        + " --model " + ShellQuote.quote(w.workspaceModel) + " --to "
                        + ShellQuote.quote(database(w)) + " --schema bench > /dev/null")
                },
                reference: { w in
                    let select = "SELECT Z_PK, Z_ENT, Z_OPT, ZFILENAME, ZFILESIZE, ZFILETYPE, ZFINISHSTATUS, "
                        + "CASE WHEN ZIMAGEDATA IS NULL THEN NULL ELSE '\\x' || hex(ZIMAGEDATA) END, ZTIME, ZURLPATH FROM ZUPLOADENTITY"
                    let table = "CREATE TABLE reference (z_pk bigint PRIMARY KEY, z_ent integer, z_opt integer, "
                        + "\"fileName\" text, \"fileSize\" text, \"fileType\" integer, \"finishStatus\" boolean, \"imageData\" bytea, "
                        + "\"time\" bigint, \"urlPath\" text)"
                    return .shell(psql(w, table) + " && sqlite3 -csv " + ShellQuote.quote(w.uploadStorePath) + " " + ShellQuote.quote(select)
                        + " | " + psql(w, "\\copy reference FROM STDIN CSV"))
                }),
            Benchmark(
                name: "export-postgres-fleet",
                summary: "100 Workspace 1 stores of --rows/100 uploads each into one schema: ferry export --to --jobs 2 vs --jobs 1",
                targets: [.speedup(atLeast: 1.6, issue: "#17")],
                prepare: { w in
                    try fleet(w)
                    _ = try PostgresTestServer.running()
                },
                reset: { _ in try resetDatabase("DROP SCHEMA IF EXISTS fleet CASCADE") },
                warmUp: true,
                ferry: { w in fleetLoad(w, jobs: 2) },
                reference: { w in fleetLoad(w, jobs: 1) }),
        ]
    }

    /// Stores in the fleet.
    static let fleetSize = 100

    /// `ferry export` of every fleet store into schema `fleet`, `jobs` at a time.
    private static func fleetLoad(_ w: Workspace, jobs: Int) -> Side {
        let stores = (1...fleetSize).map { ShellQuote.quote(w.path("fleet/store-\($0).sqlite")) }.joined(separator: " ")
        return .shell(ShellQuote.quote(w.ferry) + " export " + stores
            + " --model " + ShellQuote.quote(w.workspaceModel) + " --to " + ShellQuote.quote(database(w)) + " --schema fleet --jobs \(jobs) > /dev/null")
    }

    /// 100 Workspace 1 stores of `rows / 100` clean uploads each (imported in-process, untimed),
    /// each with a store UUID of its own.
    private static func fleet(_ w: Workspace) throws {
        let folder = w.path("fleet")
        guard !FileManager.default.fileExists(atPath: folder + "/store-\(fleetSize).sqlite") else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let csv = folder + "/uploads.csv"
        let file = try FileByteSink(path: csv)
        var writer = FixtureWriter<UploadRecord, ClosureByteSink>(format: .csv, sink: ClosureByteSink { chunk in try file.write(chunk) })
        try writer.write(contentsOf: try UploadRecordGenerator(seed: w.seed, count: max(1, w.rows / fleetSize), rates: .none))
        try writer.finish()
        try file.close()
        for number in 1...fleetSize {
            _ = try ImportJob(request: ImportRequest(sources: [csv], modelPath: w.workspaceModel, modelVersion: "Workspace 1",
                                                     entity: "UploadEntity", outputPath: folder + "/store-\(number).sqlite")).run()
        }
    }

    /// The run's database (the server's `postgres` database).
    private static func database(_ w: Workspace) -> String {
        (try? PostgresTestServer.running().uri(database: "postgres")) ?? "postgresql:///postgres"
    }

    /// Runs `drop` and then `CHECKPOINT` on the run's database (`Benchmark.reset`).
    private static func resetDatabase(_ drop: String) throws {
        let server = try PostgresTestServer.running()
        _ = try server.psql(drop)
        _ = try server.psql("CHECKPOINT")
    }

    /// `psql` running one command on the run's database, quiet, stopping on the first error.
    private static func psql(_ w: Workspace, _ command: String) -> String {
        let binary = (PostgresTestServer.binaries ?? "/usr/bin") + "/psql"
        return ShellQuote.quote(binary) + " -X -q -v ON_ERROR_STOP=1 -d " + ShellQuote.quote(database(w)) + " -c " + ShellQuote.quote(command)
    }
}
