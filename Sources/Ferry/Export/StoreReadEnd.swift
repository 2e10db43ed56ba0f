import FerryStore

extension CoreDataStoreReader {
    /// Ends a read transaction begun with `beginRead()` and checks that what was read is one
    /// state: a store read without a live WAL connection must not have changed on disk meanwhile
    /// (a checkpoint by a process that opened it later would mix two states).
    func endRead(begunAt state: StoreReadState) throws(ExportError) {
        do { try endRead() } catch { throw .store(error) }
        if !state.liveConnection, fileStamp() != state.fileStamp { throw .changedWhileReading(path) }
    }
}
