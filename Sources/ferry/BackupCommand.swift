import Ferry

/// `ferry backup STORE --to DIR [--keep N] [--json] [--format F]`.
enum BackupCommand: Command {
    static let name = "backup"
    static let summary = "take a verified, timestamped export of a store (for schedulers)"
    static let usage = """
        usage: ferry backup STORE --to DIR [--keep N] [--json] [--format F] [--level N | --no-gzip] [--model MODEL] [--no-restore-check]

        First checks STORE as ferry verify does (with SQLite's full integrity check) and refuses
        a store that fails: its backup would not restore (ferry verify lists what fails), and a
        store with an entity whose file would be manifest.json (an entity "manifest" in plain
        JSON: leave out --no-gzip, or pick another --format). Then exports STORE (gzip NDJSON
        unless --format says otherwise) into a temporary folder of DIR, in one read transaction
        (a consistent state even while another process writes the store; the manifest records
        the Z_PRIMARYKEY maxima and journal state read), re-reads every file against the manifest
        (SHA-256, size, record count), restores it into a scratch store as ferry restore would,
        which compares every record and pair with the store's fingerprints (--no-restore-check
        skips this: faster, but a fault of the files' writer is then found only when the backup
        is restored), renames the folder to its UTC timestamp (DIR/20240301T123005Z; another
        backup of that second takes the next suffix, -0002 up to -9999) and then
        removes the oldest backups beyond --keep N of the same store: its UUID and its path from
        the root, links resolved (a backup by an older ferry whose manifest names the store by a
        relative path is never removed, and a warning says so).
        An OS lock (flock) on DIR/.ferry-backup.lock keeps two runs from overlapping; it ends with
        the run that holds it, however that run ends. The .incomplete-<UUID> folder of a run that
        was killed is removed by the next backup into DIR (only such a folder, holding only files a
        backup writes) and never counts as a backup. Quiet unless something is wrong; --json prints
        a one-line summary (records, bytes and seconds in all and per entity), or for a failed run
        {"verb": …, "error": {"code": N, "message": …}}, on standard output.
        """
    static let options = [
        OptionSpec.path("to", "DIR", "folder holding the backups (created when missing)"),
        .integer("keep", "N", 1...Int.max, "keep the newest N backups, removing older ones after verification"),
        .choice("format", ExportFormat.self, "the files' format (default ndjson)"),
        .integer("level", "N", ExportOptions.gzipLevels, "gzip level (default 6)"),
        .flag("no-gzip", "write plain files"),
        .path("model", "MODEL", ".xcdatamodeld bundle to read the store with"),
        .flag("no-restore-check", "do not restore the new backup into a scratch store to compare it with the store"),
        .flag("json", "print a one-line JSON summary"),
    ] + RunLog.options

    static let exitCodes = [
        ExitCodeUse(.success, "backed up (and older backups beyond --keep removed)"),
        ExitCodeUse(.badInput, "the store or the model cannot be read"),
        ExitCodeUse(.destination, "DIR not written (a full disk: \"disk full writing …\"; a backup -9999 of the same second)"),
        ExitCodeUse(.verificationFailed, "STORE fails ferry verify's checks (nothing written), or the new backup failed verification or does not restore (it is removed)"),
        ExitCodeUse(.locked, "another backup holds DIR's lock"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 1, let store = arguments.positionals.first else {
            throw UsageError("backup takes one STORE")
        }
        var job = BackupJob(storePath: store, folder: try arguments.required("to"), keep: try arguments.integer("keep"))
        try ExportOptions.apply(arguments, to: &job.export)
        if arguments.has("no-gzip"), arguments.value("level") != nil { throw UsageError("--level sets gzip's level: it does not go with --no-gzip") }
        job.export.gzipLevel = arguments.has("no-gzip") ? nil : (try arguments.integer("level") ?? 6)
        job.restoreCheck = !arguments.has("no-restore-check")
        let log = RunLog(verb: name, arguments: arguments)
        log.start(arguments)
        do {
            let summary = try job.run(progress: log.progress)
            LeftBehindText.warn(summary.manifest.leftBehind, of: summary.manifest.source, log: log)
            LeftBehindText.warnPairsWithoutSource(summary.manifest.pairsWithoutSource ?? [:], of: summary.manifest.source, log: log)
            for problem in summary.notRemoved { log.warning("warning: an old backup beyond --keep was not removed: \(problem)") }
            log.summary(.success, counts: ManifestSummary.counts(summary.manifest))
            if arguments.has("json") {
                let phases = Dictionary(log.phaseSeconds.map { ($0.phase, $0.seconds) }, uniquingKeysWith: +)
                Terminal.out(ManifestSummary.jsonLine(summary.manifest, folder: summary.path, seconds: .init(total: log.elapsed, phases: phases),
                                                      removed: summary.removed, notRemoved: summary.notRemoved) + "\n")
            }
            return .success
        } catch {
            return log.failure(ExitCode(error), error.description)
        }
    }
}
