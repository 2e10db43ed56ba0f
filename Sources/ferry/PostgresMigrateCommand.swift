import Ferry
import FerryFormats
import FerryPostgres
import FoundationEssentials

/// `ferry migrate SOURCE... --model M --out postgresql://… [--schema S] [--replace]`: migrates
/// into a private store, then loads it as `export --to` does. The catalog records the migration's
/// sources as the store's source.
enum PostgresMigrateCommand {
    static func run(_ arguments: ParsedArguments, target text: String) throws(UsageError) -> ExitCode {
        let target: ConnectionTarget
        do { target = try ConnectionTarget(text) } catch { throw UsageError(error.description) }
        if arguments.has("force") { throw UsageError("--force replaces a store file; with --out postgresql:// use --replace") }
        let schema = try SchemaArgument.value(arguments)
        let log = RunLog(verb: "migrate", arguments: arguments)
        log.start(arguments)
        let scratch: ScratchFolder
        do { scratch = try ScratchFolder.make(purpose: "migrate") } catch { return log.failure(.destination, error.description) }
        defer { scratch.remove() }
        var local = arguments
        let store = scratch.database("migrated.sqlite")
        local.values["out"] = [store]
        let source = "ferry migrate " + arguments.positionals.joined(separator: " ")
        var request = try MigrateCommand.makeRequest(local, outputRequired: true)
        // The same sources migrated again are the same store: refused as loaded, or replaced.
        do {
            let earlier = try PostgresExportJob.stores(loadedFrom: source, target: target, schema: schema)
            guard earlier.count <= 1 else {
                return log.failure(.destination, "schema \(schema) holds \(earlier.count) loads of these sources (\(earlier.joined(separator: ", "))): "
                    + "remove all but one before loading them again")
            }
            if let loaded = earlier.first, !arguments.has("replace") {
                // Refused before the migration runs, not after.
                return log.failure(.destination, PostgresTransferError.alreadyLoaded(store: loaded, schema: schema).description)
            }
            request.storeUUID = earlier.first.flatMap(StoreUUID.init)
        } catch {
            return log.failure(error.isDestinationFailure(loadingDatabase: true) ? .destination : .badInput, error.description)
        }
        let migration = MigrateCommand.migrate(request, arguments: arguments, log: log, destination: target.description)
        guard migration.code == .success || migration.code == .rejects else {
            if let migrated = migration.summary { log.summary(migration.code, counts: MigrateCommand.counts(migrated)) }
            return migration.code
        }
        var job = PostgresExportJob(storePaths: [store], target: target, schema: schema,
                                    modelPath: arguments.value("model"), replace: arguments.has("replace"))
        job.sourceNames[store] = source
        let summary = job.run()
        if arguments.has("json") {
            Terminal.out(PostgresExportText.jsonLine(summary) + "\n")
        } else {
            Terminal.out(PostgresExportText.table(summary, verified: true))
        }
        for failure in summary.stores.compactMap(\.failure) { Terminal.error("ferry migrate: \(failure.message)") }
        let code = summary.allLoaded ? migration.code : PostgresExportCommand.exitCode(summary)
        if let migrated = migration.summary { log.summary(code, counts: MigrateCommand.counts(migrated)) }
        return code
    }
}
