import FerryFixtures

/// Every benchmark the driver knows, in the order they run.
///
/// Adding one is a few lines: a name, the targets from its issue, what to prepare, and the two
/// sides (`.process([...])` argv, `.shell("...")` for pipelines, or `.inProcess`).
enum Catalog {
    static func all() -> [Benchmark] {
        [
            // MARK: Import

            Benchmark(
                name: "import-csv",
                summary: "clean upload rows from CSV into a Workspace 1 store: ferry import vs sqlite3 .import into a typed table of the CSV's 7 columns (one transaction)",
                targets: [
                    .speedup(atLeast: 1.5, issue: "#4"),
                    .speedup(atLeast: 1.0, issue: "#3"),
                    .ferryPeak(below: 64, issue: "#3"),
                ],
                prepare: { try $0.cleanUploads(.csv) },
                outputs: ["ferry.sqlite", "reference.sqlite"],
                throughputBasis: { try $0.cleanUploads(.csv) },
                ferry: { w in importUploads(w, from: w.cleanUploadsPath(.csv), into: "ferry.sqlite") },
                reference: { w in sqliteImport(w, from: w.cleanUploadsPath(.csv), into: "reference.sqlite") }),

            Benchmark(
                name: "import-csv-unverified",
                summary: "import-csv with --no-verify: the import alone, without the check of the written store that follows it (informational)",
                prepare: { try $0.cleanUploads(.csv) },
                outputs: ["ferry-unverified.sqlite", "reference-unverified.sqlite"],
                throughputBasis: { try $0.cleanUploads(.csv) },
                ferry: { w in importUploads(w, from: w.cleanUploadsPath(.csv), into: "ferry-unverified.sqlite", verify: false) },
                reference: { w in sqliteImport(w, from: w.cleanUploadsPath(.csv), into: "reference-unverified.sqlite") }),

            Benchmark(
                name: "import-csv-small",
                summary: "upload rows without thumbnails (small records, the shape most tables have) from CSV: ferry import (verified) vs sqlite3 .import into a typed table",
                targets: [
                    .speedup(atLeast: 1.5, issue: "#16"),
                    .ferryPeak(below: 64, issue: "#16"),
                ],
                prepare: { try $0.smallUploads(.csv) },
                outputs: ["ferry-small.sqlite", "reference-small.sqlite"],
                throughputBasis: { try $0.smallUploads(.csv) },
                ferry: { w in importUploads(w, from: w.smallUploadsPath(.csv), into: "ferry-small.sqlite") },
                reference: { w in sqliteImport(w, from: w.smallUploadsPath(.csv), into: "reference-small.sqlite") }),

            Benchmark(
                name: "import-csv-small-c",
                summary: "the same small rows: ferry import (verified) vs a C loop built from Benchmarks/Reference (parse + one prepared insert per row, one transaction, no checks)",
                targets: [.speedup(atLeast: 0.67, issue: "#16: within 1.5× of C")],
                prepare: { w in
                    try w.smallUploads(.csv)
                    try w.cReference(.csvInsert)
                },
                outputs: ["ferry-small-c.sqlite", "c-loop.sqlite"],
                throughputBasis: { try $0.smallUploads(.csv) },
                ferry: { w in importUploads(w, from: w.smallUploadsPath(.csv), into: "ferry-small-c.sqlite") },
                reference: { w in .process([w.cReferencePath(.csvInsert), w.smallUploadsPath(.csv), w.path("c-loop.sqlite")]) }),

            // MARK: Formats

            Benchmark(
                name: "csv-parse",
                summary: "CSVReader over FileByteSource touching every field (in the driver) vs wc -l over the same file",
                targets: [.ferryThroughput(atLeast: 300, issue: "#3")],
                prepare: { try $0.cleanUploads(.csv) },
                throughputBasis: { try $0.cleanUploads(.csv) },
                ferry: { w in
                    let file = w.cleanUploadsPath(.csv)
                    return .inProcess(label: "CSVReader(FileByteSource(\(file))) reading every field") { _ = try CSVParseProbe.parse(file) }
                },
                reference: { w in .process(["wc", "-l", w.cleanUploadsPath(.csv)]) }),

            // MARK: Fixtures

            Benchmark(
                name: "generate-csv",
                summary: "ferry generate of the clean upload CSV vs cat copying a file of the same size (informational)",
                prepare: { try $0.cleanUploads(.csv) },
                outputs: ["generated.csv", "copied.csv"],
                throughputBasis: { try $0.cleanUploads(.csv) },
                ferry: { w in
                    .process([
                        w.ferry, "generate", "uploads", "--count", String(w.rows), "--format", "csv", "--clean",
                        "--seed", String(w.seed), "--out", w.path("generated.csv"),
                    ])
                },
                reference: { w in .shell("cat \(w.cleanUploadsPath(.csv)) > \(w.path("copied.csv"))") }),

            Benchmark(
                name: "import-ndjson",
                summary: "the same clean upload rows from NDJSON vs from CSV, both ferry import into a Workspace 1 store (the reference side is the CSV import)",
                targets: [
                    .speedup(atLeast: 0.5, issue: "NDJSON ≤2× CSV"),
                    .ferryPeak(below: 64, issue: "#3"),
                ],
                prepare: { w in
                    try w.cleanUploads(.ndjson)
                    try w.cleanUploads(.csv)
                },
                outputs: ["ferry-ndjson.sqlite", "ferry-csv.sqlite"],
                throughputBasis: { try $0.cleanUploads(.ndjson) },
                ferry: { w in importUploads(w, from: w.cleanUploadsPath(.ndjson), into: "ferry-ndjson.sqlite") },
                reference: { w in importUploads(w, from: w.cleanUploadsPath(.csv), into: "ferry-csv.sqlite") }),

            // MARK: Reading stores

            Benchmark(
                name: "read-store",
                summary: "every upload record of a Workspace 1 store through CoreDataStoreReader.records(model:).records(of:) (in the driver) vs sqlite3 SELECT * of the table to /dev/null",
                targets: [.ferryRecordRate(atLeast: 1_000_000, issue: "#3")],
                prepare: { try $0.uploadStore() },
                ferry: { w in readUploadStore(w) },
                reference: { w in .shell("sqlite3 \(w.uploadStorePath) 'SELECT * FROM ZUPLOADENTITY' > /dev/null") }),

            Benchmark(
                name: "read-store-c",
                summary: "the same records: Ferry's store reading (in the driver) vs a C loop built from Benchmarks/Reference (one prepared SELECT *, every value fetched, texts and blobs copied out): the bound this host sets",
                targets: [.speedup(atLeast: 0.67, issue: "#16: within 1.5× of C")],
                prepare: { w in
                    try w.uploadStore()
                    try w.cReference(.storeRead)
                },
                ferry: { w in readUploadStore(w) },
                reference: { w in .process([w.cReferencePath(.storeRead), w.uploadStorePath, "ZUPLOADENTITY", String(w.rows)]) }),

            Benchmark(
                name: "read-store-threads",
                summary: "the same records: Ferry's store reading on two worker threads (SplitRecordScan, which the cursor uses only with more than two cores) vs the same cursor with one statement, both in the driver",
                targets: [.speedup(atLeast: 1.0, issue: "#16: no slower than one statement")],
                prepare: { try $0.uploadStore() },
                ferry: { w in readUploadStore(w, reading: .workers) },
                reference: { w in readUploadStore(w, reading: .oneStatement) }),
            QueryBenchmarks.query(),
            MigrateBenchmarks.workspace2To3,
            MappingModelBenchmarks.mappingModelMigration,
            VerifyBenchmarks.verifyStore,
            VerifyBenchmarks.verifyAgainstSource,
            VerifyBenchmarks.verifyAgainstSourceRerun,
        ] + ExportBenchmarks.all() + PostgresBenchmarks.all()
    }

    /// Ferry's reading of every upload record of the Workspace 1 upload store, in the driver.
    private static func readUploadStore(_ w: Workspace, reading: StoreReadProbe.Reading = .chosen) -> Side {
        let store = w.uploadStorePath
        let how = reading == .chosen ? "" : " on \(reading.rawValue)"
        return .inProcess(label: "CoreDataStoreReader(\(store)) reading every UploadEntity record\(how)") {
            _ = try StoreReadProbe.read(store, modelBundle: w.workspaceModel, version: "Workspace 1",
                                        entity: "UploadEntity", expected: w.rows, reading: reading)
        }
    }

    /// `ferry import` of upload rows into a Workspace 1 store (verified unless told not to).
    private static func importUploads(_ w: Workspace, from file: String, into store: String, verify: Bool = true) -> Side {
        .process([
            w.ferry, "import", file, "--model", w.workspaceModel,
            "--model-version", "Workspace 1", "--entity", "UploadEntity", "--out", w.path(store),
        ] + (verify ? [] : ["--no-verify"]))
    }

    /// `sqlite3 .import` of an upload CSV into a table of its 7 columns typed like Core Data's.
    private static func sqliteImport(_ w: Workspace, from file: String, into store: String) -> Side {
        .process([
            "sqlite3", w.path(store),
            "CREATE TABLE ZUPLOADENTITY (ZFILENAME VARCHAR, ZFILESIZE VARCHAR, ZFILETYPE INTEGER, ZFINISHSTATUS INTEGER, ZIMAGEDATA BLOB, ZTIME INTEGER, ZURLPATH VARCHAR)",
            ".mode csv", ".import --skip 1 \(file) ZUPLOADENTITY",
        ])
    }
}
