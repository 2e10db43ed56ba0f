import FerryTestSupport
import Foundation
import Testing

/// Runs documented commands as a user would, one after another in one working folder: a fresh
/// copy of the package's fixtures and models, with the shared corpus beside it as it is beside
/// the package (`../shared`), so a command can use what an earlier one wrote (the main job's
/// store, a backup folder).
struct DocumentedCommandRunner {
    /// What a comment's `needs X` can name, and whether this machine has it.
    static let requirements: [String: @Sendable () -> Bool] = [
        "Graphviz": { hasProgram("dot") },
        "the corpus": { TestPaths.corpusAvailable },
        // The README's PostgreSQL commands name example servers; the PostgreSQL tests run the same
        // verbs against a server they start themselves.
        "a PostgreSQL server": { false },
    ]

    let folder: String

    init() throws {
        let root = try TestPaths.temporaryFolder("documented")
        folder = root + "/ferry"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["Fixtures", "Migrations"] {
            try FileManager.default.copyItem(atPath: TestPaths.packageRoot + "/" + name, toPath: folder + "/" + name)
        }
        if TestPaths.corpusAvailable {
            try FileManager.default.createSymbolicLink(atPath: root + "/shared", withDestinationPath: TestPaths.corpus + "/..")
        }
    }

    /// Runs `command` and expects it to finish (exit 0, or 1: done with rejected records). A
    /// command whose requirement this machine lacks runs only up to its first `|` (the `ferry`
    /// part of a pipeline into the missing program), or not at all when it has none.
    /// - Returns: what it printed; nil when it did not run, or ran only in part.
    func run(_ command: DocumentedCommand) throws -> FerryProcess.Result? {
        var text = command.shellText
        for requirement in command.requirements {
            let available = try #require(Self.requirements[requirement], "\(command.place): unknown requirement 'needs \(requirement)'")
            guard !available() else { continue }
            guard command.firstStage != command.text else { return nil }
            text = DocumentedCommand(text: command.firstStage, comment: "", place: command.place).shellText + " > /dev/null"
        }
        let result = try FerryProcess.shell(text, in: folder)
        #expect(result.status == 0 || result.status == 1, "\(command) exited with \(result.status):\n\(result.err)")
        return text == command.shellText ? result : nil
    }

    private static func hasProgram(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }
}
