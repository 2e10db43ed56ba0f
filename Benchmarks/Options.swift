/// The driver's command line.
struct Options {
    var rows = 1_000_000
    var repeats = 3
    var only: Set<String> = []
    var keep = false
    var verbose = false
    var jsonPath: String?
    var allowDebug = false
    /// Check instead that peak memory stays flat from `rows`/10 to `rows` records (`TenfoldCheck`).
    var tenfold = false

    static let usage = """
        usage: FerryBenchmarks [--rows N] [--repeat N] [--only NAME[,NAME]] [--json FILE] [--keep] [--verbose] [--tenfold]

          --rows N      records per generated dataset (default 1000000)
          --repeat N    runs per side; the median time and the max peak memory are reported (default 3)
          --only NAME   run only these benchmarks (repeatable or comma-separated)
          --json FILE   also write the results as JSON (- for standard output)
          --keep        keep the temp folder (datasets, outputs, logs of every run)
          --verbose     print the exact command line of each side and every run's figures
          --allow-debug run even though this is not a release build (figures are meaningless)
          --tenfold     instead of comparing with the references, run Ferry's side once at --rows/10
                        and once at --rows records and check that the peak grows by at most 20 %

        Build with `swift build -c release` and run `.build/release/FerryBenchmarks`.
        """

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw Invalid(description: "\(flag) needs a value") }
            return next
        }
        func count(_ flag: String, minimum: Int) throws -> Int {
            let text = try value(flag)
            guard let number = Int(text.replacing("_", with: "")), number >= minimum else {
                throw Invalid(description: "\(flag) takes a whole number ≥ \(minimum), not '\(text)'")
            }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--rows": options.rows = try count(argument, minimum: 1)
            case "--repeat": options.repeats = try count(argument, minimum: 1)
            case "--only": options.only.formUnion(try value(argument).split(separator: ",").map(String.init))
            case "--json": options.jsonPath = try value(argument)
            case "--keep": options.keep = true
            case "--verbose", "-v": options.verbose = true
            case "--allow-debug": options.allowDebug = true
            case "--tenfold": options.tenfold = true
            case "--help", "-h": throw Invalid(description: usage)
            default: throw Invalid(description: "unknown argument '\(argument)'\n\n" + usage)
            }
        }
        if options.tenfold, options.rows < 10 { throw Invalid(description: "--tenfold needs --rows of at least 10") }
        return options
    }
}
