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

        The format is read from the content, whatever the file is named: bplist or '<' is a
        property list, '[' JSON, '{' JSON (NDJSON when the first line holds one object and the
        next starts another), anything else CSV; the name (.ndjson, .json, .plist, .csv) only
        settles what the content leaves open, and --format must agree with the content. An empty
        source (no bytes, or only whitespace) is bad input, whatever its format.

        CSV: the delimiter is sniffed from the first 64 KB (the comma is kept unless another
        splits the header and clearly more rows alike; of several that fit, the one whose header
        names the most attributes; --delimiter overrides, .tsv means tab) and
        the summary says which was used. A row whose field count differs from the header's is
        rejected. Empty lines and --comment lines are read and counted as skipped, in a one-column
        file too (a line of "" is a record of one empty value). --map '#N=ATTRIBUTE' names a column by
        its position (a column without a name); in --map KEY=ATTRIBUTE the last '=' ends KEY.
        A row of more than --max-columns fields stops the run. README.md, "CSV rules", has all.

        examples (uploads, then the tasks that attach them, into one store):
          ferry import Fixtures/legacy/uploads.csv --model Migrations/Workspace.xcdatamodeld \\
              --model-version "Workspace 2" --entity Upload --out Workspace2.sqlite
          ferry import Fixtures/legacy/tasks.json --model Migrations/Workspace.xcdatamodeld \\
              --model-version "Workspace 2" --entity Task --out Workspace2.sqlite --append \\
              --link attachments=remotePath --link tags=name --create-missing tags

        The written store is then verified (integrity, bookkeeping, keys, values, accounting);
        --no-verify skips that.
        """
    static let options = [
        OptionSpec.path("model", "MODEL", ".xcdatamodeld bundle, .xcdatamodel folder or contents file"),
        .version("model-version", "model version to write (default: the current version)"),
        .entity("entity", "entity the records belong to"),
        .path("out", "STORE", "the store to create"),
        .flag("force", "replace STORE if it exists (atomically)"),
        .flag("append", "add to STORE if it exists (it must be of the same model version); a FILE it lists as imported before as this entity (the same bytes) is refused"),
        .flag("again", "import a FILE the store lists as imported before, or the same file twice: its records are written again (with --key, they update the records they match)"),
    ] + ValueRuleArguments.options + FileSourceArguments.options(files: "the files") + [
        OptionSpec(name: "create-missing", value: "REL", help: "create destinations of REL that no record matches", repeatable: true),
        OptionSpec(name: "key", value: "ATTRIBUTE[,ATTRIBUTE]", help: "attributes that identify a record (upsert where the model has no unique constraint)"),
        .choice("on-duplicate", DuplicatePolicy.self, "records colliding on a unique key (default reject)"),
        .path("rejects", "FILE", "write every reject as one JSON line to FILE"),
        .integer("max-errors", "N", 1...Int.max, "stop (and write nothing, exit 6) after N rejects"),
        .integer("batch-size", "N", 1...Int.max, "rows per transaction (default 10000)"),
        .flag("no-verify", "skip the check of the written store"),
        .flag("json", "print the summary as JSON"),
    ] + RunLog.options

    static let exitCodes = [
        ExitCodeUse(.success, "every record written (and the store verified)"),
        ExitCodeUse(.rejects, "some records rejected or links unresolved; the store holds the rest"),
        ExitCodeUse(.badInput, "a file or the model cannot be read, or names no version, entity or attribute of it, or the --append store lists a FILE as imported before (without --again)"),
        ExitCodeUse(.destination, "the store not written: it exists without --force or appeared meanwhile, an --append store of another "
                    + "model version or that another process has open or changes, a full disk, the file size limit"),
        ExitCodeUse(.verificationFailed, "the written store failed verification, or a source file's second count differs from what its reader read (nothing written)"),
        ExitCodeUse(.rejectLimit, "stopped at --max-errors rejects; nothing written"),
    ]

    /// For a file without a column the current version requires, read into the current version
    /// because no --model-version was given: the file may be of an older version, which import
    /// reads as it is and migrate brings to the current one (first-hour review: no way forward).
    private static func olderVersionHint(_ error: ImportError, _ arguments: ParsedArguments) -> String {
        guard case .source(let failure) = error, failure.reason.hasPrefix(CSVHeaderMatch.missingRequiredColumn),
              arguments.value("model-version") == nil, let path = arguments.value("model"),
              let bundle = try? XcodeModelLoader.loadBundle(at: path), bundle.versions.count > 1 else { return "" }
        return "\n  hint: the file may be of an older version of the model (\(bundle.versions.map(\.name).joined(separator: ", "))): "
            + "import it into the version it was written in with --model-version, or bring it to the current version with "
            + "ferry migrate ENTITY@VERSION:FILE"
    }

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("import needs at least one FILE") }
        let request = try makeRequest(arguments)
        let log = RunLog(verb: name, arguments: arguments)
        log.start(arguments)
        let summary: ImportSummary
        do {
            summary = try ImportJob(request: request).run(progress: log.progress)
        } catch {
            let code: ExitCode = switch error {
            case _ where error.writeFailure != nil: .destination
            case .store(let failure) where failure.isModelProblem: .badInput
            case .destinationExists, .store, .rejectLog, .noRoom: .destination
            case .outputIsInput, .outputTwice: .usage
            case .pipeline(.notAccounted): .verificationFailed
            default: .badInput
            }
            return log.failure(code, error.description + ModelNameHints(arguments, options: options).text + olderVersionHint(error, arguments))
        }
        report(summary, json: arguments.has("json"), rejectLog: request.rejectLogPath, log: log)
        for warning in summary.externalFileWarnings { log.warning("warning: \(warning)") }
        if request.existingStore == .append, summary.written + summary.merged > 0, summary.discarded == nil,
           let warning = PersistentHistory.unrecordedChange(store: request.outputPath) {
            log.warning("warning: \(warning)")
        }
        let code: ExitCode
        if let verification = summary.verification, !verification.passed {
            log.error(VerificationReportText.render(verification))
            if !arguments.has("json") { Terminal.out("VERIFICATION FAILED: \(verification.failures.count) failed checks\n") }
            code = .verificationFailed
        } else {
            code = summary.stoppedEarly ? .rejectLimit : summary.leftSomethingOut ? .rejects : .success
        }
        log.summary(code, counts: ["read": summary.read, "written": summary.written, "merged": summary.merged, "rejected": summary.rejected])
        return code
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
        if let policy = try arguments.choice("on-duplicate", as: DuplicatePolicy.self) { request.duplicates = policy }
        request.rejectLogPath = arguments.value("rejects")
        request.verify = !arguments.has("no-verify")
        request.importsAgain = arguments.has("again")
        if let limit = try arguments.integer("max-errors") { request.maxErrors = limit }
        if let size = try arguments.integer("batch-size") { request.batchSize = size }
        return request
    }

    private static func report(_ summary: ImportSummary, json: Bool, rejectLog: String?, log: RunLog) {
        if !json || log.writesJSON {
            for (source, keys) in summary.unknownKeys.sorted(by: { $0.key < $1.key }) {
                let kind = summary.delimiters[source] != nil ? "columns" : "keys"
                log.warning("warning: \(source): \(kind) matching no attribute of \(summary.entity), ignored: \(NameListText.summary(keys))")
            }
            for absent in summary.absentDefaults { log.warning("note: \(absent)") }
            DerivedAttributeText.warn(summary.uncomputedDerivations, log: log)
            RejectSamplesText.report(summary.sampleRejects, rejected: summary.rejected, links: summary.links,
                                     stoppedEarly: summary.stoppedEarly, rejectLog: rejectLog, log: log)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(summary) { Terminal.out(String(decoding: data, as: UTF8.self) + "\n") }
            return
        }
        let target = summary.discarded.map { DiscardedStoreText.text(reason: $0, path: summary.outputPath) } ?? summary.outputPath
        var line = "\(summary.entity) (\(summary.modelVersion)): read \(summary.read), written \(summary.written)"
        if summary.merged > 0 { line += ", merged \(summary.merged)" }
        line += ", rejected \(summary.rejected)"
        if summary.skipped > 0 { line += ", skipped \(summary.skipped)" }
        if summary.defaulted > 0 { line += ", defaulted \(summary.defaulted)" }
        Terminal.out(line + " → \(target)\n")
        for (source, delimiter) in summary.delimiters.sorted(by: { $0.key < $1.key }) {
            Terminal.out("  \(FileByteSource.name(of: source)): \(delimiter)\n")
        }
        for (entity, count) in summary.carried.sorted(by: { $0.key < $1.key }) {
            Terminal.out("  carried \(entity): written \(count.written)\(count.merged > 0 ? ", merged \(count.merged)" : "")"
                + (count.droppedWithCopies > 0 ? ", dropped with the copies not kept \(count.droppedWithCopies)" : "") + "\n")
        }
        // The links are part of the import, and the verification is of all of it (as migrate shows them).
        for link in summary.links { Terminal.out(LinkReportText.line(link, rejectLog: rejectLog, log: log)) }
        if let verification = summary.verification, verification.passed {
            Terminal.out("verified: \(verification.sections.reduce(0) { $0 + $1.checks }) checks hold\n")
        }
    }
}
