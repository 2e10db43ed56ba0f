import Ferry
import FerryPostgres

/// `ferry restore BACKUP --model M --out STORE [--force]`, or
/// `ferry restore postgresql://… --store UUID --model M --out STORE [--schema S] [--force]`.
enum RestoreCommand: Command {
    static let name = "restore"
    static let summary = "rebuild a store from an export or backup folder, or from PostgreSQL"
    static let usage = """
        usage: ferry restore BACKUP --model MODEL --out STORE [--force]
               ferry restore postgresql://… --store UUID --model MODEL --out STORE [--schema S] [--force]

        Checks every file of the BACKUP folder against its manifest.json (SHA-256 and size; a
        missing or altered file is named), then writes a new store with the version of MODEL
        whose version hashes the manifest recorded: every record with its original Z_PK, every
        relationship (ordered ones in order), the original store UUID. The store is built beside
        STORE, verified there (store checks, and every file's records written) and renamed into
        place only when every check holds; an existing STORE is refused unless --force.

        From PostgreSQL (what `ferry export --to` loaded): the store with that UUID in the schema
        (`ferry` by default), read in one transaction, with the version of MODEL whose version
        hashes the schema recorded for it. Before the store is renamed into place, its rows per
        entity and pairs per relationship are counted and compared with the database's.

        exit codes: 0 restored, 2 usage, 3 unreadable model (or database, or no such store in it),
        4 STORE not written (exists, cannot write), 5 the backup does not match its manifest (the
        new store does not hold what the database does).
        """
    static let options = [
        OptionSpec(name: "model", value: "MODEL", help: ".xcdatamodeld bundle holding the backup's model version"),
        OptionSpec(name: "out", value: "STORE", help: "the store to create"),
        OptionSpec(name: "force", value: nil, help: "replace STORE if it exists (atomically)"),
        OptionSpec(name: "store", value: "UUID", help: "from PostgreSQL: the store to rebuild"),
        OptionSpec(name: "schema", value: "S", help: "from PostgreSQL: the schema holding it (default ferry)"),
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
        WriteLimits.reportInsteadOfKilling()
        let progress = ProgressLine(verb: "restore", enabled: true)
        do {
            let summary = try job.run(progress: progress.update)
            progress.clear()
            for (entity, count) in summary.records.sorted(by: { $0.key < $1.key }) { Terminal.out("\(entity): \(count)\n") }
            for link in summary.links where link.unresolved > 0 {
                Terminal.error("warning: \(link.relationship): \(link.unresolved) links to records not in the backup")
            }
            return .success
        } catch {
            progress.clear()
            Terminal.error("ferry restore: \(error.description)")
            return ExitCode(error)
        }
    }
}
