import Ferry
import FerryModel
import FoundationEssentials

/// `ferry inspect MODEL`: versions, entities, properties and version hashes of a model.
enum InspectCommand: Command {
    static let name = "inspect"
    static let summary = "show a model's versions, entities, properties and version hashes"
    static let usage = """
        usage: ferry inspect MODEL [--json]

        MODEL is an .xcdatamodeld bundle, an .xcdatamodel folder or its 'contents' file.
        Prints every version with its entities, attributes (type, optional, default),
        relationships (destination, cardinality, inverse, delete rule), renaming identifiers
        and version hashes in base64, as Core Data shows them.

        example: ferry inspect Migrations/Workspace.xcdatamodeld
        """
    static let options = [OptionSpec(name: "json", value: nil, help: "print the same facts as JSON")]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError("inspect takes exactly one MODEL path")
        }
        let bundle: ModelBundle
        do {
            bundle = try XcodeModelLoader.loadBundle(at: path)
        } catch {
            Terminal.error("ferry inspect: \(error.description)")
            return .badInput
        }
        let report = ModelReport(bundle: bundle)
        if arguments.has("json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(report) else {
                Terminal.error("ferry inspect: could not encode the report as JSON")
                return .badInput
            }
            Terminal.out(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            Terminal.out(ModelReportText.render(report))
        }
        return .success
    }
}
