import Ferry
import FerryModel

/// `ferry model extract STORE --out X.xcdatamodeld [--name NAME] [--force]` and
/// `ferry model infer FILE... --entity E [--out X.xcdatamodeld]` (see `ModelInferCommand`).
enum ModelCommand: Command {
    static let name = "model"
    static let summary = "extract the model a store carries, or infer one from legacy files, as an Xcode .xcdatamodeld"
    static let usage = """
        usage: ferry model extract STORE --out X.xcdatamodeld [--name NAME] [--force]
               ferry model infer FILE... --entity E [--out X.xcdatamodeld] [--name NAME] [--force]

        extract:
        Writes the model a Core Data store carries in its Z_MODELCACHE (every store since Core
        Data framework version 754, SwiftData's included) as an Xcode model bundle of one version,
        NAME (the bundle's name by default), spelled as Xcode writes it. Version, diff and migrate
        it like any .xcdatamodeld: add a version beside it and 'ferry migrate' the store to it.

        The bundle is built beside X.xcdatamodeld, loaded back, and renamed into place only when
        its version hashes equal the store's; an existing X.xcdatamodeld is refused unless --force.
        What Xcode's XML cannot spell (validation rules of models built in code) is left out and
        listed.

        infer:
        Reads legacy files (CSV, JSON/NDJSON, property lists; gzip or not) as 'ferry import' reads
        them, streaming, and writes a starter model of one version whose entity E holds their
        records: attribute types detected from the values (integer widths by range, Double or
        Decimal, Boolean, Date from ISO 8601 or from numbers a name calls a time, UUID, URI,
        Binary from base64), optional where a record lacks a value, a uniqueness constraint
        where a key is unique and never blank (checked in at most --unique-limit values), and a
        relationship per key of nested objects or arrays of JSON and property lists (the
        destination entity named after the key). It prints what it guessed from how many
        values; without --out it writes nothing. 'ferry import' of the same files with the model
        and the same --date-epoch and --empty rejects nothing but records no model can read
        (listed). Edit the model in Xcode before you ship it.

        examples:
          ferry model extract Workspace.sqlite --out Extracted.xcdatamodeld
          ferry model infer Fixtures/legacy/tasks.json Fixtures/legacy/tasks.ndjson --entity Task --out Tasks.xcdatamodeld
        """
    static let options = [
        OptionSpec.path("out", "X.xcdatamodeld", "the model bundle to create (infer: none only reports)"),
        OptionSpec(name: "name", value: "NAME", help: "the version's name (default: the bundle's)"),
        .flag("force", "replace X.xcdatamodeld if it exists (atomically)"),
    ] + ModelInferCommand.options

    static let words = ["extract", "infer"]

    static let exitCodes = [
        ExitCodeUse(.success, "written (infer without --out: reported)"),
        ExitCodeUse(.badInput, "extract: the store cannot be read or has no model cache; infer: a file cannot be read, or no key can become a property"),
        ExitCodeUse(.destination, "X.xcdatamodeld not written (it exists, cannot be written)"),
        ExitCodeUse(.verificationFailed, "extract: the written model does not have the store's version hashes"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        if arguments.positionals.first == "infer" { return try ModelInferCommand.run(arguments) }
        guard arguments.positionals.first == "extract" else {
            throw UsageError("model takes the subcommand 'extract' or 'infer'" + NameSuggestion.hint(for: arguments.positionals.first ?? "", among: ["extract", "infer"]))
        }
        let inferOnly = ModelInferCommand.options.map(\.name).filter { arguments.has($0) || arguments.value($0) != nil }
        if let option = inferOnly.first { throw UsageError("--\(option) is an option of model infer, not model extract") }
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
        case .store, .noModelCache, .modelCache, .doesNotLoadBack: self = .badInput
        }
    }
}
