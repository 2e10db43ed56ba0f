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
}
