import Ferry
import FerryFormats
import FerryMigration
import FerryModel
import FoundationEssentials

/// `ferry mapping infer FROM TO --model M`: the inferred mapping as a starting mapping file.
/// `ferry mapping convert MAPPING_MODEL`: a Core Data mapping model as the equivalent written mapping.
enum MappingCommand: Command {
    static let name = "mapping"
    static let summary = "write the inferred mapping, or a Core Data mapping model, as a mapping file"
    static let usage = """
        usage: ferry mapping infer FROM TO --model MODEL.xcdatamodeld [--out FILE]
               ferry mapping convert MAPPING.xcmappingmodel|MAPPING.cdm [--model MODEL] [--out FILE|FOLDER]

        infer: infers the mapping from version FROM to version TO and writes it in the mapping-file
        format, every inferred rule spelled out and what inference cannot know left as comments.
        Save it beside the model as "FROM to TO.mapping" and edit it: 'ferry plan' and
        'ferry migrate' apply it on top of the inferred mapping.

        convert: writes a Core Data mapping model as the written mapping that runs as it does,
        every attribute and relationship of each entity mapping spelled out. The two versions it
        maps are found in MODEL by their version hashes (default: the .xcdatamodeld or .momd beside
        the mapping model). An entity mapping with a custom migration policy class (app code) gets
        a marked 'todo' line to replace with rules that do what the class did; until then its
        records are refused. With --out FOLDER the file is FOLDER/"FROM to TO.mapping".

        examples: ferry mapping infer "Workspace 2" "Workspace 3" --model Migrations/Workspace.xcdatamodeld
                  ferry mapping convert ../shared/corpus/coredata/richardpiazza__XCServerCoreData/Resources/MappingModel1.2.0to2.0.0.xcmappingmodel   # needs the corpus
        """
    static let options = [
        OptionSpec.path("model", "MODEL", "the versioned model (.xcdatamodeld or .momd)"),
        .path("out", "FILE", "where to write it (default: standard output); for convert, a folder too"),
        .flag("force", "replace FILE if it exists (a mapping file is meant to be edited: without it, one is never overwritten)"),
    ]

    static let words = ["infer", "convert"]

    static let exitCodes = [
        ExitCodeUse(.success, "written"),
        ExitCodeUse(.badInput, "the model or mapping model cannot be read, or has no version FROM or TO (or none its hashes match)"),
        ExitCodeUse(.destination, "FILE not written (it exists and --force was not given, or it cannot be written)"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        if arguments.positionals.first == "convert" { return try convert(arguments) }
        guard arguments.positionals.count == 3, arguments.positionals[0] == "infer" else {
            throw UsageError("usage: ferry mapping infer FROM TO --model MODEL | ferry mapping convert MAPPING_MODEL [--model MODEL]"
                + NameSuggestion.hint(for: arguments.positionals.first ?? "", among: ["infer", "convert"]))
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
        return write(MappingFileWriter.text(for: MappingInference.infer(from: from, to: to)), to: arguments.value("out") ?? "-",
                     replacing: arguments.has("force"), inputs: [modelPath])
    }

    /// Writes the mapping file, whole or not at all; an existing one (likely edited by hand) only
    /// with `replacing`, and never one of `inputs` or a file inside one (the model's `contents`).
    private static func write(_ text: String, to path: String, replacing: Bool, inputs: [String]) -> ExitCode {
        if let (output, input) = PathOverlap.first(outputs: [path], inputs: inputs) {
            Terminal.error("ferry mapping: " + PathOverlap.text(output: output, input: input) + "; nothing was written")
            return .usage
        }
        do {
            try WholeFileOutput.write(to: path, replacing: replacing) { sink in try sink.write(Array(text.utf8)) }
        } catch .exists(let path) {
            Terminal.error("ferry mapping: \(path) exists (use --force to replace it; a mapping file may hold edits)")
            return .destination
        } catch {
            Terminal.error("ferry mapping: \(error.description)")
            return .destination
        }
        return .success
    }

    private static func convert(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 2 else { throw UsageError("usage: ferry mapping convert MAPPING_MODEL [--model MODEL] [--out FILE|FOLDER]") }
        let mappingPath = arguments.positionals[1]
        if mappingPath.hasSuffix(".mapping") {
            Terminal.error("ferry mapping: \(mappingPath) is a written mapping already ('ferry plan' shows what it does); "
                + "convert reads Core Data mapping models (.xcmappingmodel, .cdm)")
            return .badInput
        }
        let mappingModel: CoreDataMappingModel
        do { mappingModel = try MappingModelLoader.load(at: mappingPath) } catch {
            Terminal.error("ferry mapping: \(error.description)")
            return .badInput
        }
        let modelPaths = arguments.value("model").map { [$0] } ?? modelsBeside(mappingPath)
        guard !modelPaths.isEmpty else {
            throw UsageError("ferry mapping convert: no .xcdatamodeld or .momd beside \(mappingPath); give the model with --model")
        }
        var bundles: [ModelBundle] = []
        for modelPath in modelPaths {
            do { bundles.append(try XcodeModelLoader.loadBundle(at: modelPath)) } catch {
                Terminal.error("ferry mapping: \(error.description)")
                return .badInput
            }
        }
        guard let (source, destination) = MappingModelConversion.versions(mapped: mappingModel, in: bundles) else {
            Terminal.error("ferry mapping: \(mappingPath) maps no two versions of \(modelPaths.joined(separator: ", ")) (no versions have its entity version hashes)")
            return .badInput
        }
        var out = arguments.value("out") ?? "-"
        var isFolder = false
        if FileManager.default.fileExists(atPath: out, isDirectory: &isFolder), isFolder {
            out += (out.hasSuffix("/") ? "" : "/") + "\(source.name) to \(destination.name).mapping"
        }
        let status = write(MappingModelConversion.text(of: mappingModel, from: source, to: destination), to: out, replacing: arguments.has("force"),
                           inputs: [mappingPath] + modelPaths)
        if status == .success, out != "-" { Terminal.error("ferry mapping: wrote \(out) (\(source.name) → \(destination.name))") }
        return status
    }

    /// The versioned models in the folder of a mapping model, in name order.
    private static func modelsBeside(_ mappingPath: String) -> [String] {
        let trimmed = mappingPath.hasSuffix("/") ? String(mappingPath.dropLast()) : mappingPath
        let folder = trimmed.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return entries.filter { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".momd") }.sorted()
            .map { (folder.isEmpty ? "" : folder + "/") + $0 }
    }
}
