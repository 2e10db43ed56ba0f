import FerryStore

extension CoreDataStoreReader {
    /// Ends a read transaction begun with `beginRead()` and checks that what was read is one
    /// state: a store read as fixed bytes must not have changed on disk since it was opened (a
    /// checkpoint by a process that opened it later would mix two states), whatever connections
    /// had it open when the read began.
    func endRead(begunAt state: StoreReadState) throws(ExportError) {
        do { try endRead() } catch { throw .store(error) }
        if changedSinceOpening { throw .changedWhileReading(path) }
    }

    /// `error` of reading the store, or `.changedWhileReading` when the store, read as fixed
    /// bytes, changed meanwhile: a page of another state reads as damage ("database disk image
    /// is malformed") where the store is sound.
    func readFailure(_ error: StoreReaderError) -> ExportError {
        changedSinceOpening ? .changedWhileReading(path) : .store(error)
    }
}
