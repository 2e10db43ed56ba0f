import Foundation

/// `migrate-mapping-model`: `ferry migrate` of `--rows` records with one relationship through an
/// Apple mapping model, against the same migration as the written mapping that `ferry mapping
/// convert` makes of it. Targets (issue #15): at most 1.2× the written mapping's time, under 128 MB.
///
/// The mapping model is XCServerCoreData's `MappingModel1.0.0to1.1.0.xcmappingmodel` from the
/// shared corpus (`../shared/corpus` beside the package; the benchmark cannot be measured without
/// it). The source is an XCServerCoreData 1.0.0 store of `--rows / 2` `Commit`s and as many
/// `CommitChange`s, each change linked to its commit (`CommitChange.commit`), built untimed with
/// the `ferry` binary: a CSV of commits imported, then an NDJSON of changes appended with `--link
/// commit=commitHash`. The Ferry side migrates it with the model bundle and its mapping models
/// (the step runs the mapping model, found beside the model); the reference side with a copy of
/// the bundle that has only the converted `XCServerCoreData to XCServerCoreData1.1.0.mapping`
/// beside it. Both write the same records and links (the tests prove the conversion equivalent);
/// both run with `--no-verify`.
enum MappingModelBenchmarks {
    static var mappingModelMigration: Benchmark {
        Benchmark(
            name: "migrate-mapping-model",
            summary: "ferry migrate of an XCServerCoreData 1.0.0 store (commits and their changes, one relationship) to 1.1.0 through Apple's mapping model vs through the written mapping converted from it; both --no-verify",
            targets: [.speedup(atLeast: 1 / 1.2, issue: "#15"), .ferryPeak(below: 128, issue: "#15")],
            prepare: { w in try w.mappingModelStores() },
            outputs: ["by-mapping-model.sqlite", "by-written-mapping.sqlite"],
            throughputBasis: { w in w.path("xcserver-1.0.0.sqlite") },
            ferry: { w in
                .process([w.ferry, "migrate", w.path("xcserver-1.0.0.sqlite"), "--model", w.path("mapping-model/XCServerCoreData.xcdatamodeld"),
                          "--model-version", "XCServerCoreData1.1.0", "--out", w.path("by-mapping-model.sqlite"), "--no-verify"])
            },
            reference: { w in
                .process([w.ferry, "migrate", w.path("xcserver-1.0.0.sqlite"), "--model", w.path("written-mapping/XCServerCoreData.xcdatamodeld"),
                          "--model-version", "XCServerCoreData1.1.0", "--out", w.path("by-written-mapping.sqlite"), "--no-verify"])
            })
    }
}

extension Workspace {
    /// XCServerCoreData's resources in the shared corpus.
    private var xcserverResources: String {
        (repository as NSString).deletingLastPathComponent + "/shared/corpus/coredata/richardpiazza__XCServerCoreData/Resources"
    }

    /// `xcserver-1.0.0.sqlite` (the source), `mapping-model/` (the bundle with its mapping
    /// models) and `written-mapping/` (the bundle with the converted mapping only), made once.
    func mappingModelStores() throws {
        let store = path("xcserver-1.0.0.sqlite")
        guard !FileManager.default.fileExists(atPath: store) else { return }
        let resources = xcserverResources
        guard FileManager.default.fileExists(atPath: resources) else {
            throw Locations.Missing(description: "migrate-mapping-model needs the shared corpus: no \(resources)")
        }
        let files = FileManager.default
        for folder in ["mapping-model", "written-mapping"] {
            try? files.removeItem(atPath: path(folder))
            try files.createDirectory(atPath: path(folder), withIntermediateDirectories: true)
            try files.copyItem(atPath: resources + "/XCServerCoreData.xcdatamodeld", toPath: path(folder + "/XCServerCoreData.xcdatamodeld"))
        }
        let mappingModel = path("mapping-model/MappingModel1.0.0to1.1.0.xcmappingmodel")
        try files.copyItem(atPath: resources + "/MappingModel1.0.0to1.1.0.xcmappingmodel", toPath: mappingModel)
        let commits = rows / 2
        var csv = "commitHash,message,timestamp\n"
        var ndjson = ""
        csv.reserveCapacity(commits * 48)
        ndjson.reserveCapacity(commits * 64)
        for index in 0..<commits {
            csv += "c\(index),change number \(index),2017-06-0\(index % 9 + 1)T12:00:00Z\n"
            ndjson += #"{"filePath":"Sources/File\#(index).swift","status":\#(index % 4),"commit":"c\#(index)"}"# + "\n"
        }
        try csv.write(toFile: path("commits.csv"), atomically: true, encoding: .utf8)
        try ndjson.write(toFile: path("changes.ndjson"), atomically: true, encoding: .utf8)
        let model = path("mapping-model/XCServerCoreData.xcdatamodeld")
        let steps: [[String]] = [
            [ferry, "import", path("commits.csv"), "--model", model, "--model-version", "XCServerCoreData", "--entity", "Commit",
             "--out", store, "--force", "--no-verify"],
            [ferry, "import", path("changes.ndjson"), "--model", model, "--model-version", "XCServerCoreData", "--entity", "CommitChange",
             "--out", store, "--append", "--link", "commit=commitHash", "--no-verify"],
            [ferry, "mapping", "convert", mappingModel, "--model", model, "--out", path("written-mapping")],
        ]
        for (number, step) in steps.enumerated() {
            _ = try ChildProcess.run(step, logPrefix: path("mapping-model-prepare-\(number + 1)"))
        }
    }
}
