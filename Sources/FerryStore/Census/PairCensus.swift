extension CoreDataStoreReader {
    /// The pairs of every relationship the layout places in this store, counted with plain SQL by
    /// where they are kept (`RelationshipPlacement.storageName`): keys that are not NULL, rows of
    /// join tables. A relationship and its inverse share one count. What a job read of the
    /// relationships is compared with this, as the rows are with `StoreCensus`. Tables are
    /// scanned without their indexes (`NOT INDEXED`): the reader reads lists through the key's
    /// index, and a count from the same index would share its blind spot.
    public func pairCensus(layout: StoreLayout) throws(StoreReaderError) -> [String: Int64] {
        var storages: [String: String] = [:]
        for placement in layout.placements.values {
            switch placement {
            case .sourceRow(let key), .destinationRows(let key):
                storages[placement.storageName] = "SELECT count(*) FROM \(SQLIdentifier.quoted(key.table)) NOT INDEXED WHERE \(SQLIdentifier.quoted(key.key)) IS NOT NULL"
            case .joinTable(let join):
                storages[placement.storageName] = "SELECT count(*) FROM \(SQLIdentifier.quoted(join.table)) NOT INDEXED"
            }
        }
        var counts: [String: Int64] = [:]
        for (storage, sql) in storages {
            counts[storage] = try StoreReaderError.sqlite { () throws(SQLiteError) in try database.scalarInteger(sql) } ?? 0
        }
        return counts
    }
}
