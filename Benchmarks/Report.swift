import Foundation

/// The results as a Markdown table (aligned for the terminal) and as JSON.
struct Report {
    let results: [BenchmarkResult]
    let machine: Machine
    let rows: Int
    let repeats: Int
    let date: Date
    /// `ru_maxrss` of `/bin/true` started the same way: no child reports less (see `ChildProcess`).
    let peakFloorKilobytes: Int?

    /// The header line, the table, and the throughput and failure notes.
    var text: String {
        let header = ["benchmark", "ferry s", "reference s", "ratio (ref/ferry)", "ferry peak MB", "reference peak MB", "target", "met?"]
        var lines: [[String]] = []
        var notes: [String] = []
        for result in results {
            if let failure = result.failure {
                lines.append([result.name, "failed", "failed", "", "", "", "", ""])
                notes.append("\(result.name) failed: \(failure)")
                continue
            }
            let figures = [
                result.name,
                result.ferrySeconds.map(Format.seconds) ?? "n/a",
                result.referenceSeconds.map(Format.seconds) ?? "n/a",
                result.ratio.map { Format.ratio($0) + "×" } ?? "n/a",
                result.ferryPeakKilobytes.map { Format.megabytes(kilobytes: $0) } ?? "n/a (in-process)",
                result.referencePeakKilobytes.map { Format.megabytes(kilobytes: $0) } ?? "n/a",
            ]
            let verdicts = result.verdicts
            if verdicts.isEmpty {
                lines.append(figures + ["— (informational)", "—"])
            }
            for (index, verdict) in verdicts.enumerated() {
                let met = verdict.met.map { $0 ? "yes" : "NO" } ?? "n/a"
                let cells = index == 0 ? figures : Array(repeating: "", count: figures.count)
                lines.append(cells + [verdict.target.label, "\(met) (\(verdict.measured))"])
            }
            if let ferry = result.ferryThroughput, let reference = result.referenceThroughput, let bytes = result.basisBytes {
                notes.append("\(result.name): \(String(format: "%.1f", Double(bytes) / 1e6)) MB input; ferry \(Format.trimmed(ferry.rounded())) MB/s, reference \(Format.trimmed(reference.rounded())) MB/s")
            }
            if let ferry = result.ferryCPUSeconds, let reference = result.referenceCPUSeconds {
                notes.append("\(result.name): CPU (user + system, median) ferry \(Format.seconds(ferry)) s, reference \(Format.seconds(reference)) s")
            }
            if result.targets.contains(where: { if case .ferryRecordRate = $0 { true } else { false } }),
               let ferry = result.ferryRecordRate, let reference = result.referenceRecordRate {
                notes.append("\(result.name): ferry \(Format.grouped(Int(ferry.rounded()))) records/s, reference \(Format.grouped(Int(reference.rounded()))) records/s")
            }
        }
        var out = "Ferry benchmarks: \(Format.grouped(rows)) rows, median of \(repeats) run(s), peak = max over runs; \(machine.summary); \(Self.timestamp(date))\n"
        if let floor = peakFloorKilobytes {
            out += "peak MB floor: /bin/true started the same way reports \(Format.megabytes(kilobytes: floor)) MB (the driver's pages a fork copies)\n"
        }
        out += "\n" + MarkdownTable(header: header, rows: lines).text
        if !notes.isEmpty { out += "\n" + notes.joined(separator: "\n") + "\n" }
        return out
    }

    /// The same figures, plus every run and the command lines, as pretty-printed JSON.
    func json() throws -> Data {
        let document = JSONReport(
            date: Self.timestamp(date), rows: rows, repeats: repeats, machine: machine,
            peakFloorMB: peakFloorKilobytes.map { Double($0) / 1024 },
            results: results.map(JSONResult.init))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

/// The JSON document `--json` writes.
private struct JSONReport: Encodable {
    let date: String
    let rows: Int
    let repeats: Int
    let machine: Machine
    let peakFloorMB: Double?
    let results: [JSONResult]
}

private struct JSONResult: Encodable {
    struct Verdict: Encodable {
        let target: String
        let met: Bool?
        let measured: String
    }

    let name: String
    let failure: String?
    let ferryCommand: String
    let referenceCommand: String
    let ferrySeconds: Double?
    let referenceSeconds: Double?
    let ratio: Double?
    let ferryPeakMB: Double?
    let referencePeakMB: Double?
    let ferryRunsSeconds: [Double]
    let referenceRunsSeconds: [Double]
    let ferryRunsCPUSeconds: [Double]
    let referenceRunsCPUSeconds: [Double]
    let inputBytes: Int?
    let ferryMBps: Double?
    let referenceMBps: Double?
    let ferryRecordsPerSecond: Double?
    let referenceRecordsPerSecond: Double?
    let targets: [Verdict]

    init(_ result: BenchmarkResult) {
        name = result.name
        failure = result.failure
        ferryCommand = result.commands.ferry
        referenceCommand = result.commands.reference
        ferrySeconds = result.ferrySeconds
        referenceSeconds = result.referenceSeconds
        ratio = result.ratio
        ferryPeakMB = result.ferryPeakKilobytes.map { Double($0) / 1024 }
        referencePeakMB = result.referencePeakKilobytes.map { Double($0) / 1024 }
        ferryRunsSeconds = result.ferryRuns.map(\.seconds)
        referenceRunsSeconds = result.referenceRuns.map(\.seconds)
        ferryRunsCPUSeconds = result.ferryRuns.compactMap(\.cpuSeconds)
        referenceRunsCPUSeconds = result.referenceRuns.compactMap(\.cpuSeconds)
        inputBytes = result.basisBytes
        ferryMBps = result.ferryThroughput
        referenceMBps = result.referenceThroughput
        ferryRecordsPerSecond = result.ferryRecordRate
        referenceRecordsPerSecond = result.referenceRecordRate
        targets = result.verdicts.map { Verdict(target: $0.target.label, met: $0.met, measured: $0.measured) }
    }
}

/// The machine the figures come from.
struct Machine: Encodable {
    let cores: Int
    let cpu: String
    let sqlite: String

    var summary: String { "\(cores) cores, \(cpu), sqlite3 \(sqlite)" }

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        return Machine(cores: ProcessInfo.processInfo.activeProcessorCount, cpu: model, sqlite: sqliteVersion())
    }

    private static func sqliteVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "not found" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? "unknown"
    }
}
