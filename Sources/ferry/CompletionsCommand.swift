import FerryFormats

/// `ferry completions bash|zsh|fish`: a shell completion script, generated from the verbs'
/// option specs.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let summary = "print a completion script for bash, zsh or fish"
    static let usage = """
        usage: ferry completions bash|zsh|fish

        Prints a script that completes ferry's verbs, each verb's options, the words an option or
        a verb's first argument takes (formats, policies, subcommands), and file names where a
        path goes. Load it in the shell's startup file, e.g. for bash:
        source <(ferry completions bash); for zsh, save it as _ferry in a folder of $fpath; for
        fish, as ~/.config/fish/completions/ferry.fish.

        example: ferry completions bash > ferry.bash
        """
    static let options: [OptionSpec] = []
    static let words = ShellCompletion.allCases.map(\.rawValue)
    static let exitCodes = [ExitCodeUse(.success, "printed")]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 1, let name = arguments.positionals.first else {
            throw UsageError("completions takes one shell: \(OptionSpec.list(words))")
        }
        guard let shell = ShellCompletion(rawValue: name) else {
            throw UsageError("completions takes \(OptionSpec.list(words)), not '\(name)'" + NameSuggestion.hint(for: name, among: words))
        }
        Terminal.out(shell.script(ShellCompletion.verbs(Dispatcher.commands)))
        return .success
    }
}
