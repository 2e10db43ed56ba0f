import Ferry
import FerryPostgres
import FoundationEssentials

/// `ferry restore postgresql://… --store UUID --model M --out STORE [--schema S] [--force]`: the
/// part of `restore` that rebuilds a store from PostgreSQL.
enum PostgresRestoreCommand {
    static func run(_ arguments: ParsedArguments, target text: String) throws(UsageError) -> ExitCode {
        let target: ConnectionTarget
        do { target = try ConnectionTarget(text) } catch { throw UsageError(error.description) }
        let storeText = try arguments.required("store")
        guard let store = UUID(uuidString: storeText) else { throw UsageError("--store takes a store UUID, not '\(storeText)'") }
        let job = PostgresRestoreJob(target: target, schema: try SchemaArgument.value(arguments), storeUUID: store,
                                     model: .bundle(try arguments.required("model")), outputPath: try arguments.required("out"),
                                     replaceExisting: arguments.has("force"))
        let log = RunLog(verb: "restore", arguments: arguments)
        log.start(arguments)
        do {
            let summary = try job.run(progress: log.progress)
            if !summary.catalogRecordsState {
                log.warning("warning: store \(store.uuidString) was loaded by an older ferry, whose catalog row keeps neither Z_MAX nor the "
                    + "application's metadata keys: each Z_MAX is the largest Z_PK restored, and no application metadata was restored "
                    + "(export --to --replace the store to record them)")
            }
            let named = RelationshipFailureText.warn(summary.relationshipFailures, of: "store \(store.uuidString)",
                                                     outcome: "named when it was loaded; restored as the database holds it", log: log)
            RelationshipFailureText.warnUnchecked(summary.relationshipsNotChecked, of: "store \(store.uuidString)",
                                                  remedy: "the restored store was verified on its own", log: log)
            for warning in summary.externalFileWarnings { log.warning("warning: \(warning)") }
            let code: ExitCode = RestoreCommand.warnUnresolved(summary.links, in: "the database", log: log) || named
                || !summary.externalFileWarnings.isEmpty ? .rejects : .success
            log.summary(code, counts: ["records": summary.records.values.reduce(0, +), "pairs": Int(summary.counts.pairs)])
            if arguments.has("json") {
                Terminal.out(RestoreSummaryLine.json(records: summary.records, pairs: summary.counts.pairs, store: job.outputPath) + "\n")
            } else {
                RestoreCommand.printRecords(summary.records)
                let notKept = summary.links.reduce(0) { $0 + $1.unresolved }
                Terminal.out("\(summary.counts.pairs) pairs; rows per entity and pairs per relationship equal the database's"
                    + (notKept > 0 ? ", less the \(notKept) not kept named above\n" : "\n"))
            }
            return code
        } catch {
            let code: ExitCode = error.isVerificationFailure ? .verificationFailed
                : error.isDestinationFailure(loadingDatabase: false) ? .destination : .badInput
            return log.failure(code, error.description)
        }
    }
}
