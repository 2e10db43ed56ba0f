import Ferry
import FerryPostgres
import FoundationEssentials

/// `ferry restore BACKUP --model M --out STORE [--force]`, or
/// `ferry restore postgresql://… --store UUID --model M --out STORE [--schema S] [--force]`.
enum RestoreCommand: Command {
    static let name = "restore"
    static let summary = "rebuild a store from an export or backup folder, or from PostgreSQL"
    static let usage = """
        usage: ferry restore BACKUP --model MODEL --out STORE [--force]
               ferry restore postgresql://… --store UUID --model MODEL --out STORE [--schema S] [--force]

        Checks the manifest.json of the BACKUP folder against the SHA-256 of its own content (an
        earlier ferry's, which has none, with a warning) and its keys, and every file of the
        folder against it (SHA-256 and size; a missing or altered file is named), then writes a new store with the version of MODEL
        whose version hashes the manifest recorded: every record with its original Z_PK, every
        relationship (ordered ones in order), the original store UUID. The store is built beside
        STORE, verified there (store checks, every file's records written, and the fingerprints
        of its records and pairs equal to those the manifest keeps of the store backed up) and
        renamed into place only when every check holds, with its UUID, Z_MAX values and the
        application's metadata keys read back as the manifest records them; an existing STORE is
        refused unless --force. A whole backup without fingerprints (an older ferry's, or written
        with export --no-fingerprints) is restored with a warning.

        From PostgreSQL (what `ferry export --to` loaded): the store with that UUID in the schema
        (`ferry` by default), read in one transaction, with the version of MODEL whose version
        hashes the schema recorded for it, with the Z_MAX values and application metadata keys the
        schema recorded. Before the store is renamed into place, its rows per
        entity and pairs per relationship are counted and compared with the database's.
        """
    static let databaseFirst = true
    static let options = [
        OptionSpec.path("model", "MODEL", ".xcdatamodeld bundle holding the backup's model version"),
        .path("out", "STORE", "the store to create"),
        .flag("force", "replace STORE if it exists (atomically)"),
        OptionSpec(name: "store", value: "UUID", help: "from PostgreSQL: the store to rebuild"),
        OptionSpec(name: "schema", value: "S", help: "from PostgreSQL: the schema holding it (default ferry)"),
        .flag("json", "print the records restored per entity (and from PostgreSQL the pairs) as one JSON line (a failure's code and message too)"),
    ] + RunLog.options

    static let exitCodes = [
        ExitCodeUse(.success, "restored"),
        ExitCodeUse(.rejects, "restored, but something was left out: links whose records are not in the backup (a partial export's, or keys dangling in the backed-up store), or a file in the folder the manifest does not list; or the backed-up store failed ferry verify's relationship checks (named when it was exported)"),
        ExitCodeUse(.badInput, "BACKUP is missing or holds no manifest (or one that is not valid: a key no manifest has, or a Z_MAX of no entity of the model), or a file of it is not its own regular file (a symbolic link, a FIFO or device, a folder: never followed), or the model (or database) cannot be read, or has no such store"),
        ExitCodeUse(.destination, "STORE not written (it exists, cannot be written)"),
        ExitCodeUse(.verificationFailed, "the manifest is not what its digest says, or the backup does not match its manifest, or the new store differs from the store backed up (or does not hold what the database does)"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 1, let folder = arguments.positionals.first else {
            throw UsageError("restore takes one BACKUP folder or postgresql:// URI")
        }
        if ConnectionTarget.isConnectionURI(folder) { return try PostgresRestoreCommand.run(arguments, target: folder) }
        if let given = ["store", "schema"].first(where: { arguments.values[$0] != nil }) {
            throw UsageError("--\(given) goes with a postgresql:// source")
        }
        let job = RestoreJob(folder: folder, modelPath: try arguments.required("model"), outputPath: try arguments.required("out"),
                             replaceExisting: arguments.has("force"))
        let log = RunLog(verb: name, arguments: arguments)
        log.start(arguments)
        do {
            let summary = try job.run(progress: log.progress)
            var leftOut = warnUnresolved(summary.links, in: "the backup", log: log) || summary.rejected > 0
            RejectSamplesText.report(summary.sampleRejects, rejected: summary.rejected, links: summary.links, stoppedEarly: false,
                                     rejectLog: nil, hasRejectsOption: false, log: log)
            for (relationship, count) in summary.unmatchedPairs.sorted(by: { $0.key < $1.key }) {
                log.warning("warning: \(relationship): \(count) pairs name a destination that no record of the backup lists back "
                    + "(not restored: left out of a partial export, or dangling in the store)")
                leftOut = true
            }
            LeftBehindText.warnPairsWithoutSource(summary.pairsWithoutSource, of: "the backed-up store", log: log)
            if !summary.pairsWithoutSource.isEmpty { leftOut = true }
            for file in summary.unlistedFiles {
                log.warning("warning: \(file) is in the folder but not in its manifest: its records are not restored (nothing in it is read)")
                leftOut = true
            }
            LeftBehindText.warn(summary.leftBehind, of: "the backed-up store", log: log)
            if RelationshipFailureText.warn(summary.relationshipFailures, of: "the backed-up store",
                                            outcome: "named when it was exported; restored as its records say", log: log) {
                leftOut = true
            }
            RelationshipFailureText.warnUnchecked(summary.relationshipsNotChecked, of: "the backed-up store",
                                                  remedy: "the restored store was verified on its own", log: log)
            if let notCompared = summary.notCompared { log.warning("warning: \(notCompared)") }
            if let notChecked = summary.manifestNotChecked { log.warning("warning: \(notChecked)") }
            for warning in summary.externalFileWarnings {
                log.warning("warning: \(warning)")
                leftOut = true
            }
            let code: ExitCode = leftOut ? .rejects : .success
            log.summary(code, counts: ["records": summary.records.values.reduce(0, +)])
            if arguments.has("json") {
                Terminal.out(RestoreSummaryLine.json(records: summary.records, store: job.outputPath) + "\n")
            } else {
                printRecords(summary.records)
                // Where the store went, and how it was checked; with warnings, that it holds less
                // than the backup or what the backup named as damaged.
                let checked = summary.compared ? ", and compared with the store backed up record by record and pair by pair" : " by its counts"
                Terminal.out("→ \(job.outputPath): verified" + checked + (leftOut ? ", except for what the warnings above name\n" : "\n"))
            }
            return code
        } catch {
            return log.failure(ExitCode(error), error.description)
        }
    }
}

extension RestoreCommand {
    /// A warning per relationship whose links found no record in `source` (and the records that
    /// could not be kept without them), or claimed a destination another record claimed too;
    /// whether there was one (a link or record not kept).
    @discardableResult
    static func warnUnresolved(_ links: [LinkReport], in source: String, log: RunLog) -> Bool {
        for link in links where link.unresolved > 0 {
            log.warning("warning: \(link.relationship): \(link.unresolved) links to records not in \(source), or rejected")
        }
        for link in links where link.rejectedRecords > 0 {
            let records = link.rejectedRecords == 1 ? "1 record" : "\(link.rejectedRecords) records"
            log.warning("warning: \(link.relationship): \(records) not restored: their links found nothing "
                + "and \(link.rejectedBecause ?? "the relationship is required")")
        }
        for link in links where link.conflicts > 0 {
            let destinations = link.conflicts == 1 ? "1 destination" : "\(link.conflicts) destinations"
            log.warning("warning: \(link.relationship): \(destinations) claimed by several records of \(source) (one claim kept)")
        }
        return LinkReport.notKept(in: links) > 0 || links.contains { $0.rejectedRecords > 0 }
    }

    /// The records restored, one line per entity.
    static func printRecords(_ records: [String: Int]) {
        for (entity, count) in records.sorted(by: { $0.key < $1.key }) { Terminal.out("\(entity): \(count)\n") }
    }
}

/// The one JSON line `restore --json` prints: the store written, its records per entity and,
/// from PostgreSQL, its relationship pairs.
enum RestoreSummaryLine {
    private struct Line: Encodable {
        let store: String
        let records: Int
        let entities: [String: Int]
        let pairs: Int64?
    }

    static func json(records: [String: Int], pairs: Int64? = nil, store: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = Line(store: store, records: records.values.reduce(0, +), entities: records, pairs: pairs)
        guard let data = try? encoder.encode(line) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
