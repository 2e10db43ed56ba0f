import FerryFixtures
import FerryFormats

/// `ferry generate uploads|tasks --count N --format F --out FILE`: legacy-shaped data at any size.
enum GenerateCommand: Command {
    static let name = "generate"
    static let summary = "write legacy upload or task records of any size (deterministic, for tests and benchmarks)"
    static let usage = """
        usage: ferry generate uploads|tasks --count N [--format csv|ndjson|json|plist] [--seed S] [--clean] [--out FILE [--force]]

        Writes N records shaped like the legacy exports of docs/DOMAIN.md, quirks included (duplicates,
        bad values, CJK names, thumbnails), from a seeded generator: the same seed and count
        always give the same bytes. Tasks name uploads of the same seed in their attachments.
        Without --out, writes to standard output. FILE is written whole or not at all, and an
        existing one is replaced only with --force.

        example: ferry generate uploads --count 10000 --format csv --out generated.csv
        """
    static let options = [
        OptionSpec.integer("count", "N", 0...Int.max, "number of records"),
        .choice("format", formats.map(\.name), "the records' format (default csv)"),
        OptionSpec(name: "seed", kind: .integer("S", 0...UInt64.max), help: "generator seed, 0 to 18446744073709551615 (default 1)"),
        .flag("clean", "no quirks: every record valid and distinct, no upload attached to two tasks"),
        .path("out", "FILE", "output file (default: standard output)"),
        .flag("force", "replace FILE if it exists"),
    ]

    static let words = ["uploads", "tasks"]

    static let exitCodes = [
        ExitCodeUse(.success, "written"),
        ExitCodeUse(.destination, "FILE not written (it exists without --force, or is a folder; a failed run leaves it as it was)"),
    ]

    /// The formats `--format` names, in the order help lists them.
    private static let formats: [(name: String, format: FixtureFormat)] = [("csv", .csv), ("ndjson", .ndjson), ("json", .jsonArray), ("plist", .xmlPlist)]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 1, let kind = arguments.positionals.first, words.contains(kind) else {
            throw UsageError("generate takes one kind: uploads or tasks" + NameSuggestion.hint(for: arguments.positionals.first ?? "", among: words))
        }
        guard let count = try arguments.integer("count") else { throw UsageError("--count N is required (N ≥ 0)") }
        let name = arguments.value("format") ?? "csv"
        guard let format = formats.first(where: { $0.name == name })?.format else { throw UsageError("--format does not take '\(name)'") }
        let seed = try arguments.integer("seed", as: UInt64.self) ?? 1
        let clean = arguments.has("clean")
        do {
            try WholeFileOutput.write(to: arguments.value("out") ?? "-", replacing: arguments.has("force")) { file in
                let sink = ClosureByteSink { chunk in try file.write(chunk) }
                let uploads = try UploadRecordGenerator(seed: seed, count: kind == "uploads" ? count : max(count, 1),
                                                        rates: clean ? .none : UploadQuirkRates())
                if kind == "uploads" {
                    var writer = FixtureWriter<UploadRecord, ClosureByteSink>(format: format, sink: sink)
                    try writer.write(contentsOf: uploads)
                    try writer.finish()
                } else {
                    let tasks = try TaskRecordGenerator(seed: seed, count: count, rates: clean ? .none : TaskQuirkRates(), uploads: uploads)
                    var writer = FixtureWriter<TaskRecord, ClosureByteSink>(format: format, sink: sink)
                    try writer.write(contentsOf: tasks)
                    try writer.finish()
                }
            }
        } catch {
            Terminal.error("ferry generate: \(error)")
            return .destination
        }
        return .success
    }
}
