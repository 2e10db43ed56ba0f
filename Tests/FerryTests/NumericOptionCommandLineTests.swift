import Testing

/// Every numeric option of every verb is range-checked before anything runs: out of range, not a
/// number or too large for its type, it is a usage error (exit 2) naming the option and its range.
extension CommandLineTests {
    /// A verb's arguments, the option and a value it must refuse.
    static let numericRefusals: [(arguments: [String], option: String, value: String)] = [
        (["generate", "uploads", "--count", "1"], "seed", "-1"),
        (["generate", "uploads", "--count", "1"], "seed", "18446744073709551616"),
        (["generate", "uploads"], "count", "-5"),
        (["generate", "uploads"], "count", "99999999999999999999"),
        (["backup", "Missing.sqlite", "--to", "/nonexistent"], "keep", "0"),
        (["backup", "Missing.sqlite", "--to", "/nonexistent"], "level", "10"),
        (["export", "Missing.sqlite", "--out", "/nonexistent"], "level", "-1"),
        (["query", "Missing.sqlite", "--entity", "Task"], "limit", "-1"),
        (["query", "Missing.sqlite", "--entity", "Task"], "offset", "-3"),
        (["import", "x.csv", "--model", "M", "--entity", "E", "--out", "o.sqlite"], "max-errors", "0"),
        (["import", "x.csv", "--model", "M", "--entity", "E", "--out", "o.sqlite"], "batch-size", "0"),
        (["import", "x.csv", "--model", "M", "--entity", "E", "--out", "o.sqlite"], "max-columns", "0"),
        (["migrate", "E:x.csv", "--model", "M", "--out", "o.sqlite"], "max-errors", "-1"),
        (["migrate", "E:x.csv", "--model", "M", "--out", "o.sqlite"], "max-columns", "1e3"),
    ]

    @Test("numeric options out of range are usage errors naming the option and its range", arguments: CommandLineTests.numericRefusals.indices)
    func numericOptionsAreRangeChecked(_ index: Int) throws {
        let (arguments, option, value) = Self.numericRefusals[index]
        let run = try FerryProcess.run(arguments + ["--\(option)", value])
        #expect(run.status == 2, "\(arguments) --\(option) \(value): \(run.err)")
        #expect(run.err.contains("--\(option) takes a whole number") && run.err.contains("'\(value)'"), "\(run.err)")
    }

    @Test("generate takes the whole range of seeds: 0 and 2^64 - 1 write records")
    func seedBounds() throws {
        let runs = try ["0", "18446744073709551615"].map { try ferry("generate", "uploads", "--count", "2", "--clean", "--seed", $0) }
        for run in runs { #expect(run.status == 0 && run.out.hasPrefix("fileName,"), "\(run.err)") }
        #expect(runs[0].out != runs[1].out)
    }
}
