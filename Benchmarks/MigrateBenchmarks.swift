import Foundation

/// `migrate-w2-w3`: `ferry migrate` of a Workspace 2 store of `--rows` uploads and `--rows` tasks
/// (1,000,000 + 1,000,000 by default) to Workspace 3, against writing the same final records
/// directly into a fresh Workspace 3 store. Targets: at most 2× the direct write's time, and
/// under 128 MB.
///
/// The source is a Workspace 2 store, not Workspace 1: Workspace 1's `KYTask` has no
/// relationships, so attachment links and tags only exist from Workspace 2 on. It is built with
/// the `ferry` binary (untimed): the clean uploads (`ferry generate uploads --clean`, the shared
/// dataset) imported as Workspace 2 `Upload`, then `ferry generate tasks --clean --format ndjson` (CSV has no
/// relationship keys) imported as
/// Workspace 2 `Task` with `--append --link attachments=remotePath --link tags=name
/// --create-missing tags`. The Ferry side runs the whole chain's work on it: the written mapping
/// (byte counts, Unix times, kinds, deterministic upload ids deduplicated on `uploadID`, local
/// dates in `$zone`, tasks merged on `taskID`), the key map, and the links (to-one
/// `Upload.task`, many-to-many `Task.tags`).
///
/// The reference side ("direct write") is `ferry migrate` of the Workspace 3 store that the
/// migration produces (made once, untimed) into a fresh Workspace 3 store: an empty chain, so no
/// mapping work, while reading the same number of rows from a store, writing the same final rows
/// and join rows, and resolving the same links. That isolates what the issue bounds, the cost of
/// carrying records through the mappings. Other "direct" writes were rejected as unfair: `ferry
/// import` of the final records would parse and coerce text (slower than reading a store, which
/// flatters the ratio), and a hand-written `CoreDataStoreWriter` loop with foreign keys already
/// known skips reading and link resolution that any migration must do. Both sides run with
/// `--no-verify` (verification reads the same output store on both sides; it is not the
/// migration).
///
/// Register it in `Catalog.all()` with: `MigrateBenchmarks.workspace2To3,`
enum MigrateBenchmarks {
    static let zone = "zone=Asia/Shanghai"

    static var workspace2To3: Benchmark {
        Benchmark(
            name: "migrate-w2-w3",
            summary: "ferry migrate of a Workspace 2 store (uploads, tasks with attachment links and tags) to Workspace 3 vs migrating the resulting Workspace 3 store into a fresh one (same reads, rows and links, no mapping work); both --no-verify",
            targets: [.speedup(atLeast: 0.5, issue: "migrate"), .ferryPeak(below: 128, issue: "migrate")],
            prepare: { w in try w.workspaceStores() },
            outputs: ["migrated.sqlite", "direct.sqlite"],
            throughputBasis: { w in w.path("workspace2.sqlite") },
            ferry: { w in
                .process([w.ferry, "migrate", w.path("workspace2.sqlite"), "--model", w.workspaceModel, "--var", zone,
                          "--out", w.path("migrated.sqlite"), "--no-verify"])
            },
            reference: { w in
                .process([w.ferry, "migrate", w.path("workspace3.sqlite"), "--model", w.workspaceModel, "--var", zone,
                          "--out", w.path("direct.sqlite"), "--no-verify"])
            })
    }
}

extension Workspace {
    /// `workspace2.sqlite` (the source) and `workspace3.sqlite` (its migration, the reference's
    /// input), made once with the `ferry` binary. The migration is a default one, verified, so
    /// the store carries its receipt as a user's would (`verify-against`).
    func workspaceStores() throws {
        let source = path("workspace2.sqlite"), migrated = path("workspace3.sqlite")
        guard !FileManager.default.fileExists(atPath: migrated) else { return }
        let uploads = try cleanUploads(.csv), tasks = path("tasks-clean.ndjson")
        let steps: [[String]] = [
            [ferry, "generate", "tasks", "--count", String(rows), "--format", "ndjson", "--clean", "--seed", String(seed), "--out", tasks],
            [ferry, "import", uploads, "--model", workspaceModel, "--model-version", "Workspace 2", "--entity", "Upload",
             "--out", source, "--force", "--no-verify"],
            [ferry, "import", tasks, "--model", workspaceModel, "--model-version", "Workspace 2", "--entity", "Task",
             "--out", source, "--append", "--link", "attachments=remotePath", "--link", "tags=name", "--create-missing", "tags",
             "--no-verify"],
            [ferry, "migrate", source, "--model", workspaceModel, "--var", MigrateBenchmarks.zone, "--out", migrated, "--force"],
        ]
        for (number, step) in steps.enumerated() {
            _ = try ChildProcess.run(step, logPrefix: path("migrate-prepare-\(number + 1)"))
        }
    }
}
