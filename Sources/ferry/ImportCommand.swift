import Ferry
import FerryVerify
import FerryMigration
import FoundationEssentials

/// `ferry import FILE... --model M [--model-version V] --entity E --out STORE`.
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "read legacy files into a new store of one model version"
    static let usage = """
        usage: ferry import FILE... --model MODEL [--model-version V] --entity E --out STORE [options]

        Reads records of entity E from each FILE (CSV with a header row, JSON or NDJSON, an XML or
        binary property list; gzip-compressed or not; - is standard input) and writes them into a
        SQLite store in Core Data's layout for that model version: a new one, or with --append an
        existing store of that version. Keys match attributes by name, ignoring case, or by
        renaming identifier. A value that cannot become its attribute's type rejects the record,
        with its line and reason. Relationship keys list destination values: --link names the
        destination attribute they match (a destination's only unique attribute is the default,
        and missing destinations are then created). The store is written beside STORE and renamed
        into place only when complete.

        CSV: the delimiter is sniffed from the first 64 KB (the comma is kept unless another
        splits the header and clearly more rows alike; --delimiter overrides, .tsv means tab) and
        the summary says which was used. A row whose field count differs from the header's is
        rejected. Empty lines and --comment lines are read and counted as skipped, but in a
        one-column file an empty line is an empty value. --map '#N=ATTRIBUTE' names a column by
        its position (a column without a name); in --map KEY=ATTRIBUTE the last '=' ends KEY.
        A row of more than --max-columns fields stops the run. README.md, "CSV rules", has all.

        examples:
          ferry import Fixtures/legacy/uploads.csv --model Migrations/Workspace.xcdatamodeld \\
              --model-version "Workspace 1" --entity UploadEntity --out Workspace1.sqlite
          ferry import Fixtures/legacy/tasks.json --model Migrations/Workspace.xcdatamodeld \\
              --model-version "Workspace 2" --entity Task --out Workspace2.sqlite --append \\
              --map taskTitle=title --map taskDesc=notes --map taskLevel=priority \\
              --link attachments=remotePath --link tags=name --create-missing tags

        The written store is then verified (integrity, bookkeeping, keys, values, accounting);
        --no-verify skips that.

        exit codes: 0 all records written, 1 some rejected (the store holds the rest),
        2 usage, 3 unreadable input or model, 4 destination not written, 5 verification failed.
        """
    static let options = [
        OptionSpec(name: "model", value: "MODEL", help: ".xcdatamodeld bundle, .xcdatamodel folder or contents file"),
        OptionSpec(name: "model-version", value: "V", help: "model version to write (default: the current version)"),
        OptionSpec(name: "entity", value: "E", help: "entity the records belong to"),
        OptionSpec(name: "out", value: "STORE", help: "the store to create"),
        OptionSpec(name: "force", value: nil, help: "replace STORE if it exists (atomically)"),
        OptionSpec(name: "append", value: nil, help: "add to STORE if it exists (it must be of the same model version)"),
    ] + ValueRuleArguments.options + FileSourceArguments.options(files: "the files") + [
        OptionSpec(name: "create-missing", value: "REL", help: "create destinations of REL that no record matches", repeatable: true),
        OptionSpec(name: "key", value: "ATTRIBUTE[,ATTRIBUTE]", help: "attributes that identify a record (upsert where the model has no unique constraint)"),
        OptionSpec(name: "on-duplicate", value: "POLICY", help: "records colliding on a unique key: reject (default), keep-first, keep-newest"),
        OptionSpec(name: "rejects", value: "FILE", help: "write every reject as one JSON line to FILE"),
        OptionSpec(name: "max-errors", value: "N", help: "stop (and write nothing) after N rejects"),
        OptionSpec(name: "batch-size", value: "N", help: "rows per transaction (default 10000)"),
        OptionSpec(name: "no-verify", value: nil, help: "skip the check of the written store"),
        OptionSpec(name: "json", value: nil, help: "print the summary as JSON"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("import needs at least one FILE") }
        let request = try makeRequest(arguments)
        let progress = ProgressLine(verb: "import", enabled: !arguments.has("json"))
        let summary: ImportSummary
        do {
            summary = try ImportJob(request: request).run(progress: progress.update)
        } catch {
            progress.clear()
            Terminal.error("ferry import: \(error.description)")
            switch error {
            case .destinationExists, .store, .rejectLog: return .destination
            case .outputIsInput: return .usage
            default: return .badInput
            }
        }
        progress.clear()
        report(summary, json: arguments.has("json"), rejectLog: request.rejectLogPath)
        if let verification = summary.verification, !verification.passed {
            Terminal.error(VerificationReportText.render(verification))
            Terminal.out("VERIFICATION FAILED: \(verification.failures.count) failed checks\n")
            return .verificationFailed
        }
        return summary.rejected > 0 ? .rejects : .success
    }

    private static func makeRequest(_ arguments: ParsedArguments) throws(UsageError) -> ImportRequest {
        guard !(arguments.has("force") && arguments.has("append")) else { throw UsageError("--force and --append exclude each other") }
        var request = ImportRequest(
            sources: arguments.positionals, modelPath: try arguments.required("model"),
            modelVersion: arguments.value("model-version"), entity: try arguments.required("entity"),
            outputPath: try arguments.required("out"),
            existingStore: arguments.has("force") ? .replace : arguments.has("append") ? .append : .refuse,
            files: try FileSourceArguments.parse(arguments))
        try ValueRuleArguments.parse(arguments, into: &request.files)
        request.createMissing = Set(arguments.values["create-missing"] ?? [])
        if let key = arguments.value("key") {
            let attributes = key.split(separator: ",").map { $0.filter { $0 != " " } }.filter { !$0.isEmpty }
            guard !attributes.isEmpty else { throw UsageError("--key takes one or more attribute names, separated by commas") }
            request.identityKey = attributes
        }
        if let text = arguments.value("on-duplicate") {
            guard let policy = DuplicatePolicy(rawValue: text) else { throw UsageError("--on-duplicate takes reject, keep-first or keep-newest") }
            request.duplicates = policy
        }
        request.rejectLogPath = arguments.value("rejects")
        request.verify = !arguments.has("no-verify")
        if let limit = try arguments.integer("max-errors", in: 1...Int.max) {
            request.maxErrors = limit
        }
        if let size = try arguments.integer("batch-size", in: 1...Int.max) {
            request.batchSize = size
        }
        return request
    }

    private static func report(_ summary: ImportSummary, json: Bool, rejectLog: String?) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(summary) { Terminal.out(String(decoding: data, as: UTF8.self) + "\n") }
            return
        }
        for (source, keys) in summary.unknownKeys.sorted(by: { $0.key < $1.key }) {
            Terminal.error("warning: \(source): columns matching no attribute of \(summary.entity), ignored: \(NameListText.summary(keys))")
        }
        for reject in summary.sampleRejects { Terminal.error("reject: \(reject.summary)") }
        if summary.rejected > summary.sampleRejects.count {
            Terminal.error("… \(summary.rejected - summary.sampleRejects.count) more rejects\(rejectLog.map { " in \($0)" } ?? " (use --rejects FILE to keep them all)")")
        }
        if summary.stoppedEarly {
            Terminal.error("stopped after \(summary.rejected) rejects (--max-errors); nothing was written")
        }
        let target = summary.stoppedEarly ? "nothing written"
            : summary.discarded.map { "not kept, because \($0): \(summary.outputPath) is as it was" } ?? summary.outputPath
        var line = "\(summary.entity) (\(summary.modelVersion)): read \(summary.read), written \(summary.written)"
        if summary.merged > 0 { line += ", merged \(summary.merged)" }
        line += ", rejected \(summary.rejected)"
        if summary.skipped > 0 { line += ", skipped \(summary.skipped)" }
        if summary.defaulted > 0 { line += ", defaulted \(summary.defaulted)" }
        Terminal.out(line + " → \(target)\n")
        for (source, delimiter) in summary.delimiters.sorted(by: { $0.key < $1.key }) { Terminal.out("  \(source): \(delimiter)\n") }
        for (entity, count) in summary.carried.sorted(by: { $0.key < $1.key }) {
            Terminal.out("  carried \(entity): written \(count.written)\(count.merged > 0 ? ", merged \(count.merged)" : "")\n")
        }
        if let verification = summary.verification, verification.passed {
            Terminal.out("verified: \(verification.sections.reduce(0) { $0 + $1.checks }) checks hold\n")
        }
        for link in summary.links { Terminal.out(LinkReportText.line(link, rejectLog: rejectLog)) }
    }
}
