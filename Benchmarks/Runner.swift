import Glibc

/// Runs benchmarks: prepares their inputs, then alternates the two sides `repeats` times.
struct Runner {
    let workspace: Workspace
    let repeats: Int
    let verbose: Bool
    /// Leave the last run's outputs in place (`--keep`).
    let keepOutputs: Bool

    /// Runs one benchmark; a side that fails yields a result carrying the failure.
    func run(_ benchmark: Benchmark) -> BenchmarkResult {
        let ferry = benchmark.ferry(workspace)
        let reference = benchmark.reference(workspace)
        if verbose {
            log("[\(benchmark.name)] \(benchmark.summary)")
            log("  ferry:     \(ferry.commandLine)")
            log("  reference: \(reference.commandLine)")
        }
        do {
            try benchmark.prepare(workspace)
            let basis = try benchmark.throughputBasis.map { try workspace.size(of: try $0(workspace)) }
            var ferryRuns: [RunMeasurement] = [], referenceRuns: [RunMeasurement] = []
            if benchmark.warmUp {
                for (label, side) in [("ferry", ferry), ("reference", reference)] {
                    let measurement = try runOnce(side, of: benchmark, logPrefix: "\(benchmark.name)-\(label)-warm-up")
                    if verbose { log("  warm-up \(label) (not counted): \(Format.seconds(measurement.seconds)) s") }
                }
            }
            for round in 0..<repeats {
                // Alternate which side goes first, so neither always meets a warmer cache.
                let order: [(String, Side)] = round.isMultiple(of: 2)
                    ? [("ferry", ferry), ("reference", reference)] : [("reference", reference), ("ferry", ferry)]
                for (label, side) in order {
                    let measurement = try runOnce(side, of: benchmark, logPrefix: "\(benchmark.name)-\(label)-\(round + 1)")
                    if label == "ferry" { ferryRuns.append(measurement) } else { referenceRuns.append(measurement) }
                    if verbose {
                        let peak = measurement.peakKilobytes.map { Format.megabytes(kilobytes: $0) + " MB" } ?? "n/a"
                        let cpu = measurement.cpuSeconds.map { ", CPU \(Format.seconds($0)) s" } ?? ""
                        log("  run \(round + 1) \(label): \(Format.seconds(measurement.seconds)) s\(cpu), peak \(peak)")
                    }
                }
            }
            for output in benchmark.outputs where !keepOutputs { workspace.remove(output) }
            return BenchmarkResult(
                benchmark: benchmark, ferry: ferryRuns, reference: referenceRuns, basisBytes: basis,
                records: workspace.rows, commands: (ferry.commandLine, reference.commandLine))
        } catch {
            return BenchmarkResult(benchmark: benchmark, failure: "\(error)", commands: (ferry.commandLine, reference.commandLine))
        }
    }

    /// Runs one side from a clean start: the benchmark's outputs removed, its reset done.
    private func runOnce(_ side: Side, of benchmark: Benchmark, logPrefix: String) throws -> RunMeasurement {
        for output in benchmark.outputs { workspace.remove(output) }
        try benchmark.reset?(workspace)
        // Start with no dirty pages: the kernel writing back a dataset just generated
        // or the last run's output would otherwise compete with the run timed next.
        sync()
        return try side.measure(logPrefix: workspace.path(logPrefix))
    }

}

/// Progress and diagnostics go to standard error; the table goes to standard output.
func log(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let written = write(2, base + offset, bytes.count - offset)
            if written < 0 && errno != EINTR { return }
            offset += max(written, 0)
        }
    }
}
