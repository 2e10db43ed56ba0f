import Ferry

/// `ferry export STORE --out DIR [--format F] [--gzip] [--level N] [--entity E] [--where P] [--sort K] [--model M]`, or
/// `ferry export STORE... --to postgresql://… [--schema S] [--jobs N] [--replace] [--no-verify]`.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "write a store's records into one file per entity, with a manifest"
    static let usage = """
        usage: ferry export STORE --out DIR [--format ndjson|json|csv|plist|bplist] [--gzip] [--level N]
                            [--entity E]... [--where PREDICATE] [--sort KEYS] [--model MODEL] [--no-fingerprints]
               ferry export STORE... --to postgresql://… [--schema S] [--jobs N] [--replace] [--no-verify]
                            [--model MODEL] [--json]

        Writes the records of each concrete entity into DIR/<Entity>.<format>[.gz] (an entity
        whose file would be manifest.json, letter case aside, is refused: use --gzip or another
        --format), and DIR/manifest.json: the store's path (as given, and resolved), model version
        and version hashes (base64), store UUID, per-entity counts and SHA-256 of each file, the
        Z_PRIMARYKEY maxima read, creation time, tool version, and for a whole export the store's fingerprints (records and pairs, computed with SQL on
        the other core while the records are read), which restore compares its store with
        (--no-fingerprints leaves them out: a faster export for other tools, restored unchecked).
        Every record carries its Z_PK; a to-one is the destination's Z_PK (null when none), a
        to-many the list of destination Z_PKs (ordered ones in order); destination entities are
        in the manifest. Dates are ISO 8601 UTC with fractional seconds (years outside 0-9999 with a
        sign and six digits; one past 999999 years as Core Data's seconds since 2001: import it
        with --date-epoch reference), binary is base64, UUIDs
        and decimals are exact text; NULL is null (CSV: an empty unquoted field; "" is the empty
        string). Everything is read in one read transaction. The files are built in a fresh
        folder beside DIR (inside it when DIR exists), created exclusively, and renamed into place:
        a symbolic link planted in DIR is replaced, never written through; a failure or a SIGINT or
        SIGTERM leaves DIR as it was, or, once the files are being put in place, waits until DIR
        holds the whole new export (a crash then: the next export into DIR finishes it first).
        Into an existing DIR, an OS lock (flock) on DIR/.ferry-export.lock keeps two exports from
        mixing their files: the second exits 7.

        The model is the version of MODEL whose version hashes are the store's, or without
        --model the one archived in the store (Z_MODELCACHE).

        With --to, the records of every STORE go into the tables of a PostgreSQL schema (created
        when missing; `ferry` by default): one table per root entity with an `entity` column,
        keyed by (store UUID, Z_PK), columns natively typed, to-one relationships as foreign
        keys, many-to-many ones as join tables. The connection string is a libpq URI; what it
        leaves out comes from PGHOST, PGUSER, PGPASSWORD… and the password file, and no password
        is ever printed (a URI libpq would misread, such as one with an '@' in its password, is
        refused). Each store is loaded in one transaction, whole or not at all, with binary COPY,
        the schema's tables made in the first one's; a table Ferry did not make is refused, never
        altered or written; a store already there is refused unless --replace. Before committing, rows
        per entity and pairs per relationship are counted in PostgreSQL with SQL and compared
        with the store's own counts (--no-verify skips the counting in PostgreSQL; the store's
        census of its rows is still compared with the rows sent). --jobs N loads N stores at once,
        each on its own connection; a store that fails does not stop the others.
        """
    static let options = [
        OptionSpec.path("out", "DIR", "folder to write the files into (created when missing)"),
        .choice("format", ExportFormat.self, "the files' format (default ndjson)"),
        .flag("gzip", "compress each file with gzip (.gz)"),
        .integer("level", "N", ExportOptions.gzipLevels, "gzip level (default 6)"),
        .entity("entity", "export this entity and its sub-entities only", repeatable: true),
        OptionSpec(name: "where", value: "PREDICATE", help: "NSPredicate format selecting records (one --entity)"),
        OptionSpec(name: "sort", value: "KEYS", help: "sort keys, e.g. 'name,-date' (one --entity)"),
        .path("model", "MODEL", ".xcdatamodeld bundle to read the store with"),
        .flag("no-fingerprints", "leave the store's fingerprints out of the manifest (restore then checks counts only)"),
        .flag("json", "print the manifest's summary (with --to: the load's) as one JSON line"),
        OptionSpec(name: "to", value: "URI", help: "load into PostgreSQL (postgresql://…) instead of writing files"),
        OptionSpec(name: "schema", value: "S", help: "with --to: the schema to load into (default ferry)"),
        .integer("jobs", "N", 1...64, "with --to: stores loaded at once (default 1)"),
        .flag("replace", "with --to: load a store already there again, replacing its rows"),
        .flag("no-verify", "with --to: skip counting rows and pairs in PostgreSQL (the store's rows are still accounted for)"),
    ] + RunLog.options

    static let exitCodes = [
        ExitCodeUse(.success, "written (every store loaded)"),
        ExitCodeUse(.rejects, "written, but the store fails ferry verify's relationship checks (each is named): the files "
            + "(or the database) hold those pairs as it does; or the checks could not run on the state exported (why is said)"),
        ExitCodeUse(.badInput, "a store or the model cannot be read, or names no such entity"),
        ExitCodeUse(.destination, "the folder (or the database) not written; with several stores, the worst code of any"),
        ExitCodeUse(.verificationFailed, "with --to: the database's counts differ from a store's"),
        ExitCodeUse(.locked, "another export into the existing DIR holds its lock; nothing was written"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        if let target = arguments.value("to") {
            return try PostgresExportCommand.run(arguments, target: target)
        }
        if let given = ["schema", "jobs", "replace", "no-verify"].first(where: { arguments.values[$0] != nil || arguments.has($0) }) {
            throw UsageError("--\(given) goes with --to")
        }
        guard arguments.positionals.count == 1, let store = arguments.positionals.first else {
            throw UsageError("export takes one STORE")
        }
        let request = try makeRequest(store: store, arguments)
        let log = RunLog(verb: name, arguments: arguments)
        log.start(arguments)
        do {
            let (manifest, readFromCopy) = try ExportJob(request: request).runReadingACopyWhenWritten(progress: log.progress)
            if readFromCopy {
                log.warning("note: \(store) was written while it was exported: one committed state of it was copied and exported")
            }
            if let reason = manifest.fingerprintsNotKept {
                let remedy = reason == ExportManifest.writtenWhileExported
                    ? "export it again when it is idle, or back it up (ferry backup copies a store being written)"
                    : "ferry verify names the records that cannot be read as the model says"
                log.warning("warning: \(store): the manifest keeps no fingerprints of it (\(reason)): a restore of this export is checked "
                    + "by its counts, not value by value; \(remedy)")
            }
            LeftBehindText.warn(manifest.leftBehind, of: manifest.source, log: log)
            LeftBehindText.warnPairsWithoutSource(manifest.pairsWithoutSource ?? [:], of: manifest.source, log: log)
            let damaged = RelationshipFailureText.warn(manifest.relationshipFailures ?? [], of: store,
                                                       outcome: "exported as the store holds it; a restore keeps what its records say", log: log)
            RelationshipFailureText.warnUnchecked(manifest.relationshipsNotChecked, of: store,
                                                  remedy: "run ferry verify on it when it is idle, or export it again", log: log)
            let code: ExitCode = damaged || manifest.relationshipsNotChecked != nil ? .rejects : .success
            log.summary(code, counts: ManifestSummary.counts(manifest))
            if arguments.has("json") {
                Terminal.out(ManifestSummary.jsonLine(manifest, folder: request.outputFolder) + "\n")
            } else {
                for file in manifest.entities { Terminal.out("\(file.entity): \(file.count) → \(request.outputFolder)/\(file.file)\n") }
            }
            return code
        } catch {
            var message = error.description
            if case .invalidRequest = error {
                message += request.entities.map { ModelNameHints(store: store, modelPath: request.modelPath, entity: $0).text }.joined()
            }
            return log.failure(ExitCode(error), message)
        }
    }

    private static func makeRequest(store: String, _ arguments: ParsedArguments) throws(UsageError) -> ExportRequest {
        var request = ExportRequest(storePath: store, outputFolder: try arguments.required("out"))
        try ExportOptions.apply(arguments, to: &request)
        request.entities = arguments.values["entity"] ?? []
        request.predicate = arguments.value("where")
        request.sort = arguments.value("sort")
        request.fingerprints = !arguments.has("no-fingerprints")
        if let problem = request.selectionProblem { throw UsageError(problem) }
        return request
    }
}

/// Options shared by export and backup.
enum ExportOptions {
    /// The gzip compression levels `--level` takes.
    static let gzipLevels = 0...9

    static func apply(_ arguments: ParsedArguments, to request: inout ExportRequest) throws(UsageError) {
        if let format = try arguments.choice("format", as: ExportFormat.self) { request.format = format }
        let level = try arguments.integer("level")
        if arguments.has("gzip") || level != nil { request.gzipLevel = level ?? 6 }
        request.modelPath = arguments.value("model")
    }
}

extension ExitCode {
    /// The exit code of a failed export, backup or restore.
    init(_ error: ExportError) {
        if case .locked = error {
            self = .locked
        } else if case .outputIsInput = error {
            self = .usage
        } else {
            self = error.isVerificationFailure ? .verificationFailed : error.isDestinationFailure ? .destination : .badInput
        }
    }
}
