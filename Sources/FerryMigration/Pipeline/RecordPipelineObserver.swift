import FerryModel

/// Watches the records a `RecordPipeline` writes: how a migration proves that the values its
/// records carry unchanged reached the store.
public protocol RecordPipelineObserver: AnyObject {
    /// Starts watching the records of `schema` (read from a source itself, in its version)
    /// that `route` takes to the last version; returns a token for them, or nil to leave them.
    func watch(route: MigrationChain.Route, schema: RecordSchema) -> Int?
    /// A watched record (its values as read) became row `row` of `entity`, or was merged into
    /// it (`merged`), under the entity's duplicate policy. `identity` is the `Z_PK` it was read
    /// with when it is to keep it (`Record.identity`: an object of the store whose identity the
    /// new store keeps), nil when it is a new object.
    func written(_ values: [AttributeValue], identity: Int64?, token: Int, entity: String, row: Int64?, merged: Bool,
                 policy: DuplicatePolicy)
    /// A row of `entity` was written for a record that no source record is (one carried or
    /// made by another record).
    func carriedRecordWritten(entity: String)
}
