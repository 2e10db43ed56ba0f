import Ferry
import FerryModel

/// `ferry model extract STORE --out X.xcdatamodeld [--name NAME] [--force]`.
enum ModelCommand: Command {
    static let name = "model"
    static let summary = "extract the model a store carries as an Xcode .xcdatamodeld"
    static let usage = """
        usage: ferry model extract STORE --out X.xcdatamodeld [--name NAME] [--force]

        Writes the model a Core Data store carries in its Z_MODELCACHE (every store since Core
        Data framework version 754, SwiftData's included) as an Xcode model bundle of one version,
        NAME (the bundle's name by default), spelled as Xcode writes it. Version, diff and migrate
        it like any .xcdatamodeld: add a version beside it and 'ferry migrate' the store to it.

        The bundle is built beside X.xcdatamodeld, loaded back, and renamed into place only when
        its version hashes equal the store's; an existing X.xcdatamodeld is refused unless --force.
        What Xcode's XML cannot spell (validation rules of models built in code) is left out and
        listed.

        example: ferry model extract Workspace.sqlite --out Extracted.xcdatamodeld
        """
    static let options = [
        OptionSpec.path("out", "X.xcdatamodeld", "the model bundle to create"),
        OptionSpec(name: "name", value: "NAME", help: "the version's name (default: the bundle's)"),
        .flag("force", "replace X.xcdatamodeld if it exists (atomically)"),
    ]

    static let words = ["extract"]

    static let exitCodes = [
        ExitCodeUse(.success, "written"),
        ExitCodeUse(.badInput, "the store cannot be read or has no model cache"),
        ExitCodeUse(.destination, "X.xcdatamodeld not written (it exists, cannot be written)"),
        ExitCodeUse(.verificationFailed, "the written model does not have the store's version hashes"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.first == "extract" else { throw UsageError("model takes the subcommand 'extract'") }
        guard arguments.positionals.count == 2 else { throw UsageError("model extract takes one STORE") }
        let job = ModelExtractJob(storePath: arguments.positionals[1], outputPath: try arguments.required("out"),
                                  versionName: arguments.value("name"), replaceExisting: arguments.has("force"))
        let summary: ModelExtractSummary
        do { summary = try job.run() } catch {
            if case .invalidRequest(let reason) = error { throw UsageError(reason) }
            Terminal.error("ferry model extract: \(error.description)")
            return ExitCode(error)
        }
        Terminal.out(render(summary, store: job.storePath))
        return .success
    }

    private static func render(_ summary: ModelExtractSummary, store: String) -> String {
        let count = summary.entities.count
        var text = "wrote \(summary.bundlePath): version \(summary.versionName) (current), from the model cache of \(store)\n"
        text += "  entities (\(count)): \(summary.entities.joined(separator: ", "))\n"
        text += summary.hashesFromMetadata
            ? "  version hashes: all \(count) equal the store's NSStoreModelVersionHashes\n"
            : "  version hashes: the store's metadata holds none; all \(count) equal its cached model's\n"
        guard !summary.unwritten.isEmpty else { return text + "  not expressible in Xcode's XML: nothing, the whole model is written\n" }
        text += "  not expressible in Xcode's XML, left out (not part of the version hashes):\n"
        for part in summary.unwritten { text += "    \(part)\n" }
        return text
    }
}

extension ExitCode {
    /// The exit code of a failed model extraction.
    init(_ error: ModelExtractError) {
        switch error {
        case .invalidRequest: self = .usage
        case .hashesDiffer: self = .verificationFailed
        case .destinationExists, .cannotWrite: self = .destination
        case .store, .noModelCache, .modelCache: self = .badInput
        }
    }
}
