/// Identity keys of records written so far, for entities deduplicated on attributes the model
/// has no uniqueness constraint for: `ferry_identity.keys (entity, value → pk)` in a scratch
/// database beside the store's connection (`CoreDataStoreWriter.attachScratchDatabase`), so
/// memory does not grow with the records.
///
/// A key is a blob the caller encodes from the identity's values: equal values must give equal
/// blobs, different values different ones.
public final class IdentityKeyTable {
    private static let schema = "ferry_identity"
    private let find: SQLiteStatement
    private let insert: SQLiteStatement

    /// Attaches the scratch database to the writer's connection and makes the table.
    public init(writer: CoreDataStoreWriter) throws(StoreWriterError) {
        let work = Self.schema
        try writer.attachScratchDatabase(named: work)
        try writer.execute("CREATE TABLE \(work).keys (entity TEXT, value BLOB, pk INTEGER, PRIMARY KEY (entity, value)) WITHOUT ROWID")
        find = try writer.prepareStatement("SELECT pk FROM \(work).keys WHERE entity = ? AND value = ?")
        insert = try writer.prepareStatement("INSERT OR REPLACE INTO \(work).keys (entity, value, pk) VALUES (?, ?, ?)")
    }

    /// The `Z_PK` of the record of `entity` remembered under `key`, if any.
    public func primaryKey(for key: [UInt8], entity: String) throws(StoreWriterError) -> Int64? {
        let statement = find
        return try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(entity, at: 1)
            try statement.bindBlob(key, at: 2)
            return try statement.step() ? statement.int64(at: 0) : nil
        }
    }

    /// Remembers that the record of `entity` with `key` is the row `primaryKey` (replacing an
    /// earlier one).
    public func remember(_ key: [UInt8], entity: String, primaryKey: Int64) throws(StoreWriterError) {
        let statement = insert
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(entity, at: 1)
            try statement.bindBlob(key, at: 2)
            try statement.bind(primaryKey, at: 3)
            try statement.run()
        }
    }
}
