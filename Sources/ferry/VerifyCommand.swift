import Ferry
import FerryMigration
import FerryPostgres
import FerryModel
import FerryVerify
import FoundationEssentials

/// `ferry verify STORE [--model M] [--json]`: check a Core Data store on its own (or against its
/// sources, or a PostgreSQL schema against the store loaded into it).
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "check a store: integrity, bookkeeping, relationships, values, fingerprints"
    static let usage = """
        usage: ferry verify STORE [--model MODEL] [--json]
               ferry verify STORE --against SOURCE [--against SOURCE]... --model MODEL.xcdatamodeld [--rerun] [migrate options]
               ferry verify postgresql://… --against STORE [--store UUID] [--schema S] [--model MODEL]

        Checks a Core Data SQLite store without changing it: SQLite integrity, Z_PRIMARYKEY (Z_MAX,
        Z_SUPER) and Z_METADATA, the version hashes and Z_MODELCACHE against the model, the entity
        and Z_OPT of every row; every to-one key, join row and order key; required attributes,
        storage classes and uniqueness constraints (values and unique indexes). Prints a table
        per entity and per relationship, each failure with sample rows, and order-independent
        fingerprints of the records and pairs. A store another process writes while it is
        verified is verified again; written again, one committed state of it is copied into the
        temporary folder (as large as the store) and the checks run on that copy, as the report
        notes.

        SQLite's integrity is checked with PRAGMA quick_check: every page, b-tree and record
        format is read and checked, but indexes are not compared with their tables. Add
        --full-integrity-check for PRAGMA integrity_check, which also looks up every row in every
        index (an index that lost or gained entries, a UNIQUE index holding duplicates); on a
        large store it takes several times longer than quick_check.

        MODEL is an .xcdatamodeld bundle (the version whose hashes match the store is used), an
        .xcdatamodel folder or its 'contents' file. Without it, the model Core Data cached in the
        store (Z_MODELCACHE) is used.

        With --against, STORE is compared with what its SOURCEs (as for 'ferry migrate': stores,
        or ENTITY:FILE, in the same order, with the same options) map to, fingerprint by
        fingerprint: every entity over all its attributes, every relationship over its pairs;
        and every source record must be accounted for. A store written by 'ferry migrate' (with
        verification on) carries a receipt: the digests of its sources, model, mapping files and
        options, its ledger, and the fingerprints it was verified with. When every input still
        has its digest, STORE is compared with the receipt, which takes a read of each input.
        Without --against, a note says whether the store's records and pairs are still those
        the receipt's migration verified (an app writing the store changes them).
        Otherwise, or with --rerun, the sources are migrated again into a private store and the
        two are compared; the re-run's ledger accounts for every source record. The report says
        which was done and why.

        With a postgresql:// URI, the rows `ferry export --to` loaded from STORE (its UUID, or
        --store's) are rebuilt from the schema (`ferry` by default) into a private store and
        compared with STORE: rows per entity and pairs per relationship counted with SQL on both
        sides, the fingerprints of every entity's records and every relationship's pairs, and
        identity: the schema's store must be STORE (another UUID fails), with STORE's Z_MAX per
        root entity and the application's own metadata keys.

        example: ferry verify Workspace.sqlite --model Migrations/Workspace.xcdatamodeld
        """
    static let databaseFirst = true
    static let options = [
        OptionSpec.path("model", "MODEL", "the model to read the store with (default: its Z_MODELCACHE)"),
        .flag("json", "print the report as JSON"),
        .flag("no-fingerprints", "skip the record and pair fingerprints and the read of every record they take (structural checks only)"),
        .flag("full-integrity-check", "PRAGMA integrity_check (indexes against their tables too) instead of the faster quick_check"),
        .path("against", "SOURCE", "a source the store was migrated from (repeat for each)", repeatable: true),
        .flag("rerun", "with --against: migrate the sources again even when the store's receipt matches them"),
        OptionSpec(name: "store", value: "UUID", help: "with postgresql://: the store in the schema (default: the --against store's UUID)"),
        OptionSpec(name: "schema", value: "S", help: "with postgresql://: the schema (default ferry)"),
    ] + MigrateCommand.options.filter { ["var", "lenient", "on-duplicate", "model-version", "mapping"].contains($0.name) }
        + FileSourceArguments.options(files: "files") + RunLog.options

    static let exitCodes = [
        ExitCodeUse(.success, "every check holds"),
        ExitCodeUse(.rejects, "postgresql://…: every check holds, but STORE itself fails ferry verify's relationship checks (each is named)"),
        ExitCodeUse(.badInput, "the store, the model or a source cannot be read, the model names none of the store's entities, or the store changed while it was verified"),
        ExitCodeUse(.verificationFailed, "a check failed"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError("verify takes exactly one STORE path")
        }
        if ConnectionTarget.isConnectionURI(path) { return try PostgresVerifyCommand.run(arguments, target: path) }
        if let given = ["store", "schema"].first(where: { arguments.values[$0] != nil }) {
            throw UsageError("--\(given) goes with a postgresql:// URI")
        }
        // Without sources there is nothing to migrate again: the flag was ignored without a word.
        if arguments.has("rerun"), arguments.values["against"] == nil { throw UsageError("--rerun goes with --against SOURCE") }
        let log = RunLog(verb: name, arguments: arguments)
        log.start(arguments)
        var report: VerificationReport
        if let sources = arguments.values["against"] {
            var migrate = ParsedArguments()
            migrate.positionals = sources
            migrate.values = arguments.values.filter { $0.key != "against" }
            migrate.values["out"] = [path]
            migrate.flags = arguments.flags.subtracting(["rerun"])
            let request = try MigrateCommand.makeRequest(migrate, outputRequired: true)
            do {
                report = try SourceVerification.verify(store: path, against: request, rerun: arguments.has("rerun"), progress: log.progress)
            } catch {
                return log.failure(.badInput, error.description)
            }
        } else {
            do {
                let options = VerificationOptions(fullIntegrityCheck: arguments.has("full-integrity-check"),
                                                  fingerprints: !arguments.has("no-fingerprints"))
                report = try ChangingStoreVerification.verify(path: path, model: try modelSource(arguments.value("model"), store: path), options: options) {
                    log.progress(JobProgress(phase: $0))
                }
            } catch {
                return log.failure(.badInput, "\(error)")
            }
            if let note = ReceiptNote.note(store: path, report: report) { report.notes.append(note) }
        }
        log.clearProgress()
        let code = print(report, json: arguments.has("json"))
        log.summary(code, counts: counts(report))
        return code
    }

    /// The figures of a report a log's summary carries.
    static func counts(_ report: VerificationReport) -> [String: Int] {
        ["checks": report.sections.reduce(0) { $0 + $1.checks }, "failures": report.failures.count]
    }

    /// Prints a report (as text, or JSON); exit 0 when every check held, 5 otherwise.
    static func print(_ report: VerificationReport, json: Bool) -> ExitCode {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(report) else {
                Terminal.error("ferry verify: could not encode the report as JSON")
                return .badInput
            }
            Terminal.out(String(decoding: data, as: UTF8.self) + "\n")
        } else {
            Terminal.out(VerificationReportText.render(report))
        }
        return report.passed ? .success : .verificationFailed
    }

    /// A bundle of several versions is matched by hashes; a single version is used as given, so
    /// that a store of another version fails the hash check rather than finding no version. A
    /// version that knows none of the store's entities, by name or by the name it was renamed
    /// from (`renamingIdentifier`), is another app's model: refused as every verb refuses a model
    /// that does not match (exit 3), not reported as a store that fails.
    private static func modelSource(_ path: String?, store: String) throws -> VerificationModel {
        guard let path else { return .modelCache }
        let bundle = try XcodeModelLoader.loadBundle(at: path)
        guard bundle.versions.count == 1, let only = bundle.versions.first else { return .bundle(bundle) }
        let known = only.entities.flatMap { [$0.name] + ($0.renamingIdentifier.map { [$0] } ?? []) }
        if let hashes = try? CoreDataStoreReader(path: store).metadata.versionHashes, !hashes.isEmpty,
           Set(hashes.keys).isDisjoint(with: known) {
            throw StoreReaderError.modelMismatch(path: store, closestVersion: only.name, differing: hashes.keys.sorted())
        }
        return .model(only)
    }
}
