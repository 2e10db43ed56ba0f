import Ferry
import FerryPostgres
import FerryVerify
import FoundationEssentials

/// `ferry verify postgresql://… --against STORE [--store UUID] [--schema S] [--model M] [--json]`:
/// the part of `verify` that checks a schema against the store loaded into it.
enum PostgresVerifyCommand {
    static func run(_ arguments: ParsedArguments, target text: String) throws(UsageError) -> ExitCode {
        let target: ConnectionTarget
        do { target = try ConnectionTarget(text) } catch { throw UsageError(error.description) }
        guard let against = arguments.values["against"], against.count == 1, let store = against.first else {
            throw UsageError("verify postgresql://… takes one --against STORE: the store loaded into the database")
        }
        var uuid: UUID?
        if let text = arguments.value("store") {
            guard let parsed = UUID(uuidString: text) else { throw UsageError("--store takes a store UUID, not '\(text)'") }
            uuid = parsed
        }
        let job = PostgresVerifyJob(target: target, schema: try SchemaArgument.value(arguments), againstPath: store, storeUUID: uuid,
                                    modelPath: arguments.value("model"))
        let log = RunLog(verb: "verify", arguments: arguments)
        log.start(arguments)
        let report: VerificationReport
        do { report = try job.run() } catch {
            return log.failure(error.isVerificationFailure ? .verificationFailed : .badInput, error.description)
        }
        var code = VerifyCommand.print(report, json: arguments.has("json"))
        let named: Bool
        switch job.storeRelationshipFailures() {
        case .success(let failures):
            named = RelationshipFailureText.warn(failures, of: store, outcome: "the database holds its rows as they were loaded", log: log)
        case .failure(let error):
            named = RelationshipFailureText.warnUnchecked("\(error)", of: store, state: "read",
                                                          remedy: "run ferry verify on it when it is idle", log: log)
        }
        if named, code == .success {
            code = .rejects
        }
        log.summary(code, counts: VerifyCommand.counts(report))
        return code
    }
}
