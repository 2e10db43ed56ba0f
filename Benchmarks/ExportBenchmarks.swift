import Foundation

/// Export benchmarks: a store of `rows` clean uploads (made once per run by `ferry import`,
/// untimed) exported by `ferry export` and by the sqlite3 shell. Registered in `Catalog.all()`.
enum ExportBenchmarks {
    static func all() -> [Benchmark] {
        [
            Benchmark(
                name: "export-ndjson-gzip",
                summary: "every upload of a Workspace 1 store to gzip NDJSON: ferry export --gzip (level 6) vs sqlite3 -json piped into gzip -6",
                targets: [.speedup(atLeast: 1.5, issue: "export"), .ferryPeak(below: 64, issue: "export")],
                prepare: { try $0.uploadStore() },
                outputs: ["export-ndjson", "reference.json.gz"],
                ferry: { w in
                    .process([w.ferry, "export", w.uploadStorePath, "--out", w.path("export-ndjson"), "--gzip", "--model", w.workspaceModel])
                },
                reference: { w in
                    .shell("sqlite3 -json \(w.uploadStorePath) 'SELECT * FROM ZUPLOADENTITY' | gzip -6 > \(w.path("reference.json.gz"))")
                }),
            Benchmark(
                name: "export-csv",
                summary: "every upload of a Workspace 1 store to CSV: ferry export --format csv vs sqlite3 -csv -header",
                targets: [.speedup(atLeast: 1.0, issue: "export"), .ferryPeak(below: 64, issue: "export")],
                prepare: { try $0.uploadStore() },
                outputs: ["export-csv", "reference.csv"],
                ferry: { w in
                    .process([w.ferry, "export", w.uploadStorePath, "--out", w.path("export-csv"), "--format", "csv", "--model", w.workspaceModel])
                },
                reference: { w in
                    .shell("sqlite3 -csv -header \(w.uploadStorePath) 'SELECT * FROM ZUPLOADENTITY' > \(w.path("reference.csv"))")
                }),
        ]
    }
}
