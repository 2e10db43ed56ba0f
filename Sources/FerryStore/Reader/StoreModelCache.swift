extension CoreDataStoreReader {
    /// `Z_MODELCACHE.Z_CONTENT`: the deflated archive of the model the store was last written
    /// with (decode it with `ModelArchiveDecoder.decodeModelCache`); nil when the store has none.
    public func modelCache() throws(StoreReaderError) -> [UInt8]? {
        guard schema.table(named: "Z_MODELCACHE") != nil else { return nil }
        return try StoreReaderError.sqlite { () throws(SQLiteError) in
            let statement = try database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
            defer { statement.finalize() }
            guard try statement.step() else { return nil }
            return statement.bytes(at: 0)
        }
    }
}
