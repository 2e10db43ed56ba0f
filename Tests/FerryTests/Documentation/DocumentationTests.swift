import FerryTestSupport
import Foundation
import Testing

/// The README and every verb's `--help` cannot go stale: what they tell a user to run is run
/// here, against the bundled fixtures, and what the README shows it prints is compared.
///
/// The conventions, for whoever edits README.md or a `--help`:
/// - Every line of a ```sh block of README.md is a command (a line ending in `\` goes on on the
///   next one; `#` outside quotes starts a comment). So are the lines after `example:` or
///   `examples:` in a verb's `--help`, up to the next empty line.
/// - `swift run ferry` and `ferry` are the built command. Commands run through `/bin/sh` in one
///   fresh working folder (a copy of Fixtures/ and Migrations/, with the shared corpus at
///   `../shared`), README first and in its order, then the help examples in the order of
///   `ferry --help`: a command may use what an earlier one wrote, and must not collide with it.
/// - A command must finish: exit 0, or 1 (the job finished but rejected some records, which the
///   fixtures are made to have). The toolchain's own commands (`swift test`, `swift build …`) are
///   not run: this test is one of them.
/// - A comment saying `needs Graphviz`, `needs the corpus` or `needs a PostgreSQL server` marks a command that needs what a
///   machine may lack. Without it, a pipeline runs up to its first `|` (its `ferry` part) and any
///   other such command is left out. Any other `needs …` fails the test.
/// - A ```output block is exactly the standard output of the command just before it (not
///   compared when that command was left out or ran only in part).
@Suite("the documentation runs")
struct DocumentationTests {
    private static let readme = ReadmeDocument(text: String(decoding: (try? TestPaths.read(TestPaths.packageRoot + "/README.md")) ?? [],
                                                            as: UTF8.self))

    /// The verbs `ferry --help` lists, in its order.
    private static func verbs() throws -> [String] {
        let overview = try FerryProcess.run(["--help"]).out.split(separator: "\n")
        let start = try #require(overview.firstIndex(of: "verbs:"))
        return overview[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("every command of the README and every --help example runs against the fixtures, in order, and prints what the README shows")
    func documentedCommandsRun() throws {
        let runner = try DocumentedCommandRunner()
        var last: FerryProcess.Result?
        var compared = 0
        var ran = 0
        for item in Self.readme.items {
            switch item {
            case .command(let command):
                guard !command.runsToolchain else { continue }
                last = try runner.run(command)
                ran += 1
            case let .output(expected, place):
                guard let last else { continue }
                #expect(last.out == expected, "\(place): the README shows\n\(expected)\nbut the command printed\n\(last.out)")
                compared += 1
            }
        }
        #expect(ran >= 20 && compared >= 1)
        var examples = 0
        for verb in try Self.verbs() {
            for command in HelpExamples.commands(in: try FerryProcess.run([verb, "--help"]).out, verb: verb) {
                #expect(command.text.hasPrefix("ferry \(verb) "), "\(command)")
                _ = try runner.run(command)
                examples += 1
            }
        }
        #expect(examples >= 12)
    }

    @Test("the README's verb table lists every verb of ferry --help")
    func verbTable() throws {
        let missing = Set(try Self.verbs()).subtracting(Self.readme.tabledVerbs)
        #expect(missing.isEmpty, "not in the README's verb table: \(missing.sorted())")
    }

    @Test("documented commands: continued lines join, comments and their needs come apart, quotes keep # and |")
    func commandParsing() {
        let lines: [Substring] = [
            "swift run ferry plan --model M --format dot | dot -Tsvg > plan.svg   # dashed edges; needs Graphviz",
            "swift run ferry query S --where 'title == \"#1 | 2\"' \\",
            "    --sort -priority",
            "",
            "swift test",
        ]
        let commands = DocumentedCommand.commands(in: lines, place: "README.md", firstLine: 10)
        #expect(commands.map(\.text) == ["swift run ferry plan --model M --format dot | dot -Tsvg > plan.svg",
                                         "swift run ferry query S --where 'title == \"#1 | 2\"' --sort -priority", "swift test"])
        #expect(commands.map(\.place) == ["README.md:10", "README.md:11", "README.md:14"])
        #expect(commands[0].requirements == ["Graphviz"] && commands[0].firstStage == "swift run ferry plan --model M --format dot")
        #expect(commands[1].comment.isEmpty && commands[1].firstStage == commands[1].text && commands[1].shellText.hasPrefix("ferry query S"))
        #expect(commands.map(\.runsToolchain) == [false, false, true])
        let help = "usage: ferry x\n\nexamples: ferry x a \\\n              --b c\n          ferry x d\n\nexit codes: 0"
        #expect(HelpExamples.commands(in: help, verb: "x").map(\.text) == ["ferry x a --b c", "ferry x d"])
    }
}
