import FerryFormats
import FerryPostgres
import Synchronization

/// `ferry export STORE... --to postgresql://…`: loads stores into one schema, `jobs` at a time,
/// each in a transaction of its own (`PostgresStoreLoad`). Each worker keeps one connection from
/// store to store (`PostgresSession`); the model bundle is loaded once for all. A store that
/// fails is rolled back and reported (its worker connects afresh for the next); the others go on.
public struct PostgresExportJob: Sendable {
    public var storePaths: [String]
    public var target: ConnectionTarget
    public var schema: String
    /// The model bundle to read the stores with; nil reads each with the model it carries.
    public var modelPath: String?
    /// Stores loaded at once (connections open at once).
    public var jobs: Int
    /// Load a store already in the schema again, replacing its rows (otherwise it is refused).
    public var replace: Bool
    /// Count rows and pairs on both sides before committing each store.
    public var verify: Bool
    /// What the catalog records as a store's source, by path (the path itself when absent).
    public var sourceNames: [String: String] = [:]

    public init(storePaths: [String], target: ConnectionTarget, schema: String = "ferry", modelPath: String? = nil, jobs: Int = 1,
                replace: Bool = false, verify: Bool = true) {
        self.storePaths = storePaths
        self.target = target
        self.schema = schema
        self.modelPath = modelPath
        self.jobs = jobs
        self.replace = replace
        self.verify = verify
    }

    /// Loads every store; one result per store, in the order given.
    public func run() -> PostgresExportSummary {
        let clock = ContinuousClock()
        let started = clock.now
        let next = Mutex(0)
        let results = Mutex([PostgresStoreResult?](repeating: nil, count: storePaths.count))
        let bundle = modelPath.map(ExportModelSource.Bundle.init(path:))
        let workers = (0..<max(1, min(jobs, storePaths.count))).map { _ in
            BackgroundWork<Void, Never> { [self] in
                let session = PostgresSession(target: target)
                while true {
                    let index = next.withLock { index in
                        defer { index += 1 }
                        return index
                    }
                    guard index < storePaths.count else { return .success(()) }
                    let result = load(storePaths[index], bundle: bundle, session: session)
                    results.withLock { $0[index] = result }
                }
            }
        }
        for worker in workers { worker.wait() }
        return PostgresExportSummary(target: target.description, schema: schema, stores: results.withLock { $0.compactMap { $0 } },
                                     seconds: Self.seconds(clock.now - started))
    }

    private func load(_ path: String, bundle: ExportModelSource.Bundle?, session: PostgresSession) -> PostgresStoreResult {
        let clock = ContinuousClock()
        let started = clock.now
        let load = PostgresStoreLoad(storePath: path, source: sourceNames[path] ?? path, bundle: bundle, session: session, schema: schema,
                                     replace: replace, verify: verify)
        do {
            let report = try load.run()
            return PostgresStoreResult(storePath: path, source: load.source, seconds: Self.seconds(clock.now - started), report: report,
                                       failure: nil)
        } catch {
            session.discard()
            var refused = false
            if case .alreadyLoaded = error { refused = true }
            let failure = PostgresStoreResult.Failure(message: error.description, isVerification: error.isVerificationFailure,
                                                      isDestination: error.isDestinationFailure(loadingDatabase: true), isRefusal: refused)
            return PostgresStoreResult(storePath: path, source: load.source, seconds: Self.seconds(clock.now - started), report: nil,
                                       failure: failure)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// What a fleet load did, store by store.
public struct PostgresExportSummary: Sendable {
    /// The database, shown without a password.
    public let target: String
    public let schema: String
    public let stores: [PostgresStoreResult]
    public let seconds: Double

    public var allLoaded: Bool { stores.allSatisfy { $0.failure == nil } }
}

/// One store of a fleet load: its report, or why it failed (nothing of it was kept).
public struct PostgresStoreResult: Sendable {
    public let storePath: String
    /// What the catalog records as its source: the path, unless the job named it otherwise.
    public let source: String
    public let seconds: Double
    public let report: PostgresLoadReport?
    public let failure: Failure?

    public struct Failure: Sendable, Equatable {
        public let message: String
        /// The counts disagreed (exit code 5).
        public let isVerification: Bool
        /// The database is to blame (exit code 4), not the store (3).
        public let isDestination: Bool
        /// The schema holds the store already (and `replace` was not asked for).
        public let isRefusal: Bool
    }

    /// `loaded`, `replaced` (loaded over an earlier load), `refused` (loaded before) or `failed`.
    public var outcome: String {
        if let failure { return failure.isRefusal ? "refused" : "failed" }
        return report?.replaced == true ? "replaced" : "loaded"
    }
}
