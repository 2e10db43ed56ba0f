import Ferry

/// `ferry backup STORE --to DIR [--keep N] [--json] [--format F]`.
enum BackupCommand: Command {
    static let name = "backup"
    static let summary = "take a verified, timestamped export of a store (for schedulers)"
    static let usage = """
        usage: ferry backup STORE --to DIR [--keep N] [--json] [--format F] [--level N] [--model MODEL]

        Exports STORE (gzip NDJSON unless --format says otherwise) into a temporary folder of DIR,
        in one read transaction (a consistent state even while another process writes the store;
        the manifest records the Z_PRIMARYKEY maxima and journal state read), re-reads every file
        against the manifest (SHA-256, size, record count), renames the folder to its UTC
        timestamp (DIR/20240301T123005Z) and then removes the oldest backups beyond --keep N.
        An OS lock (flock) on DIR/.ferry-backup.lock keeps two runs from overlapping; it ends with
        the run that holds it, however that run ends. The .incomplete-<UUID> folder of a run that
        was killed is removed by the next backup into DIR and never counts as a backup. Quiet
        unless something is wrong; --json prints a one-line summary, or for a failed run
        {"error": {"code": N, "message": "…"}}, on standard output.

        exit codes: 0 backed up, 2 usage, 3 unreadable store or model, 4 DIR not written (a full
        disk: "disk full writing …"), 5 the new backup failed verification (it is removed),
        7 locked: another backup into DIR is running.
        """
    static let options = [
        OptionSpec(name: "to", value: "DIR", help: "folder holding the backups (created when missing)"),
        OptionSpec(name: "keep", value: "N", help: "keep the newest N backups, removing older ones after verification"),
        OptionSpec(name: "format", value: "F", help: "ndjson (default), json, csv, plist or bplist"),
        OptionSpec(name: "level", value: "N", help: "gzip level 0-9 (default 6)"),
        OptionSpec(name: "no-gzip", value: nil, help: "write plain files"),
        OptionSpec(name: "model", value: "MODEL", help: ".xcdatamodeld bundle to read the store with"),
        OptionSpec(name: "json", value: nil, help: "print a one-line JSON summary"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 1, let store = arguments.positionals.first else {
            throw UsageError("backup takes one STORE")
        }
        var job = BackupJob(storePath: store, folder: try arguments.required("to"), keep: try arguments.integer("keep", in: 1...Int.max))
        try ExportOptions.apply(arguments, to: &job.export)
        job.export.gzipLevel = arguments.has("no-gzip") ? nil : (try arguments.integer("level", in: ExportOptions.gzipLevels) ?? 6)
        let progress = ProgressLine(verb: "backup", enabled: !arguments.has("json"))
        do {
            let summary = try job.run(progress: progress.update)
            progress.clear()
            if arguments.has("json") {
                Terminal.out(ManifestSummary.jsonLine(summary.manifest, folder: summary.path,
                                                      removed: summary.removed) + "\n")
            }
            return .success
        } catch {
            progress.clear()
            Terminal.error("ferry backup: \(error.description)")
            let code = ExitCode(error)
            if arguments.has("json") { Terminal.out(FailureSummary.jsonLine(code: code, message: error.description) + "\n") }
            return code
        }
    }
}
