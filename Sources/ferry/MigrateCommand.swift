import Ferry
import FerryMigration
import FerryPostgres
import FoundationEssentials

/// `ferry migrate SOURCE... --model M --out STORE` (or `--out postgresql://…`).
enum MigrateCommand: Command {
    static let name = "migrate"
    static let summary = "bring stores of any version and legacy files to the current model version, in one store"
    static let usage = """
        usage: ferry migrate SOURCE... --model MODEL.xcdatamodeld --out STORE [options]

        Each SOURCE is a Core Data store (its version is found by its version hashes) or a legacy
        file given as ENTITY:FILE (records of ENTITY in the oldest model version that has an entity
        of that name) or ENTITY@VERSION:FILE. Records go through every version up to the current
        one, by the inferred mapping (or the Core Data mapping model whose version hashes match the
        step: given with --mapping, or an .xcmappingmodel or .cdm beside the model) plus the
        written mapping files beside the model ("<A> to <B>.mapping"), into one new store. Every record is written, merged, rejected (with
        its reason) or filtered by the mapping, and every empty or comment line of a CSV file is
        skipped; the run prints the ledger per source and entity. The store is written beside
        STORE and renamed into place only when complete, never over a STORE that appeared
        meanwhile unless --force; a failure, a SIGINT or a SIGTERM removes it, and the next run to
        STORE removes what a killed one left. CSV files are read as by 'ferry import'
        (see its help), with the same CSV options for every CSV source.

        example:
          ferry migrate UploadEntity:Fixtures/legacy/uploads.csv Task:Fixtures/legacy/tasks.json \\
              --model Migrations/Workspace.xcdatamodeld --link attachments=remotePath --link tags=name \\
              --var zone=Asia/Shanghai --out Workspace.sqlite --force

        The written store is then verified (integrity, bookkeeping, every key and join row, values,
        and the accounting); --no-verify skips that.

        With --out postgresql://…, the store is written privately, verified, and then loaded into
        the schema (--schema, `ferry` by default) as `ferry export --to` loads a store: in one
        transaction, counted on both sides; --replace replaces an earlier load of it.

        exit codes: 0 all records carried, 1 some rejected, 2 usage, 3 bad input, 4 destination not
        written (it exists without --force, or appeared meanwhile; a full disk; the file size limit),
        5 the written store (or the database's counts) failed verification.
        """
    static let options = [
        OptionSpec(name: "model", value: "MODEL", help: "the versioned model (.xcdatamodeld or a compiled .momd)"),
        OptionSpec(name: "model-version", value: "VERSION", help: "the version to migrate to (default: the model's current version)"),
        OptionSpec(name: "mapping", value: "PATH", help: "a Core Data mapping model (.xcmappingmodel, .cdm) for the step it maps (repeat for each)",
                   repeatable: true),
        OptionSpec(name: "out", value: "STORE", help: "the store to create, or a postgresql:// URI to load the records into"),
        OptionSpec(name: "force", value: nil, help: "replace STORE if it exists (atomically)"),
        OptionSpec(name: "var", value: "NAME=VALUE", help: "a value for $NAME in written mappings (e.g. zone=Asia/Shanghai)", repeatable: true),
        OptionSpec(name: "schema", value: "S", help: "with --out postgresql://: the schema to load into (default ferry)"),
        OptionSpec(name: "replace", value: nil, help: "with --out postgresql://: replace an earlier load of the store"),
    ] + FileSourceArguments.options(files: "files") + [
        OptionSpec(name: "lenient", value: nil, help: "written values that fail become nil instead of rejecting the record"),
        OptionSpec(name: "on-duplicate", value: "POLICY", help: "where no mapping says: reject (default), keep-first, keep-newest"),
        OptionSpec(name: "rejects", value: "FILE", help: "write every reject as one JSON line to FILE"),
        OptionSpec(name: "max-errors", value: "N", help: "stop (and write nothing) after N rejects"),
        OptionSpec(name: "no-verify", value: nil, help: "skip the check of the written store"),
        OptionSpec(name: "json", value: nil, help: "print the summary as JSON"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        if let out = arguments.value("out"), ConnectionTarget.isConnectionURI(out) {
            return try PostgresMigrateCommand.run(arguments, target: out)
        }
        if let given = ["schema", "replace"].first(where: { arguments.values[$0] != nil || arguments.has($0) }) {
            throw UsageError("--\(given) goes with --out postgresql://…")
        }
        return migrate(try makeRequest(arguments, outputRequired: true), json: arguments.has("json")).code
    }

    /// Runs a migration and prints its summary; the exit code, and the summary when it ran.
    static func migrate(_ request: MigrateRequest, json: Bool) -> (code: ExitCode, summary: MigrationSummary?) {
        let progress = ProgressLine(verb: "migrate", enabled: !json)
        let summary: MigrationSummary
        do {
            summary = try MigrateJob(request: request).run(progress: progress.update)
        } catch {
            progress.clear()
            Terminal.error("ferry migrate: \(error.description)")
            switch error {
            case _ where error.writeFailure != nil: return (.destination, nil)
            case .destinationExists, .writer, .rejectLog, .noRoom: return (.destination, nil)
            case .outputIsInput, .entityMissing: return (.usage, nil)
            case .notAccounted: return (.verificationFailed, nil)
            default: return (.badInput, nil)
            }
        }
        progress.clear()
        MigrationReportText.print(summary, json: json, rejectLog: request.rejectLogPath)
        if let verification = summary.verification, !verification.passed { return (.verificationFailed, summary) }
        return (summary.rejected > 0 ? .rejects : .success, summary)
    }

    /// The request both `migrate` and `plan` build from their arguments.
    static func makeRequest(_ arguments: ParsedArguments, outputRequired: Bool) throws(UsageError) -> MigrateRequest {
        guard !arguments.positionals.isEmpty || !outputRequired else { throw UsageError("migrate needs at least one SOURCE") }
        var request = MigrateRequest(
            sources: arguments.positionals.map(MigrationSource.init(argument:)), modelPath: try arguments.required("model"),
            targetVersion: arguments.value("model-version"), outputPath: outputRequired ? try arguments.required("out") : "", replaceExisting: arguments.has("force"))
        request.mappingModels = arguments.values["mapping"] ?? []
        request.variables = try Pairs.parse(arguments, "var")
        request.files = try FileSourceArguments.parse(arguments)
        if let text = arguments.value("on-duplicate") {
            guard let policy = DuplicatePolicy(rawValue: text) else { throw UsageError("--on-duplicate takes reject, keep-first or keep-newest") }
            request.duplicates = policy
        }
        request.rejectLogPath = arguments.value("rejects")
        request.lenient = arguments.has("lenient")
        request.verify = !arguments.has("no-verify")
        if let limit = try arguments.integer("max-errors", in: 1...Int.max) {
            request.maxErrors = limit
        }
        return request
    }
}
