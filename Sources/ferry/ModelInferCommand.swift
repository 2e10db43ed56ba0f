import Ferry
import FerryFormats
import FerryMigration
import FerryModel

/// `ferry model infer FILE... --entity E [--out X.xcdatamodeld]`: parses the request, runs
/// `ModelInferJob`, and renders its report.
enum ModelInferCommand {
    /// The options of `model infer` (beside those of `model extract`).
    static let options: [OptionSpec] = [
        OptionSpec(name: "entity", value: "E", help: "infer: the entity the records of FILE... belong to"),
        .integer("unique-limit", "N", 0...Int.max,
                 "infer: the most distinct values the uniqueness checks hold, all keys together (default 1000000)"),
        OptionSpec(name: "records-key", value: "KEY[.KEY]", help: "infer: JSON files hold their records under this key of the top object"),
        .integer("max-value-bytes", "N", 1...ValueSizeLimit.defaultMaxBytes, "infer: the most bytes one value may hold (default 512 MiB)"),
    ] + ValueRuleArguments.options + CSVOptionArguments.options

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        let files = Array(arguments.positionals.dropFirst())
        guard !files.isEmpty else { throw UsageError("model infer takes one or more FILEs") }
        var request = ModelInferRequest(sources: files, entity: try arguments.required("entity"), outputPath: arguments.value("out"),
                                        versionName: arguments.value("name"), replaceExisting: arguments.has("force"),
                                        files: try FileSourceArguments.parse(arguments))
        try ValueRuleArguments.parse(arguments, into: &request.files)
        if let limit = try arguments.integer("unique-limit") { request.uniqueLimit = limit }
        let summary: ModelInferSummary
        do { summary = try ModelInferJob(request).run() } catch {
            if case .invalidRequest(let reason) = error { throw UsageError(reason) }
            Terminal.error("ferry model infer: \(error.description)")
            return ExitCode(error)
        }
        Terminal.out(render(summary, request: request))
        return .success
    }

    static func render(_ summary: ModelInferSummary, request: ModelInferRequest) -> String {
        var text = ""
        for source in summary.sources {
            text += "read \(source.path): \(source.records) record\(source.records == 1 ? "" : "s")"
            text += source.delimiter.map { ", \($0.description)" } ?? ""
            text += source.skippedLines > 0 ? ", \(source.skippedLines) empty or comment lines" : ""
            text += "\n"
        }
        for entity in summary.report.entities { text += render(entity) }
        if summary.unreadable.count > 0 {
            text += "\(summary.unreadable.count) record\(summary.unreadable.count == 1 ? "" : "s") no model can read (import rejects them whatever the model):\n"
            for example in summary.unreadable.examples { text += "  \(example)\n" }
            if summary.unreadable.count > summary.unreadable.examples.count {
                text += "  … and \(summary.unreadable.count - summary.unreadable.examples.count) more\n"
            }
        }
        guard let bundle = summary.bundlePath else { return text + "nothing written (no --out)\n" }
        text += "wrote \(bundle): version \(summary.model.name) (current), entities \(summary.model.entities.map(\.name).joined(separator: ", "))\n"
        var rules = ""
        if summary.coercion.numericDateEpoch != .unixSeconds { rules += " --date-epoch \(summary.coercion.numericDateEpoch.rawValue)" }
        if summary.coercion.emptyField != .nullUnlessQuoted { rules += " --empty \(summary.coercion.emptyField.rawValue)" }
        if let keys = request.files.jsonRecordsKeyPath { rules += " --records-key \(keys.joined(separator: "."))" }
        text += "import with: ferry import \(request.sources.joined(separator: " ")) --model \(bundle) --entity \(request.entity)\(rules) --out STORE\n"
        return text
    }

    private static func render(_ entity: InferredEntity) -> String {
        let of = entity.origin.map { " from \($0)" } ?? ""
        var text = "\(entity.name)\(of): \(entity.records) \(entity.origin == nil ? "records" : "objects or values")\n"
        if !entity.attributes.isEmpty {
            var rows = [["attribute", "type", "values", "missing", "read from"]]
            for attribute in entity.attributes {
                let name = attribute.key == attribute.name ? attribute.name : "\(attribute.name) (key '\(attribute.key)')"
                let missing = attribute.missing == 0 ? "0" : "\(attribute.missing) (optional)"
                rows.append([name, attribute.type.xcodeName, "\(attribute.values)", missing, attribute.basis])
            }
            text += TextTable.render(rows, indent: "  ")
            for attribute in entity.attributes {
                if let note = attribute.note { text += "  \(attribute.name): \(note)\n" }
            }
        }
        for relationship in entity.relationships where relationship.basis != "inverse" {
            text += "  relationship \(relationship.name) → \(relationship.destination) (\(relationship.isToMany ? "to-many" : "to-one"), "
                + "inverse \(relationship.inverse)): \(relationship.values) \(relationship.basis)\n"
        }
        if let unique = entity.uniqueAttribute {
            text += "  unique: \(unique) (a uniqueness constraint)"
            text += entity.alsoUnique.isEmpty ? "\n" : "; also unique, no constraint: \(entity.alsoUnique.joined(separator: ", "))\n"
        } else if entity.origin == nil || !entity.attributes.isEmpty {
            text += "  unique: no attribute is unique and never blank\n"
        }
        for (attribute, after) in entity.uniquenessNotChecked {
            text += "  \(attribute): uniqueness not checked past \(after) distinct values (--unique-limit)\n"
        }
        for (key, reason) in entity.leftOut { text += "  left out '\(key)': \(reason)\n" }
        return text
    }
}

extension ExitCode {
    /// The exit code of a failed inference.
    init(_ error: ModelInferError) {
        switch error {
        case .invalidRequest: self = .usage
        case .source, .nothingToModel, .storeRows: self = .badInput
        case .output(let error): self = ExitCode(error)
        }
    }
}
