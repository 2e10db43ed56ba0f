import FerryStore

/// Identity keys of records written so far, for entities deduplicated on attributes the model
/// has no uniqueness constraint for: `ferry_identity.keys (entity, value → pk)` in a scratch
/// database beside the store's connection, so memory does not grow with the records.
final class IdentityIndex {
    private let find: SQLiteStatement
    private let insert: SQLiteStatement

    init(writer: CoreDataStoreWriter) throws(GraphWriteError) {
        try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.attachScratchDatabase(named: "ferry_identity")
            try writer.execute("CREATE TABLE ferry_identity.keys (entity TEXT, value TEXT, pk INTEGER, PRIMARY KEY (entity, value)) WITHOUT ROWID")
        }
        find = try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.prepareStatement("SELECT pk FROM ferry_identity.keys WHERE entity = ? AND value = ?")
        }
        insert = try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.prepareStatement("INSERT OR REPLACE INTO ferry_identity.keys (entity, value, pk) VALUES (?, ?, ?)")
        }
    }

    func primaryKey(for value: String, entity: String) throws(GraphWriteError) -> Int64? {
        let statement = find
        return try GraphWriteError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(entity, at: 1)
            try statement.bind(value, at: 2)
            return try statement.step() ? statement.int64(at: 0) : nil
        }
    }

    func remember(_ value: String, entity: String, primaryKey: Int64) throws(GraphWriteError) {
        let statement = insert
        try GraphWriteError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(entity, at: 1)
            try statement.bind(value, at: 2)
            try statement.bind(primaryKey, at: 3)
            try statement.run()
        }
    }
}
