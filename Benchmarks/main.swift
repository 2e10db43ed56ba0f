import Foundation

/// The benchmark driver: runs every hot path with Ferry and a reference side by side, as child
/// processes measured the same way, and prints ratios and peak memory. See README.md.

func runDriver() -> Int32 {
    let options: Options
    do {
        options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        log("\(error)")
        return 2
    }
    #if DEBUG
    if !options.allowDebug {
        log("FerryBenchmarks is a debug build: figures would be meaningless. Use `swift build -c release` and `.build/release/FerryBenchmarks` (or --allow-debug).")
        return 2
    }
    #endif

    let benchmarks = Catalog.all().filter { options.only.isEmpty || options.only.contains($0.name) }
    let unknown = options.only.subtracting(Catalog.all().map(\.name))
    guard unknown.isEmpty, !benchmarks.isEmpty else {
        log("unknown benchmark(s) \(unknown.sorted().joined(separator: ", ")); known: \(Catalog.all().map(\.name).joined(separator: ", "))")
        return 2
    }

    let workspace: Workspace
    do {
        let folder = try Locations.driverFolder()
        workspace = Workspace(
            folder: try Locations.makeTemporaryFolder(), ferry: try Locations.ferryBinary(in: folder),
            repository: try Locations.repository(above: folder), rows: options.rows)
    } catch {
        log("\(error)")
        return 3
    }
    defer {
        if options.keep {
            log("kept \(workspace.folder)")
        } else {
            try? FileManager.default.removeItem(atPath: workspace.folder)
        }
    }

    if options.tenfold {
        return runTenfold(benchmarks, large: workspace, options: options)
    }

    let runner = Runner(workspace: workspace, repeats: options.repeats, verbose: options.verbose, keepOutputs: options.keep)
    var results: [BenchmarkResult] = []
    for benchmark in benchmarks {
        log("running \(benchmark.name)…")
        results.append(runner.run(benchmark))
    }

    let floor = try? ChildProcess.run(["true"], logPrefix: workspace.path("calibration-true")).peakKilobytes
    let report = Report(
        results: results, machine: .current(), rows: options.rows, repeats: options.repeats, date: Date(),
        peakFloorKilobytes: floor ?? nil)
    FileHandle.standardOutput.write(Data(report.text.utf8))
    if let path = options.jsonPath {
        do {
            let data = try report.json() + Data("\n".utf8)
            if path == "-" {
                FileHandle.standardOutput.write(data)
            } else {
                try data.write(to: URL(fileURLWithPath: path))
            }
        } catch {
            log("cannot write JSON to \(path): \(error)")
            return 3
        }
    }
    return results.contains { $0.failure != nil } ? 1 : 0
}

/// `--tenfold`: Ferry's peaks at `--rows`/10 and `--rows` records; fails when one grows too much.
func runTenfold(_ benchmarks: [Benchmark], large: Workspace, options: Options) -> Int32 {
    let small: Workspace
    do {
        let folder = large.path("tenth")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        small = Workspace(folder: folder, ferry: large.ferry, repository: large.repository, rows: options.rows / 10)
    } catch {
        log("\(error)")
        return 3
    }
    let check = TenfoldCheck(small: small, large: large, verbose: options.verbose)
    let rows = check.run(benchmarks)
    FileHandle.standardOutput.write(Data(check.text(rows, machine: .current(), date: Date()).utf8))
    return rows.allSatisfy { $0.isFlat == true } ? 0 : 1
}

exit(runDriver())
