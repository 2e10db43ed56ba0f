import Ferry
import FerryFormats
import FerryMigration
import FerryModel

/// `ferry mapping infer FROM TO --model M`: the inferred mapping as a starting mapping file.
enum MappingCommand: Command {
    static let name = "mapping"
    static let summary = "write the inferred mapping between two versions as a starting mapping file"
    static let usage = """
        usage: ferry mapping infer FROM TO --model MODEL.xcdatamodeld [--out FILE]

        Infers the mapping from version FROM to version TO and writes it in the mapping-file
        format, every inferred rule spelled out and what inference cannot know left as comments.
        Save it beside the model as "FROM to TO.mapping" and edit it: 'ferry plan' and
        'ferry migrate' apply it on top of the inferred mapping.

        example: ferry mapping infer "Workspace 2" "Workspace 3" --model Migrations/Workspace.xcdatamodeld
        """
    static let options = [
        OptionSpec.path("model", "MODEL", "the versioned model (.xcdatamodeld)"),
        .path("out", "FILE", "where to write it (default: standard output)"),
    ]

    static let words = ["infer"]

    static let exitCodes = [
        ExitCodeUse(.success, "written"),
        ExitCodeUse(.badInput, "the model cannot be read, or has no version FROM or TO"),
        ExitCodeUse(.destination, "FILE not written"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 3, arguments.positionals[0] == "infer" else {
            throw UsageError("usage: ferry mapping infer FROM TO --model MODEL")
        }
        let modelPath = try arguments.required("model")
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: modelPath) } catch {
            Terminal.error("ferry mapping: \(error.description)")
            return .badInput
        }
        let names = Array(arguments.positionals.dropFirst())
        guard let from = bundle.version(named: names[0]), let to = bundle.version(named: names[1]) else {
            let versions = bundle.versions.map(\.name)
            let hints = names.filter { !versions.contains($0) }.map { " '\($0)'" + NameSuggestion.hint(for: $0, among: versions) }
            Terminal.error("ferry mapping: the model has no version\(hints.joined(separator: ",")); its versions are \(versions.joined(separator: ", "))")
            return .badInput
        }
        let text = MappingFileWriter.text(for: MappingInference.infer(from: from, to: to))
        do {
            let sink = try FileByteSink(path: arguments.value("out") ?? "-")
            try sink.write(Array(text.utf8))
            try sink.close()
        } catch {
            Terminal.error("ferry mapping: \(error.description)")
            return .destination
        }
        return .success
    }
}
