import FerryModel
import FerryStore
import Foundation

/// `verify-store`: `ferry verify` of a linked Workspace 3 store of 2 × `--rows` records (2,000,000
/// by default) against writing that same store with `CoreDataStoreWriter` (the reference side,
/// in the driver). Targets: verifying takes less time than writing, in under 128 MB.
///
/// Register it in `Catalog.all()` with: `VerifyBenchmarks.verifyStore,`
enum VerifyBenchmarks {
    static var verifyStore: Benchmark {
        Benchmark(
        name: "verify-store",
        summary: "ferry verify of a linked Workspace 3 store (tags, tasks, uploads, task↔tag join rows) vs writing the same store with CoreDataStoreWriter (in the driver)",
        targets: [.speedup(atLeast: 1.0, issue: "verify"), .ferryPeak(below: 128, issue: "verify")],
        prepare: { w in try VerifyDataset.write(to: w.path("verify.sqlite"), records: 2 * w.rows, model: w.workspaceModel) },
        outputs: ["verify-written.sqlite"],
        throughputBasis: { w in w.path("verify.sqlite") },
        ferry: { w in .process([w.ferry, "verify", w.path("verify.sqlite"), "--model", w.workspaceModel]) },
        reference: { w in
            .inProcess(label: "CoreDataStoreWriter writing \(2 * w.rows) Workspace 3 records") {
                try VerifyDataset.write(to: w.path("verify-written.sqlite"), records: 2 * w.rows, model: w.workspaceModel)
            }
        })
    }

    /// `verify-against`: `ferry verify` of the Workspace 3 store that `migrate-w2-w3` produces
    /// (with a default, verified `ferry migrate`, so it carries its receipt), against its
    /// Workspace 2 source, vs writing that store (`ferry migrate` of the source, `--no-verify`).
    /// The sources are unchanged, so the store is compared with its receipt: the store's own
    /// verification, and a digest of the 500 MB source on the other core. Same targets as
    /// `verify-store`.
    ///
    /// Register it in `Catalog.all()` with: `VerifyBenchmarks.verifyAgainstSource,`
    static var verifyAgainstSource: Benchmark {
        against(name: "verify-against", rerun: false,
                summary: "ferry verify of a migrated Workspace 3 store (2 × rows records and their links) --against its unchanged Workspace 2 source, by the store's receipt, vs migrating that source (writing the store)",
                targets: [.speedup(atLeast: 1.0, issue: "verify"), .ferryPeak(below: 128, issue: "verify")])
    }

    /// `verify-against-rerun`: the same with `--rerun`, which migrates the source again into a
    /// private store and compares fingerprints; bound to cost more than the write it repeats, so
    /// informational: the figure shows by how much. Peak memory keeps its target.
    ///
    /// Register it in `Catalog.all()` with: `VerifyBenchmarks.verifyAgainstSourceRerun,`
    static var verifyAgainstSourceRerun: Benchmark {
        against(name: "verify-against-rerun", rerun: true,
                summary: "verify-against with --rerun: the source migrated again into a private store and compared (informational; peak memory < 128 MB)",
                targets: [.ferryPeak(below: 128, issue: "verify")])
    }

    private static func against(name: String, rerun: Bool, summary: String, targets: [Target]) -> Benchmark {
        Benchmark(
        name: name,
        summary: summary,
        targets: targets,
        prepare: { w in try w.workspaceStores() },
        outputs: ["\(name)-written.sqlite"],
        throughputBasis: { w in w.path("workspace2.sqlite") },
        ferry: { w in
            .process([w.ferry, "verify", w.path("workspace3.sqlite"), "--against", w.path("workspace2.sqlite"), "--model", w.workspaceModel,
                      "--var", MigrateBenchmarks.zone] + (rerun ? ["--rerun"] : []))
        },
        reference: { w in
            .process([w.ferry, "migrate", w.path("workspace2.sqlite"), "--model", w.workspaceModel, "--var", MigrateBenchmarks.zone,
                      "--out", w.path("\(name)-written.sqlite"), "--no-verify"])
        })
    }
}

/// A deterministic Workspace 3 store: 1,000 tags, a fifth of the records tasks (each with two
/// tags through the join table), the rest uploads (each attached to a task).
enum VerifyDataset {
    struct MissingVersion: Error {}

    static func write(to path: String, records: Int, model modelPath: String) throws {
        guard let model = try XcodeModelLoader.loadBundle(at: modelPath).version(named: "Workspace 3") else { throw MissingVersion() }
        try? FileManager.default.removeItem(atPath: path)
        let store = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                   versionIdentifiers: [""])
        let tagCount = 1_000, taskCount = max(1, records / 5), uploadCount = max(0, records - tagCount - taskCount)
        let tags = try Rows(store, "Tag")
        for number in 0..<tagCount { try tags.insert(["ZNAME": .text("tag \(number)")]) }
        let tasks = try Rows(store, "Task")
        let join = try store.joinRowInserter(for: "tasks", of: "Tag")
        for number in 0..<taskCount {
            let key = try tasks.insert([
                "ZTASKID": .integer(Int64(number)), "ZTITLE": .text("task \(number)"), "ZPRIORITY": .integer(Int64(number % 5)),
                "ZISCOMPLETE": .integer(Int64(number % 2)), "ZDUEDATE": .real(500_000_000 + Double(number) * 60),
            ])
            let first = number % tagCount, second = (number * 7 + 1) % tagCount
            for tag in first == second ? [first] : [first, second] {
                try join.insert(source: Int64(tag + 1), destination: key)
            }
        }
        let uploads = try Rows(store, "Upload")
        for number in 0..<uploadCount {
            var uuid = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: UInt64(number).littleEndian) { uuid.replaceSubrange(0..<8, with: $0) }
            try uploads.insert([
                "ZUPLOADID": .blob(uuid), "ZKIND": .integer(5), "ZFILENAME": .text("file \(number).jpg"),
                "ZREMOTEPATH": .text("/remote/\(number).jpg"), "ZBYTECOUNT": .integer(Int64(number * 13 % 100_000)),
                "ZCREATEDAT": .real(400_000_000 + Double(number)), "ZTASK": .integer(Int64(number % taskCount + 1)),
            ])
        }
        try store.finish()
    }

    /// An inserter taking values by column name.
    private struct Rows {
        let inserter: EntityInserter
        init(_ store: CoreDataStoreWriter, _ entity: String) throws { inserter = try store.inserter(for: entity) }

        @discardableResult
        func insert(_ values: [String: StoreValue]) throws -> Int64 {
            try inserter.insert(inserter.columns.map { values[$0.name] ?? .null })
        }
    }
}
