/// What became of records carried by others (nested objects) when, as the links were resolved,
/// their carrier was removed or the copy of it that a duplicate policy did not keep was dropped
/// (`StoreGraphWriter.resolveLinks`); the pipeline moves them between the counts of their ledger.
public struct CarriedRecordsChange: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        /// Gone with a carrier removed for its links (merged into a row, or inserted): no longer
        /// counted, as they go with its reject.
        case removed(merged: Bool)
        /// Written, and gone with a copy not kept: counted as merged.
        case dropped
        /// Merged into a row whose inserting record went: they now hold the row, counted as written.
        case handedOver
    }

    /// The entity the records were written as.
    public let entity: String
    /// The ledger they are counted in.
    public let ledger: Int
    public let change: Change
    public let count: Int
}
