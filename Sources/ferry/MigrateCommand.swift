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
        STORE removes what a killed one left. Files are read as by 'ferry import' (see its help):
        the format from the content (CSV, JSON, NDJSON, property list), ENTITY:- reads standard
        input, an empty file is bad input, and the same CSV options apply to every CSV source.

        example:
          ferry migrate UploadEntity:Fixtures/legacy/uploads.csv Task:Fixtures/legacy/tasks.json \\
              --model Migrations/Workspace.xcdatamodeld --link attachments=remotePath --link tags=name \\
              --var zone=Asia/Shanghai --out Workspace.sqlite --force

        The written store is then verified (integrity, bookkeeping, every key and join row, values,
        and the accounting); --no-verify skips that.

        With --out postgresql://…, the store is written privately, verified, and then loaded into
        the schema (--schema, `ferry` by default) as `ferry export --to` loads a store: in one
        transaction, counted on both sides; --replace replaces an earlier load of it.
        """
    static let options = [
        OptionSpec.path("model", "MODEL", "the versioned model (.xcdatamodeld or a compiled .momd)"),
        .version("model-version", "the version to migrate to (default: the model's current version)"),
        .path("mapping", "PATH", "a Core Data mapping model (.xcmappingmodel, .cdm) for the step it maps (repeat for each)", repeatable: true),
        .path("out", "STORE", "the store to create, or a postgresql:// URI to load the records into").orDatabase(),
        .flag("force", "replace STORE if it exists (atomically)"),
        OptionSpec(name: "var", value: "NAME=VALUE", help: "a value for $NAME in written mappings (e.g. zone=Asia/Shanghai)", repeatable: true),
        OptionSpec(name: "schema", value: "S", help: "with --out postgresql://: the schema to load into (default ferry)"),
        .flag("replace", "with --out postgresql://: replace an earlier load of the store"),
    ] + FileSourceArguments.options(files: "files") + [
        .flag("lenient", "written values that fail become nil instead of rejecting the record"),
        .choice("on-duplicate", DuplicatePolicy.self, "where no mapping says (default reject)"),
        .path("rejects", "FILE", "write every reject as one JSON line to FILE"),
        .integer("max-errors", "N", 1...Int.max, "stop (and write nothing, exit 6) after N rejects"),
        .flag("no-verify", "skip the check of the written store"),
        .flag("json", "print the summary as JSON"),
    ] + RunLog.options

    static let exitCodes = [
        ExitCodeUse(.success, "every record carried (and the store verified)"),
        ExitCodeUse(.rejects, "some records rejected or links unresolved, or a source store fails ferry verify's relationship checks (each is named); the store holds the rest"),
        ExitCodeUse(.badInput, "a source or the model cannot be read, or names no version or entity of it"),
        ExitCodeUse(.destination, "the store (or the database) not written: it exists without --force or appeared meanwhile, a full disk, the file size limit"),
        ExitCodeUse(.verificationFailed, "the written store (or the database's counts) failed verification, or a source's second count differs from what its reader read (nothing written)"),
        ExitCodeUse(.rejectLimit, "stopped at --max-errors rejects; nothing written"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        if let out = arguments.value("out"), ConnectionTarget.isConnectionURI(out) {
            return try PostgresMigrateCommand.run(arguments, target: out)
        }
        if let given = ["schema", "replace"].first(where: { arguments.values[$0] != nil || arguments.has($0) }) {
            throw UsageError("--\(given) goes with --out postgresql://…")
        }
        let log = RunLog(verb: name, arguments: arguments)
        log.start(arguments)
        let migration = migrate(try makeRequest(arguments, outputRequired: true), arguments: arguments, log: log)
        if let summary = migration.summary { log.summary(migration.code, counts: counts(summary)) }
        return migration.code
    }

    /// The figures of a migration a log's summary carries.
    static func counts(_ summary: MigrationSummary) -> [String: Int] {
        ["read": summary.ledgers.reduce(0) { $0 + $1.read }, "written": summary.written.values.reduce(0, +), "rejected": summary.rejected]
    }

    /// Runs a migration and prints its summary; the exit code, and the summary when it ran.
    /// `destination` names where the records go when that is not the store's path (a database
    /// the store is loaded into next).
    static func migrate(_ request: MigrateRequest, arguments: ParsedArguments, log: RunLog, destination: String? = nil)
        -> (code: ExitCode, summary: MigrationSummary?)
    {
        let summary: MigrationSummary
        do {
            summary = try MigrateJob(request: request).run(progress: log.progress)
        } catch {
            return (log.failure(exitCode(of: error), error.description + ModelNameHints(arguments, options: options, sources: request.sources).text), nil)
        }
        MigrationReportText.print(summary, json: arguments.has("json"), rejectLog: request.rejectLogPath, destination: destination, log: log)
        return (exitCode(of: summary), summary)
    }

    /// The exit code of a migration that failed (also a dry run's, for `plan`).
    static func exitCode(of error: MigrateError) -> ExitCode {
        switch error {
        case _ where error.writeFailure != nil: .destination
        case .writer(let failure) where failure.isModelProblem: .badInput
        case .destinationExists, .writer, .rejectLog, .noRoom: .destination
        case .outputIsInput, .outputTwice, .entityMissing: .usage
        case .notAccounted: .verificationFailed
        default: .badInput
        }
    }

    /// The exit code of a migration that ran (also a dry run's, for `plan`).
    static func exitCode(of summary: MigrationSummary) -> ExitCode {
        if let verification = summary.verification, !verification.passed { return .verificationFailed }
        return summary.stoppedEarly ? .rejectLimit : summary.leftSomethingOut ? .rejects : .success
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
        if let policy = try arguments.choice("on-duplicate", as: DuplicatePolicy.self) { request.duplicates = policy }
        request.rejectLogPath = arguments.value("rejects")
        request.lenient = arguments.has("lenient")
        request.verify = !arguments.has("no-verify")
        if let limit = try arguments.integer("max-errors") { request.maxErrors = limit }
        return request
    }
}
