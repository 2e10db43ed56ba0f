import Foundation

/// `--tenfold`: whether Ferry's memory stays flat as the data grows. Issue #16: ten times the
/// records may raise any verb's peak by at most 20 %.
///
/// Runs the Ferry side of each chosen benchmark (child processes only: an in-process side has no
/// peak of its own) once on a dataset of `--rows`/10 records and once on `--rows`, each in a
/// workspace of its own, and compares the two peaks. The reference sides are not run.
struct TenfoldCheck {
    /// The largest peak at ten times the records allowed, as a multiple of the smaller run's.
    static let allowedGrowth = 1.2

    let small: Workspace
    let large: Workspace
    let verbose: Bool

    /// One benchmark's two runs.
    struct Row {
        let name: String
        let small: RunMeasurement?
        let large: RunMeasurement?
        let failure: String?

        /// Peak at ten times the records over the peak at the smaller count.
        var growth: Double? {
            guard let smallPeak = small?.peakKilobytes, let largePeak = large?.peakKilobytes, smallPeak > 0 else { return nil }
            return Double(largePeak) / Double(smallPeak)
        }

        var isFlat: Bool? { growth.map { $0 <= TenfoldCheck.allowedGrowth } }
    }

    /// Runs the check for every benchmark whose Ferry side is a child process.
    func run(_ benchmarks: [Benchmark]) -> [Row] {
        benchmarks.compactMap { benchmark in
            if case .inProcess = benchmark.ferry(small) { return nil }
            log("running \(benchmark.name) at \(Format.grouped(small.rows)) and \(Format.grouped(large.rows)) records…")
            do {
                let smallRun = try measure(benchmark, in: small)
                let largeRun = try measure(benchmark, in: large)
                return Row(name: benchmark.name, small: smallRun, large: largeRun, failure: nil)
            } catch {
                return Row(name: benchmark.name, small: nil, large: nil, failure: "\(error)")
            }
        }
    }

    private func measure(_ benchmark: Benchmark, in workspace: Workspace) throws -> RunMeasurement {
        try benchmark.prepare(workspace)
        for output in benchmark.outputs { workspace.remove(output) }
        try benchmark.reset?(workspace)
        sync()
        let measurement = try benchmark.ferry(workspace).measure(logPrefix: workspace.path("\(benchmark.name)-tenfold"))
        for output in benchmark.outputs { workspace.remove(output) }
        if verbose {
            let peak = measurement.peakKilobytes.map { Format.megabytes(kilobytes: $0) + " MB" } ?? "n/a"
            log("  \(Format.grouped(workspace.rows)) records: \(Format.seconds(measurement.seconds)) s, peak \(peak)")
        }
        return measurement
    }

    /// The table of the rows.
    func text(_ rows: [Row], machine: Machine, date: Date) -> String {
        let header = ["benchmark", "s at \(Format.grouped(small.rows))", "s at \(Format.grouped(large.rows))",
                      "peak MB at \(Format.grouped(small.rows))", "peak MB at \(Format.grouped(large.rows))", "growth", "≤\(Format.trimmed(Self.allowedGrowth))× (#16)"]
        let lines: [[String]] = rows.map { row in
            guard row.failure == nil, let small = row.small, let large = row.large else {
                return [row.name, "failed: \(row.failure ?? "")", "", "", "", "", "n/a"]
            }
            return [
                row.name, Format.seconds(small.seconds), Format.seconds(large.seconds),
                small.peakKilobytes.map { Format.megabytes(kilobytes: $0) } ?? "n/a",
                large.peakKilobytes.map { Format.megabytes(kilobytes: $0) } ?? "n/a",
                row.growth.map { Format.ratio($0) + "×" } ?? "n/a",
                row.isFlat.map { $0 ? "yes" : "NO" } ?? "n/a",
            ]
        }
        var out = "Ferry memory at ten times the records: one run each; \(machine.summary); \(Report.timestamp(date))\n\n"
        out += MarkdownTable(header: header, rows: lines).text
        return out
    }
}
