import Ferry
import FerryFormats
import FoundationEssentials

/// `ferry plan --model M [SOURCE...]`: the chain of mappings, and with sources a dry run.
enum PlanCommand: Command {
    static let name = "plan"
    static let summary = "show the version chain and every mapping rule; with sources, a dry run that writes nothing"
    static let usage = """
        usage: ferry plan --model MODEL.xcdatamodeld [SOURCE...] [--format text|dot|json | --json] [options]

        Prints the chain of model versions up to the current one and, per step and entity, where
        each destination attribute and relationship comes from (inferred, written, or a Core Data
        mapping model's), what is added or dropped, and rename candidates inference did not
        apply. A step runs the mapping model (--mapping, or an .xcmappingmodel or .cdm beside the
        model) whose entity version hashes are those of its two versions; an entity mapping of it
        that Ferry cannot run (a custom migration policy class) is listed with what to do instead,
        and then the plan exits with 3. With SOURCEs (as for
        'ferry migrate'), runs the whole migration without keeping anything and prints, per source
        and entity, how many records would be written, merged, rejected or filtered, with sample
        rejects. --format dot draws the mapping as a Graphviz diagram.

        example: ferry plan --model Migrations/Workspace.xcdatamodeld --format dot | dot -Tsvg > plan.svg   # needs Graphviz
        """
    static let options = MigrateCommand.options.filter { !["out", "force", "json", "schema", "replace", "quiet", "log"].contains($0.name) } + [
        OptionSpec.choice("format", ["text", "dot", "json"], "the plan as text (default), a Graphviz diagram or JSON"),
        .flag("json", "the same as --format json"),
    ]

    static let exitCodes = [
        ExitCodeUse(.success, "planned (and the dry run rejected nothing)"),
        ExitCodeUse(.rejects, "the dry run rejected some records or left links unresolved, or a source store fails ferry verify's relationship checks"),
        ExitCodeUse(.badInput, "the model or a source cannot be read, or a step cannot run (a custom migration policy)"),
        ExitCodeUse(.verificationFailed, "the dry run's store failed verification, or a source's second count differs from what its reader read"),
        ExitCodeUse(.rejectLimit, "the dry run stopped at --max-errors rejects"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        let format = arguments.value("format") ?? (arguments.has("json") ? "json" : "text")
        if arguments.has("json"), format != "json" { throw UsageError("--json and --format \(format) ask for two formats") }
        var request = try MigrateCommand.makeRequest(arguments, outputRequired: false)
        let plan: MigrationPlan
        do { plan = try MigrationPlan(request: request) } catch {
            Terminal.error("ferry plan: \(error.description)")
            return MigrateCommand.exitCode(of: error)
        }
        // A dry run's summary says them too.
        if request.sources.isEmpty { for warning in plan.warnings { Terminal.error("warning: \(warning)") } }
        var dryRun: MigrationSummary?
        if !request.sources.isEmpty {
            request.dryRun = true
            do { dryRun = try MigrateJob(request: request).run() } catch {
                Terminal.error("ferry plan: \(error.description)")
                return MigrateCommand.exitCode(of: error)
            }
        }
        switch format {
        case "dot": Terminal.out(MigrationPlanText.dot(plan))
        case "json":
            struct Output: Encodable { let plan: MigrationPlan; let dryRun: MigrationSummary? }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            if let data = try? encoder.encode(Output(plan: plan, dryRun: dryRun)) { Terminal.out(String(decoding: data, as: UTF8.self) + "\n") }
        default:
            Terminal.out(MigrationPlanText.text(plan))
            if let dryRun {
                Terminal.out("\ndry run:\n")
                MigrationReportText.print(dryRun, json: false, rejectLog: request.rejectLogPath, log: RunLog(verb: name, arguments: arguments))
            }
        }
        if let dryRun { return MigrateCommand.exitCode(of: dryRun) }
        return plan.steps.contains { !$0.refused.isEmpty } ? .badInput : .success
    }
}

/// The plan as text and as a Graphviz diagram.
enum MigrationPlanText {
    static func text(_ plan: MigrationPlan) -> String {
        var out = "model \(plan.model): \(ChainText.ways(plan.chains))\n"
        if plan.everyVersion, plan.chains.joined().count > 2 {
            out += "(every version's step: a run stops only at its sources' versions, mappings' ends and the target, "
                + "inferring straight across the rest; give the sources to see the steps it takes)\n"
        }
        for step in plan.steps {
            out += "\nstep \(step.from) → \(step.to)" + (step.mappingModel.map { " (mapping model \($0))" } ?? "") + "\n"
            for refusal in step.refused { out += "  cannot run: \(refusal)\n" }
            for entity in step.entities {
                out += "  entity \(entity.source) → \(entity.destination)\n"
                if let filter = entity.filter { out += "    where \(filter)\n" }
                if let duplicates = entity.duplicates { out += "    duplicates: \(duplicates)\n" }
                let rows = (entity.attributes + entity.relationships).map { ["    " + $0.destination, $0.rule, $0.origin] }
                out += TextTable.render(rows)
                if !entity.droppedAttributes.isEmpty { out += "    not carried: \(entity.droppedAttributes.joined(separator: ", "))\n" }
                for note in entity.notes { out += "    note: \(note)\n" }
            }
            for name in step.added { out += "  entity \(name): new, no records flow into it\n" }
            for name in step.dropped { out += "  entity \(name): removed, its records are dropped\n" }
            for hint in step.suggestions { out += "  hint: \(hint)\n" }
        }
        return out
    }

    static func dot(_ plan: MigrationPlan) -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"").replacingAll("\n", with: "\\n") + "\""
        }
        var out = "digraph mapping {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n"
        // Each version a cluster, its entities named by its place: the steps of several ways may
        // start or end at one version.
        let versions = plan.chains.joined().reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        func node(_ version: String, _ entity: String) -> String { quoted("\(versions.firstIndex(of: version) ?? 0):\(entity)") }
        for (index, version) in versions.enumerated() {
            out += "  subgraph cluster_\(index) { label=\(quoted(version));"
            let names = Set(plan.steps.flatMap { step -> [String] in
                (step.from == version ? step.entities.map(\.source) + step.dropped : [])
                    + (step.to == version ? step.entities.map(\.destination) + step.added : [])
            })
            for name in names.sorted() { out += " \(node(version, name)) [label=\(quoted(name))];" }
            out += " }\n"
        }
        for step in plan.steps {
            for entity in step.entities {
                let changes = entity.attributes.filter { !$0.rule.hasPrefix("copy") }.map { "\($0.destination): \($0.rule)" }
                out += "  \(node(step.from, entity.source)) -> \(node(step.to, entity.destination)) [label=\(quoted(changes.joined(separator: "\n")))];\n"
                // Records made from values: a dashed edge to the made entity, labelled with the rule.
                for made in entity.relationships where entity.madeEntities[made.destination] != nil {
                    let target = entity.madeEntities[made.destination] ?? ""
                    out += "  \(node(step.from, entity.source)) -> \(node(step.to, target)) [style=dashed, label=\(quoted("\(made.destination) = \(made.rule)"))];\n"
                }
            }
        }
        return out + "}\n"
    }
}

extension String {
    /// Every occurrence of `target` replaced.
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
