import FerryFormats
import FerryPostgres
import FoundationEssentials
import Synchronization

/// `ferry export STORE... --to postgresql://…`: loads stores into one schema, `jobs` at a time,
/// each in a transaction of its own (`PostgresStoreLoad`). Each worker keeps one connection from
/// store to store (`PostgresSession`); the model bundle is loaded once for all. A store that
/// fails is rolled back and reported (its worker connects afresh for the next); the others go on.
public struct PostgresExportJob: Sendable {
    /// The UUIDs of the stores a schema holds that were loaded from `source` (a store's path, or
    /// the text `sourceNames` gave it): a migration from files into the database, run again,
    /// takes its earlier load's UUID, so that it is refused as loaded or, with `--replace`,
    /// replaces it, rather than loading a second copy under a new UUID.
    public static func stores(loadedFrom source: String, target: ConnectionTarget, schema: String) throws(PostgresTransferError) -> [String] {
        let connection = try database { () throws(PostgresError) in try PostgresConnection(target) }
        return try PostgresCatalog(connection: connection, schema: schema).stores(loadedFrom: source)
    }

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
        let claimed = Mutex([UUID: String]())
        let workers = (0..<max(1, min(jobs, storePaths.count))).map { _ in
            BackgroundWork<Void, Never> { [self] in
                let session = PostgresSession(target: target)
                func claim() -> Int? {
                    let index = next.withLock { index in
                        defer { index += 1 }
                        return index
                    }
                    return index < storePaths.count ? index : nil
                }
                @Sendable func open(_ index: Int) -> Result<PostgresOpenedStore, PostgresTransferError> {
                    Result { () throws(PostgresTransferError) in try PostgresOpenedStore(path: storePaths[index], bundle: bundle) }
                }
                // Each store is opened while the one before it is loaded.
                guard var index = claim() else { return .success(()) }
                var opened = open(index)
                while true {
                    let following = claim().map { following in (following, BackgroundWork { open(following) }) }
                    let result = load(storePaths[index], opened: opened, session: session, claimed: claimed)
                    results.withLock { $0[index] = result }
                    guard let (nextIndex, opening) = following else { return .success(()) }
                    index = nextIndex
                    opened = Result { () throws(PostgresTransferError) in try opening.wait() }
                }
            }
        }
        for worker in workers { worker.wait() }
        return PostgresExportSummary(target: target.description, schema: schema, stores: results.withLock { $0.compactMap { $0 } },
                                     seconds: Self.seconds(clock.now - started))
    }

    /// Loads the store at `path` (`opened`, or why it could not be opened); its time is the opening's
    /// plus the load's. Its UUID is first claimed in `claimed` (UUID → path): a store whose UUID
    /// another store of the run claimed is refused, as loading it would replace that one's rows.
    private func load(_ path: String, opened: Result<PostgresOpenedStore, PostgresTransferError>,
                      session: PostgresSession, claimed: borrowing Mutex<[UUID: String]>) -> PostgresStoreResult {
        let clock = ContinuousClock()
        let started = clock.now
        let source = sourceNames[path] ?? path
        var openingSeconds = 0.0
        do throws(PostgresTransferError) {
            let store = try opened.get()
            openingSeconds = store.seconds
            let uuid = store.store.metadata.storeUUID
            let other = claimed.withLock { claimed -> String? in
                if let other = claimed[uuid.value] { return other }
                claimed[uuid.value] = path
                return nil
            }
            if let other { throw .sameUUIDInRun(store: uuid.text, otherPath: sourceNames[other] ?? other) }
            let load = PostgresStoreLoad(opened: store, source: source, session: session, schema: schema, replace: replace, verify: verify)
            let report = try load.run()
            return PostgresStoreResult(storePath: path, source: source, seconds: openingSeconds + Self.seconds(clock.now - started),
                                       report: report, failure: nil)
        } catch {
            session.discard()
            // A store that failed holds its UUID no more: a later store of the run with it may load.
            claimed.withLock { claimed in
                if let uuid = try? opened.get().store.metadata.storeUUID.value, claimed[uuid] == path { claimed[uuid] = nil }
            }
            var refused = false
            switch error {
            case .alreadyLoaded, .loadedMeanwhile, .sameUUIDInRun: refused = true
            default: break
            }
            let failure = PostgresStoreResult.Failure(message: error.description, isVerification: error.isVerificationFailure,
                                                      isDestination: error.isDestinationFailure(loadingDatabase: true), isRefusal: refused)
            return PostgresStoreResult(storePath: path, source: source, seconds: openingSeconds + Self.seconds(clock.now - started),
                                       report: nil, failure: failure)
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
