import Ferry
import FerryFormats
import FerryPostgres
import FoundationEssentials

/// `ferry export STORE... --to postgresql://… [--schema S] [--jobs N] [--replace] [--no-verify] [--json]`:
/// the part of `export` that loads stores into PostgreSQL.
enum PostgresExportCommand {
    /// Options of `export` that write files, refused with `--to`.
    static let fileOptions = ["out", "format", "gzip", "level", "entity", "where", "sort"]

    static func run(_ arguments: ParsedArguments, target text: String) throws(UsageError) -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError("export --to takes one or more STOREs") }
        if let given = fileOptions.first(where: { arguments.values[$0] != nil || arguments.has($0) }) {
            throw UsageError("--\(given) writes files; it does not go with --to")
        }
        let target: ConnectionTarget
        do { target = try ConnectionTarget(text) } catch { throw UsageError(error.description) }
        let schema = try SchemaArgument.value(arguments)
        let jobs = try arguments.integer("jobs") ?? 1
        let job = PostgresExportJob(storePaths: arguments.positionals, target: target, schema: schema, modelPath: arguments.value("model"),
                                    jobs: jobs, replace: arguments.has("replace"), verify: !arguments.has("no-verify"))
        let log = RunLog(verb: "export", arguments: arguments)
        log.start(arguments)
        let summary = job.run()
        if arguments.has("json") {
            Terminal.out(PostgresExportText.jsonLine(summary) + "\n")
        } else {
            Terminal.out(PostgresExportText.table(summary, verified: job.verify))
        }
        var named = false
        for store in summary.stores {
            if let failure = store.failure {
                // A store's own error names it already ("x.sqlite: x.sqlite: table …" it read).
                let named = failure.message.hasPrefix(store.source + ": ") ? failure.message : "\(store.source): \(failure.message)"
                log.error("ferry export: \(named)")
            }
            if RelationshipFailureText.warn(store.report?.relationshipFailures ?? [], of: store.source,
                                            outcome: "loaded as its rows are", log: log) {
                named = true
            }
            if RelationshipFailureText.warnUnchecked(store.report?.relationshipsNotChecked, of: store.source,
                                                     remedy: "run ferry verify on it when it is idle, or export it again with --replace", log: log) {
                named = true
            }
        }
        let failed = summary.stores.filter { $0.failure != nil }.count
        var code = exitCode(summary)
        if code == .success, named { code = .rejects }
        log.summary(code, counts: ["loaded": summary.stores.count - failed, "failed": failed])
        return code
    }

    /// 0 when every store was loaded; otherwise 5 when a verification failed, else 4 when the
    /// database failed, else 3 (a store or model could not be read). A store loaded that fails
    /// `ferry verify`'s relationship checks makes it 1 when it would be 0.
    static func exitCode(_ summary: PostgresExportSummary) -> ExitCode {
        let failures = summary.stores.compactMap(\.failure)
        if failures.isEmpty { return .success }
        if failures.contains(where: \.isVerification) { return .verificationFailed }
        return failures.contains(where: \.isDestination) ? .destination : .badInput
    }
}

/// How a fleet load is printed: a table, or one JSON line for machines.
enum PostgresExportText {
    static func table(_ summary: PostgresExportSummary, verified: Bool) -> String {
        var rows = [["store", "uuid", "rows", "pairs", "seconds", "outcome"]]
        for store in summary.stores {
            let counts = store.report?.databaseCounts
            rows.append([store.source, store.report?.storeUUID ?? "-", counts.map { String($0.rows) } ?? "-",
                         counts.map { String($0.pairs) } ?? "-", seconds(store.seconds), store.outcome])
        }
        var text = "schema \(summary.schema) of \(summary.target)\n" + TextTable.render(rows)
        let loaded = summary.stores.filter { $0.failure == nil }
        for store in loaded where (store.report?.exactDates ?? 0) > 0 {
            text += "\(store.source): \(store.report?.exactDates ?? 0) dates finer than a microsecond, kept exactly in their _exact columns\n"
        }
        for store in loaded {
            for line in store.report?.leftBehind.warnings ?? [] { text += "\(store.source): \(line)\n" }
        }
        text += "\(loaded.count) of \(summary.stores.count) stores loaded in \(seconds(summary.seconds)) s"
        if !verified {
            text += " (not verified)\n"
        } else if loaded.isEmpty {
            text += "\n"
        } else {
            text += "; rows per entity and pairs per relationship counted in the database equal the store's"
                + (loaded.count == summary.stores.count ? "\n" : " for those loaded\n")
        }
        return text
    }

    private struct Line: Encodable {
        let target: String
        let schema: String
        let seconds: Double
        let loaded: Int
        let failed: Int
        let stores: [Store]
    }

    private struct Store: Encodable {
        let path: String
        let outcome: String
        let seconds: Double
        let storeUUID: String?
        let modelVersion: String?
        let rows: Int64?
        let pairs: Int64?
        let entities: [String: Int64]?
        let relationships: [String: Int64]?
        let exactDates: Int?
        /// `ferry verify`'s relationship checks: their failures, or why they did not run.
        let relationshipFailures: [String]?
        let relationshipsNotChecked: String?
        let error: String?
    }

    static func jsonLine(_ summary: PostgresExportSummary) -> String {
        let stores = summary.stores.map { store in
            let counts = store.report?.databaseCounts
            return Store(path: store.source, outcome: store.outcome, seconds: store.seconds, storeUUID: store.report?.storeUUID,
                         modelVersion: store.report?.modelVersion, rows: counts?.rows, pairs: counts?.pairs, entities: counts?.entities,
                         relationships: counts?.relationships, exactDates: store.report?.exactDates,
                         relationshipFailures: store.report.flatMap { $0.relationshipFailures.isEmpty ? nil : $0.relationshipFailures },
                         relationshipsNotChecked: store.report?.relationshipsNotChecked, error: store.failure?.message)
        }
        let failed = summary.stores.filter { $0.failure != nil }.count
        let line = Line(target: summary.target, schema: summary.schema, seconds: summary.seconds, loaded: summary.stores.count - failed,
                        failed: failed, stores: stores)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(line) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func seconds(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}
