import Ferry
import FerryFormats
import FerryModel
import FoundationEssentials

/// `ferry inspect MODEL|STORE|MAPPING`: a model's versions, entities, properties and version
/// hashes; a store's version and rows; a mapping model's entity mappings.
enum InspectCommand: Command {
    static let name = "inspect"
    static let summary = "show a model's versions, entities, properties and version hashes"
    static let usage = """
        usage: ferry inspect MODEL [--json]
               ferry inspect STORE [--model MODEL] [--json]
               ferry inspect MAPPING [--json]

        MODEL is an .xcdatamodeld bundle, an .xcdatamodel folder or its 'contents' file, or a
        model compiled by Xcode: a .momd folder or a single .mom.
        Prints every version with its entities, attributes (type, optional, default),
        relationships (destination, cardinality, inverse, delete rule), renaming identifiers
        and version hashes in base64, as Core Data shows them.

        STORE is a Core Data SQLite store (or any SQLite database). Prints its UUID, the model
        version that matches its version hashes (with --model) or the model recovered from the
        store itself, the rows per entity, and that model.

        MAPPING is a Core Data mapping model: an .xcmappingmodel folder (or its xcmapping.xml),
        or a compiled .cdm. Prints every entity mapping as Apple's mapping compiler makes it: name,
        type, source and destination entities with their version hashes, which source objects it
        takes, its migration policy class, and the expression of every attribute and relationship.

        examples: ferry inspect Migrations/Workspace.xcdatamodeld
                  ferry inspect Workspace.sqlite --model Migrations/Workspace.xcdatamodeld
        """
    static let options = [
        OptionSpec.path("model", "MODEL", "for a STORE: the model to match it against"),
        .flag("json", "print the same facts as JSON"),
    ]

    static let exitCodes = [
        ExitCodeUse(.success, "shown"),
        ExitCodeUse(.badInput, "the model, store or mapping model cannot be read"),
        ExitCodeUse(.verificationFailed, "a STORE holds rows its reader and plain SQL count differently"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError("inspect takes exactly one MODEL path")
        }
        // A file named as a store that is none (empty, damaged) is said to be no database, not no model.
        if StoreReport.isSQLiteFile(path) || namesStore(path) { return inspectStore(path, arguments) }
        guard arguments.value("model") == nil else { throw UsageError("--model goes with a STORE, not a MODEL") }
        if MappingModelReport.isMappingModel(path) { return inspectMapping(path, arguments) }
        let bundle: ModelBundle
        do {
            bundle = try XcodeModelLoader.loadBundle(at: path)
        } catch {
            Terminal.error("ferry inspect: \(error.description)\(notInspected(path).map { " (\($0))" } ?? "")")
            return .badInput
        }
        let report = ModelReport(bundle: bundle)
        if arguments.has("json") { return printJSON(report) }
        Terminal.out(ModelReportText.render(report))
        return .success
    }

    /// Whether `path` is named as a SQLite store (`.sqlite`, `.sqlite3`, `.db`, `.store`).
    private static func namesStore(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return [".sqlite", ".sqlite3", ".db", ".store"].contains(where: lowered.hasSuffix)
    }

    /// What to use instead for a file inspect does not read: a written mapping, a data file.
    private static func notInspected(_ path: String) -> String? {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".mapping") { return "inspect reads models, stores and Core Data mapping models; a written mapping is shown by ferry plan" }
        if [".csv", ".tsv", ".json", ".ndjson", ".jsonl", ".plist", ".gz"].contains(where: lowered.hasSuffix) {
            return "inspect reads models, stores and Core Data mapping models; ferry model infer describes a data file"
        }
        return nil
    }

    private static func inspectMapping(_ path: String, _ arguments: ParsedArguments) -> ExitCode {
        let model: CoreDataMappingModel
        do { model = try MappingModelLoader.load(at: path) } catch {
            Terminal.error("ferry inspect: \(error.description)")
            return .badInput
        }
        let report = MappingModelReport(model)
        if arguments.has("json") { return printJSON(report) }
        Terminal.out(MappingModelReportText.render(report))
        return .success
    }

    private static func inspectStore(_ path: String, _ arguments: ParsedArguments) -> ExitCode {
        let report: StoreReport
        do { report = try StoreReport(path: path, bundlePath: arguments.value("model")) } catch {
            Terminal.error("ferry inspect: \(error.description)")
            return .badInput
        }
        if arguments.has("json") {
            let printed = printJSON(report)
            return report.discrepancies.isEmpty ? printed : .verificationFailed
        }
        var out = "store \(report.path) (\(report.kind))\n"
        if let uuid = report.storeUUID { out += "  uuid \(uuid)\n" }
        if let framework = report.frameworkVersion { out += "  written by Core Data framework version \(framework)\n" }
        if let receipt = report.receipt { out += "  receipt: \(receipt)\n" }
        if let imported = report.importedFiles { out += "  imported: \(imported)\n" }
        out += "  model: \(report.modelSource)\n  rows:\n"
        out += TextTable.render(report.counts.sorted { $0.key < $1.key }.map { entity, rows in
            // Both figures where the reader and plain SQL disagree.
            let plain = report.plainSQLCounts?[entity]
            return ["    " + entity, plain.map { $0 == rows ? String(rows) : "\(rows) read, \($0) by plain SQL" } ?? String(rows)]
        })
        if !report.frameworkRecords.isEmpty {
            out += "  Core Data's own records: " + LeftBehind.counts(report.frameworkRecords) + "\n"
        }
        if !report.otherTables.isEmpty {
            out += "  tables outside Core Data's layout (no job carries them): " + LeftBehind.counts(report.otherTables) + "\n"
        }
        if !report.otherSchema.isEmpty {
            out += "  views and triggers outside Core Data's layout (no job carries them): " + report.otherSchema.joined(separator: ", ") + "\n"
        }
        for line in report.discrepancies { out += "  NOT ACCOUNTED FOR: \(line)\n" }
        Terminal.out(out + (report.model.map { "\n" + ModelReportText.render($0) } ?? ""))
        return report.discrepancies.isEmpty ? .success : .verificationFailed
    }

    private static func printJSON(_ report: some Encodable) -> ExitCode {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(report) else {
            Terminal.error("ferry inspect: could not encode the report as JSON")
            return .badInput
        }
        Terminal.out(String(decoding: data, as: UTF8.self) + "\n")
        return .success
    }
}
