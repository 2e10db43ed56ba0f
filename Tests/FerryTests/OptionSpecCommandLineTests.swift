import FerryTestSupport
import Foundation
import Testing

/// Options are declared once, with the kind of value they take: usage errors suggest the verb,
/// option or word meant, and the shell completion scripts come from the same declarations.
@Suite("option specs: suggestions and completions")
struct OptionSpecCommandLineTests {
    func ferry(_ arguments: String...) throws -> FerryProcess.Result { try FerryProcess.run(arguments) }

    @Test("a mistyped verb, option or choice is a usage error that names the closest one")
    func didYouMean() throws {
        let verb = try ferry("imprt", "x.csv")
        #expect(verb.status == 2 && verb.err.contains("unknown verb 'imprt' (did you mean 'import'?)"), "\(verb.err)")
        let swapped = try ferry("mirgate")
        #expect(swapped.status == 2 && swapped.err.contains("(did you mean 'migrate'?)"), "\(swapped.err)")
        let option = try ferry("import", "x.csv", "--modle", "M")
        #expect(option.status == 2 && option.err.contains("unknown option '--modle' (did you mean '--model'?)"), "\(option.err)")
        let prefix = try ferry("backup", "S.sqlite", "--to", "b", "--no-gz")
        #expect(prefix.status == 2 && prefix.err.contains("(did you mean '--no-gzip'?)"), "\(prefix.err)")
        let choice = try ferry("export", "S.sqlite", "--out", "e", "--format", "jsno")
        #expect(choice.status == 2, "\(choice.err)")
        #expect(choice.err.contains("--format takes ndjson, json, csv, plist or bplist, not 'jsno' (did you mean 'json'?)"), "\(choice.err)")
        let far = try ferry("import", "x.csv", "--zzzzzz")
        #expect(far.status == 2 && far.err.contains("unknown option '--zzzzzz'") && !far.err.contains("did you mean"), "\(far.err)")
        let shell = try ferry("completions", "bsh")
        #expect(shell.status == 2 && shell.err.contains("did you mean 'bash'?"), "\(shell.err)")
        // First-hour review: an option of another verb is named as such; a choice's last word is
        // a suggestion; a flag that needs another option is not ignored without a word.
        let lenient = try ferry("import", "x.csv", "--lenient")
        #expect(lenient.status == 2 && lenient.err.contains("unknown option '--lenient' (an option of plan, migrate, verify, not of this verb)"),
                "\(lenient.err)")
        let epoch = try ferry("import", "x.csv", "--date-epoch", "ms")
        #expect(epoch.status == 2 && epoch.err.contains("(did you mean 'unix-ms'?)"), "\(epoch.err)")
        let rerun = try ferry("verify", "x.sqlite", "--rerun")
        #expect(rerun.status == 2 && rerun.err.contains("--rerun goes with --against SOURCE"), "\(rerun.err)")
    }

    @Test("--help shows each option with the placeholder or words of its kind")
    func helpFromKinds() throws {
        let help = try ferry("import", "--help").out
        #expect(help.contains("--format csv|json|ndjson|plist"))
        #expect(help.contains("--on-duplicate reject|keep-first|keep-newest") || help.contains("--on-duplicate keep-first|"))
        #expect(help.contains("--entity ENTITY"))
        #expect(help.contains("--model-version VERSION"))
        #expect(help.contains("--max-errors N"))
    }

    /// Every option of every verb, from its help.
    static func options(of verb: String) throws -> [String] {
        let help = try FerryProcess.run([verb, "--help"]).out.split(separator: "\n")
        let start = try #require(help.firstIndex(of: "options:"))
        return help[(start + 1)...].prefix { $0.hasPrefix("  --") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("the bash script parses and names every verb and every option of every verb")
    func bashScript() throws {
        let run = try ferry("completions", "bash")
        #expect(run.status == 0)
        let folder = try TestPaths.temporaryFolder("completions")
        let path = folder + "/ferry.bash"
        try Data(run.out.utf8).write(to: URL(fileURLWithPath: path))
        let check = try FerryProcess.shell("bash -n '\(path)'", in: folder)
        #expect(check.status == 0, "\(check.err)")
        let verbs = try ExitCodeCommandLineTests.verbs()
        #expect(verbs.contains("completions"))
        for verb in verbs {
            #expect(run.out.contains("    \(verb))\n"), "verb \(verb)")
            let section = try #require(run.out.components(separatedBy: "    \(verb))\n").dropFirst().first?.components(separatedBy: "\n        ;;\n").first)
            for option in try Self.options(of: verb) where option != "--help" {
                #expect(section.contains(option + " ") || section.contains(option + "'") || section.contains(option + ")"), "\(verb) \(option)")
            }
        }
    }

    @Test("the bash script completes as bash runs it: verbs, options, choice words and files")
    func bashCompletes() throws {
        let folder = try TestPaths.temporaryFolder("completions")
        let script = try ferry("completions", "bash").out
        try Data(script.utf8).write(to: URL(fileURLWithPath: folder + "/ferry.bash"))
        try Data().write(to: URL(fileURLWithPath: folder + "/uploads.csv"))
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let command = ". ./ferry.bash\nCOMP_WORDS=(\(quoted))\nCOMP_CWORD=\(words.count - 1)\n_ferry\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
            try Data(command.utf8).write(to: URL(fileURLWithPath: folder + "/complete.sh"))
            let run = try FerryProcess.shell("bash complete.sh", in: folder)
            #expect(run.status == 0, "\(run.err)")
            return run.out.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["ferry", "mig"]) == ["migrate"])
        #expect(try complete(["ferry", "import", "--on-d"]) == ["--on-duplicate"])
        #expect(try Set(complete(["ferry", "import", "x", "--format", ""])) == ["csv", "json", "ndjson", "plist"])
        #expect(try complete(["ferry", "generate", "t"]) == ["tasks"])
        #expect(try complete(["ferry", "import", "upl"]) == ["uploads.csv"])
        #expect(try complete(["ferry", "import", "--entity", "T"]) == [])
    }

    @Test("zsh and fish scripts name every verb and every option")
    func zshAndFish() throws {
        let zsh = try ferry("completions", "zsh"), fish = try ferry("completions", "fish")
        #expect(zsh.status == 0 && zsh.out.hasPrefix("#compdef ferry\n"))
        #expect(fish.status == 0)
        for verb in try ExitCodeCommandLineTests.verbs() {
            #expect(zsh.out.contains("    \(verb))\n") && fish.out.contains("-a \(verb) -d "), "\(verb)")
            for option in try Self.options(of: verb) where option != "--help" {
                #expect(zsh.out.contains("\(option)["), "zsh \(verb) \(option)")
                #expect(fish.out.contains("__fish_seen_subcommand_from \(verb)' -l \(option.dropFirst(2)) "), "fish \(verb) \(option)")
            }
        }
        #expect(fish.out.contains("-l format -x -a 'csv json ndjson plist'"))
    }
}
