import Foundation

/// One benchmark: a Ferry side and a reference side run on the same prepared data.
///
/// Sides are built from the `Workspace` (which knows the temp folder, the `ferry` binary and the
/// repository), so a benchmark is a few lines in `Catalog`.
struct Benchmark {
    /// The name `--only` selects and the table shows.
    let name: String
    /// What is compared, for `--verbose` and the README.
    let summary: String
    /// Goals from the issues; empty means informational.
    let targets: [Target]
    /// Creates the inputs (not timed); generated datasets are shared between benchmarks.
    let prepare: (Workspace) throws -> Void
    /// Files in the workspace removed before every run of either side (not timed).
    let outputs: [String]
    /// Brings outside state back to where a run starts (a database schema dropped), before every
    /// run of either side, not timed.
    let reset: ((Workspace) throws -> Void)?
    /// A file whose size is the amount of data processed, for MB/s figures.
    let throughputBasis: ((Workspace) throws -> String)?
    /// Run each side once, untimed, before the timed runs: for state outside the workspace that
    /// the first run of all pays for once (a new PostgreSQL server creates and zero-fills its WAL
    /// segments, 16 MB each, during the first load; later loads recycle them). Without it that
    /// cost fell on whichever side ran first, which is always Ferry's.
    let warmUp: Bool
    let ferry: (Workspace) -> Side
    let reference: (Workspace) -> Side

    init(
        name: String, summary: String, targets: [Target] = [],
        prepare: @escaping (Workspace) throws -> Void, outputs: [String] = [],
        reset: ((Workspace) throws -> Void)? = nil, throughputBasis: ((Workspace) throws -> String)? = nil, warmUp: Bool = false,
        ferry: @escaping (Workspace) -> Side, reference: @escaping (Workspace) -> Side
    ) {
        self.name = name
        self.summary = summary
        self.targets = targets
        self.prepare = prepare
        self.outputs = outputs
        self.reset = reset
        self.throughputBasis = throughputBasis
        self.warmUp = warmUp
        self.ferry = ferry
        self.reference = reference
    }
}

/// How one side of a benchmark runs.
enum Side {
    /// A child process: `arguments[0]` is an absolute path or a name looked up in `PATH`.
    case process([String])
    /// A `/bin/sh -c` command line, for pipelines and redirections.
    case shell(String)
    /// Code run inside the driver (no separate peak memory); `label` names it in `--verbose`.
    case inProcess(label: String, body: () throws -> Void)

    /// Runs the side once and measures it; `logPrefix` names its `.out`/`.err` logs.
    func measure(logPrefix: String) throws -> RunMeasurement {
        switch self {
        case .process(let arguments): return try ChildProcess.run(arguments, logPrefix: logPrefix)
        case .shell(let script): return try ChildProcess.run(["/bin/sh", "-c", script], logPrefix: logPrefix)
        case .inProcess(_, let body): return try ChildProcess.runInProcess(body)
        }
    }

    /// The command line as one could paste it into a shell.
    var commandLine: String {
        switch self {
        case .process(let arguments): return arguments.map(ShellQuote.quote).joined(separator: " ")
        case .shell(let script): return "/bin/sh -c " + ShellQuote.quote(script)
        case .inProcess(let label, _): return "(in-process) " + label
        }
    }
}

/// A goal a benchmark is checked against.
enum Target {
    /// reference time / Ferry time at least `ratio` (`issue` names where the goal comes from).
    case speedup(atLeast: Double, issue: String)
    /// Ferry's peak RSS below `megabytes`.
    case ferryPeak(below: Double, issue: String)
    /// Ferry processes the throughput basis at `megabytesPerSecond` or more.
    case ferryThroughput(atLeast: Double, issue: String)
    /// Ferry handles the benchmark's `--rows` records at `recordsPerSecond` or more.
    case ferryRecordRate(atLeast: Double, issue: String)

    /// The goal as the table shows it.
    var label: String {
        switch self {
        case .speedup(let ratio, let issue): return "≥\(Format.trimmed(ratio))× (\(issue))"
        case .ferryPeak(let megabytes, let issue): return "<\(Format.trimmed(megabytes)) MB (\(issue))"
        case .ferryThroughput(let rate, let issue): return "≥\(Format.trimmed(rate)) MB/s (\(issue))"
        case .ferryRecordRate(let rate, let issue): return "≥\(Format.grouped(Int(rate))) rec/s (\(issue))"
        }
    }
}

/// Single-quotes words for a POSIX shell when they need it.
enum ShellQuote {
    static func quote(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "/._-=,:+@%".unicodeScalars.contains(scalar))
        }
        if plain && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
