import Ferry
import FerryFormats

/// A verb of the `ferry` command.
protocol Command {
    static var name: String { get }
    static var summary: String { get }
    /// The usage line and explanation shown by `--help`.
    static var usage: String { get }
    static var options: [OptionSpec] { get }
    /// The exit codes the verb uses besides 2 (usage), each with what it means for the verb;
    /// `--help` lists them.
    static var exitCodes: [ExitCodeUse] { get }
    /// The fixed words its first positional argument takes (a subcommand or a kind), or none
    /// when its positionals are paths; shells complete them.
    static var words: [String] { get }
    /// Whether its first positional may be a PostgreSQL connection (`restore`, `verify`).
    static var databaseFirst: Bool { get }
    /// Runs the verb and returns its exit code. Usage errors are thrown; other failures are
    /// reported by the verb itself.
    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode
}

extension Command {
    static var words: [String] { [] }
    static var databaseFirst: Bool { false }

    static var help: String {
        let text = usage.hasSuffix("\n") ? usage : usage + "\n"
        let rows = options.map { ["--\($0.name)" + ($0.kind.placeholder.map { " \($0)" } ?? ""), $0.help + $0.kind.helpSuffix] }
            + [["--help", "show this help"]]
        return text + "\noptions:\n" + TextTable.render(rows, indent: "  ") + "\n" + ExitCodeUse.helpSection(exitCodes)
    }
}

/// Chooses the verb, handles `--help`, and turns outcomes into exit codes.
enum Dispatcher {
    static var commands: [any Command.Type] {
        [
            InspectCommand.self, ModelCommand.self, ImportCommand.self, PlanCommand.self, MappingCommand.self, MigrateCommand.self, QueryCommand.self,
            UpdateCommand.self, DeleteCommand.self, VerifyCommand.self, ExportCommand.self, BackupCommand.self,
            RestoreCommand.self, GenerateCommand.self, CompletionsCommand.self,
        ]
    }

    static func run(_ arguments: [String]) -> ExitCode {
        if arguments.first == "help", arguments.count > 1 {
            // `ferry help VERB` is `ferry VERB --help`.
            return run([arguments[1], "--help"] + arguments.dropFirst(2))
        }
        guard let verb = arguments.first else {
            // No verb is a usage error: the overview goes where errors go.
            Terminal.error(overview)
            return .usage
        }
        if ["--help", "-h", "help"].contains(verb) {
            Terminal.out(overview)
            return .success
        }
        if verb == "--version" {
            Terminal.out("ferry \(FerryVersion.current)\n")
            return .success
        }
        if verb.hasPrefix("-") {
            let hint = NameSuggestion.hint(for: verb, among: ["--help", "--version"])
            Terminal.error("ferry: '\(verb)' is an option, and options follow a verb (ferry VERB [options]); "
                + "alone, ferry takes --help or --version\(hint).")
            return .usage
        }
        guard let command = commands.first(where: { $0.name == verb }) else {
            let hint = NameSuggestion.hint(for: verb, among: commands.map { $0.name })
            Terminal.error("ferry: unknown verb '\(verb)'\(hint). Run 'ferry --help' for the list.")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        let beforeEnd = rest.prefix { $0 != "--" }
        // `ferry import help` is asked as `ferry help import` is (it read "help" as a file to import).
        if beforeEnd.contains("--help") || beforeEnd.contains("-h") || rest == ["help"] {
            Terminal.out(command.help)
            return .success
        }
        do {
            let elsewhere = commands.filter { $0.name != command.name }.map { (verb: $0.name, options: $0.options.map(\.name)) }
            return try command.run(ArgumentParser.parse(rest, options: command.options, elsewhere: elsewhere,
                                                          databaseFirst: command.databaseFirst))
        } catch {
            Terminal.error("ferry \(verb): \(error.description)\nRun 'ferry \(verb) --help' for usage.")
            // A monitor that asked for JSON gets it for a mistyped command line too.
            if beforeEnd.contains("--json"), command.options.contains(where: { $0.name == "json" }) {
                Terminal.out(FailureSummary.jsonLine(verb: verb, code: .usage, message: error.description) + "\n")
            }
            return .usage
        }
    }

    static var overview: String {
        let verbs = TextTable.lines(commands.map { [$0.name, $0.summary] }, indent: "  ")
        let exitCodes = TextTable.lines(ExitCode.allCases.map { [String($0.rawValue), $0.meaning] }, indent: "  ")
        return """
        ferry: move Core Data era records between formats and model versions, and prove nothing was lost.

        usage: ferry <verb> [options] [files]

        verbs:
        \(verbs.joined(separator: "\n"))

        Run 'ferry <verb> --help' or 'ferry help <verb>' for a verb's options and exit codes;
        'ferry --version' prints the version.

        exit codes:
        \(exitCodes.joined(separator: "\n"))

        """
    }
}
