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
                summary: "every upload of a Workspace 1 store to CSV: ferry export --format csv (thumbnails in base64) vs sqlite3 -csv -header with the thumbnail as hex(), which writes 1.4× Ferry's bytes (plain sqlite3 -csv writes a blob as a C string, cut at its first zero byte: 8 bytes of each PNG)",
                targets: [.speedup(atLeast: 1.0, issue: "export"), .ferryPeak(below: 64, issue: "export")],
                prepare: { try $0.uploadStore() },
                outputs: ["export-csv", "reference.csv"],
                ferry: { w in exportCSV(w, w.uploadStorePath, into: "export-csv") },
                reference: { w in
                    sqliteCSV(w, w.uploadStorePath,
                              columns: "Z_PK, Z_ENT, Z_OPT, ZFILETYPE, ZFINISHSTATUS, ZTIME, ZFILENAME, ZFILESIZE, ZURLPATH, hex(ZIMAGEDATA)",
                              into: "reference.csv")
                }),
            Benchmark(
                name: "export-csv-small",
                summary: "every upload of a store of small records (no thumbnails) to CSV: ferry export --format csv vs sqlite3 -csv -header, the same text but for sqlite3's two extra columns (Z_ENT, Z_OPT)",
                targets: [.speedup(atLeast: 1.0, issue: "export"), .ferryPeak(below: 64, issue: "export")],
                prepare: { try $0.smallUploadStore() },
                outputs: ["export-csv-small", "reference-small.csv"],
                ferry: { w in exportCSV(w, w.smallUploadStorePath, into: "export-csv-small") },
                reference: { w in sqliteCSV(w, w.smallUploadStorePath, columns: "*", into: "reference-small.csv") }),
            Benchmark(
                name: "restore-csv-small",
                summary: "a CSV export of the small uploads back into a store: ferry restore (every record through the model, checked against the manifest's counts and digests, the store verified and fingerprinted against the store exported) vs sqlite3 .import of the same file into a new table of text columns (nothing converted or checked)",
                targets: [.speedup(atLeast: 0.5, issue: "restore"), .ferryPeak(below: 64, issue: "restore")],
                prepare: { try $0.smallUploadExport() },
                outputs: ["restored-small.sqlite", "reference-restored.sqlite"],
                ferry: { w in
                    .process([w.ferry, "restore", w.smallUploadExportPath, "--model", w.workspaceModel, "--out", w.path("restored-small.sqlite")])
                },
                reference: { w in
                    .process(["sqlite3", w.path("reference-restored.sqlite"), ".mode csv",
                              ".import \(w.smallUploadExportPath)/UploadEntity.csv ZUPLOADENTITY"])
                }),
        ]
    }

    /// `ferry export STORE --format csv` into the folder `name`.
    private static func exportCSV(_ w: Workspace, _ store: String, into name: String) -> Side {
        .process([w.ferry, "export", store, "--out", w.path(name), "--format", "csv", "--model", w.workspaceModel])
    }

    /// `sqlite3 -csv -header` of `columns` of every upload row into the file `name`.
    private static func sqliteCSV(_ w: Workspace, _ store: String, columns: String, into name: String) -> Side {
        .shell("sqlite3 -csv -header \(store) 'SELECT \(columns) FROM ZUPLOADENTITY' > \(w.path(name))")
    }
}
