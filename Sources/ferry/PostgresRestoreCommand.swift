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
        let job = PostgresRestoreJob(target: target, schema: arguments.value("schema") ?? "ferry", storeUUID: store,
                                     model: .bundle(try arguments.required("model")), outputPath: try arguments.required("out"),
                                     replaceExisting: arguments.has("force"))
        do {
            let summary = try job.run()
            for (entity, count) in summary.counts.entities.sorted(by: { $0.key < $1.key }) { Terminal.out("\(entity): \(count)\n") }
            Terminal.out("\(summary.counts.pairs) pairs; rows per entity and pairs per relationship equal the database's\n")
            return .success
        } catch {
            Terminal.error("ferry restore: \(error.description)")
            if error.isVerificationFailure { return .verificationFailed }
            return error.isDestinationFailure(loadingDatabase: false) ? .destination : .badInput
        }
    }
}
