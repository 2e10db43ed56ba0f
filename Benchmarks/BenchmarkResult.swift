/// The figures of one benchmark: medians, peaks, ratio and targets.
struct BenchmarkResult {
    let name: String
    let commands: (ferry: String, reference: String)
    let ferryRuns: [RunMeasurement]
    let referenceRuns: [RunMeasurement]
    /// Bytes of the throughput basis, when the benchmark has one.
    let basisBytes: Int?
    /// Records each run handled (the `--rows` of the run), for record-rate targets.
    let records: Int?
    let targets: [Target]
    /// Why the benchmark could not be measured.
    let failure: String?

    init(benchmark: Benchmark, ferry: [RunMeasurement], reference: [RunMeasurement], basisBytes: Int?, records: Int,
         commands: (String, String)) {
        name = benchmark.name
        self.commands = commands
        ferryRuns = ferry
        referenceRuns = reference
        self.basisBytes = basisBytes
        self.records = records
        targets = benchmark.targets
        failure = nil
    }

    init(benchmark: Benchmark, failure: String, commands: (String, String)) {
        name = benchmark.name
        self.commands = commands
        ferryRuns = []
        referenceRuns = []
        basisBytes = nil
        records = nil
        targets = benchmark.targets
        self.failure = failure
    }

    var ferrySeconds: Double? { Self.median(ferryRuns.map(\.seconds)) }
    var referenceSeconds: Double? { Self.median(referenceRuns.map(\.seconds)) }
    /// Median CPU seconds (user + system) of the runs; nil for in-process sides.
    var ferryCPUSeconds: Double? { Self.median(ferryRuns.compactMap(\.cpuSeconds)) }
    var referenceCPUSeconds: Double? { Self.median(referenceRuns.compactMap(\.cpuSeconds)) }

    /// reference / Ferry: above 1 means Ferry is faster.
    var ratio: Double? {
        guard let ferry = ferrySeconds, let reference = referenceSeconds, ferry > 0 else { return nil }
        return reference / ferry
    }

    /// The largest peak RSS over the runs, in KB; nil for in-process sides.
    var ferryPeakKilobytes: Int? { ferryRuns.compactMap(\.peakKilobytes).max() }
    var referencePeakKilobytes: Int? { referenceRuns.compactMap(\.peakKilobytes).max() }

    /// MB/s (10^6 bytes) of the throughput basis at the median time.
    var ferryThroughput: Double? { throughput(ferrySeconds) }
    var referenceThroughput: Double? { throughput(referenceSeconds) }

    /// Records per second at the median time.
    var ferryRecordRate: Double? { recordRate(ferrySeconds) }
    var referenceRecordRate: Double? { recordRate(referenceSeconds) }

    private func recordRate(_ seconds: Double?) -> Double? {
        guard let records, let seconds, seconds > 0 else { return nil }
        return Double(records) / seconds
    }

    private func throughput(_ seconds: Double?) -> Double? {
        guard let bytes = basisBytes, let seconds, seconds > 0 else { return nil }
        return Double(bytes) / 1e6 / seconds
    }

    /// Each target with whether it was met (nil when it could not be measured) and the figure it was judged on.
    var verdicts: [(target: Target, met: Bool?, measured: String)] {
        targets.map { target in
            switch target {
            case .speedup(let goal, _):
                guard let ratio else { return (target, nil, "n/a") }
                return (target, ratio >= goal, Format.ratio(ratio) + "×")
            case .ferryPeak(let limit, _):
                guard let peak = ferryPeakKilobytes else { return (target, nil, "n/a (in-process)") }
                return (target, Double(peak) / 1024 < limit, Format.megabytes(kilobytes: peak) + " MB")
            case .ferryThroughput(let goal, _):
                guard let rate = ferryThroughput else { return (target, nil, "n/a") }
                return (target, rate >= goal, Format.trimmed(rate.rounded()) + " MB/s")
            case .ferryRecordRate(let goal, _):
                guard let rate = ferryRecordRate else { return (target, nil, "n/a") }
                return (target, rate >= goal, Format.grouped(Int(rate.rounded())) + " rec/s")
            }
        }
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
