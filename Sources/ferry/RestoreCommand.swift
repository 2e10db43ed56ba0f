import Ferry

/// `ferry restore BACKUP --model M --out STORE [--force]`.
enum RestoreCommand: Command {
    static let name = "restore"
    static let summary = "rebuild a store from an export or backup folder"
    static let usage = """
        usage: ferry restore BACKUP --model MODEL --out STORE [--force]

        Checks every file of the BACKUP folder against its manifest.json (SHA-256 and size; a
        missing or altered file is named), then writes a new store with the version of MODEL
        whose version hashes the manifest recorded: every record with its original Z_PK, every
        relationship (ordered ones in order), the original store UUID. The store is built beside
        STORE and renamed into place when complete; an existing STORE is refused unless --force.

        exit codes: 0 restored, 2 usage, 3 unreadable model, 4 STORE not written (exists, cannot
        write), 5 the backup does not match its manifest.
        """
    static let options = [
        OptionSpec(name: "model", value: "MODEL", help: ".xcdatamodeld bundle holding the backup's model version"),
        OptionSpec(name: "out", value: "STORE", help: "the store to create"),
        OptionSpec(name: "force", value: nil, help: "replace STORE if it exists (atomically)"),
    ]

    static func run(_ arguments: ParsedArguments) throws(UsageError) -> ExitCode {
        guard arguments.positionals.count == 1, let folder = arguments.positionals.first else {
            throw UsageError("restore takes one BACKUP folder")
        }
        let job = RestoreJob(folder: folder, modelPath: try arguments.required("model"), outputPath: try arguments.required("out"),
                             replaceExisting: arguments.has("force"))
        WriteLimits.reportInsteadOfKilling()
        do {
            let summary = try job.run()
            for (entity, count) in summary.records.sorted(by: { $0.key < $1.key }) { Terminal.out("\(entity): \(count)\n") }
            for link in summary.links where link.unresolved > 0 {
                Terminal.error("warning: \(link.relationship): \(link.unresolved) links to records not in the backup")
            }
            return .success
        } catch {
            Terminal.error("ferry restore: \(error.description)")
            return ExitCode(error)
        }
    }
}
