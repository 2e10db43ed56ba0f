/// What loading one store into PostgreSQL did.
public struct PostgresLoadReport: Sendable, Equatable {
    public var storePath: String
    public var storeUUID: String
    /// The model version the store was read with.
    public var modelVersion: String
    /// Rows and pairs the store holds, counted in SQLite; nil with `--no-verify`.
    public var storeCounts: TransferCounts?
    /// Rows and pairs the database holds for the store after loading (counted with SQL), or,
    /// with `--no-verify`, the rows and pairs sent.
    public var databaseCounts: TransferCounts
    /// Dates finer than PostgreSQL's microseconds, kept exactly in their `_exact` columns.
    public var exactDates: Int
    /// Whether an earlier load of the store was replaced.
    public var replaced: Bool
    /// What the store held that the database does not get (Core Data's own records, tables
    /// outside its layout), counted by the store's census.
    public var leftBehind = LeftBehind()
    /// The failures of `ferry verify`'s relationship checks on the store (a key naming no row, an
    /// entity column naming another entity than its row's), one line each: its rows are loaded
    /// as they are, and the export names each (exit 1), as a file export does.
    public var relationshipFailures: [String] = []
    /// Why those checks have no verdict on the state loaded (the checker could not read the
    /// store, or the store was written while it loaded); nil when they ran on it. A check that
    /// did not run is never one that held: the export says so (exit 1).
    public var relationshipsNotChecked: String? = nil
}
