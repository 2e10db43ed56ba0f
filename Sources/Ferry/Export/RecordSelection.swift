import FerryMigration
import FerryStore

/// The records `--where` selects, as a merge join: the predicate's primary keys in `Z_PK` order
/// against records read in the same order. Without a predicate every record is selected.
final class RecordSelection {
    private let keys: QueryKeyCursor?
    private var pending: Int64?
    private var started = false

    init(request: ExportRequest, entity: String, reader: StoreRecordReader) throws(ExportError) {
        guard let format = request.predicate else {
            keys = nil
            return
        }
        let predicate: FetchPredicate
        do { predicate = try FetchPredicate(format: format) } catch {
            throw .invalidRequest("--where \(TextCoercion.clipped(format)): \(error)")
        }
        do { keys = try reader.primaryKeys(matching: PredicateQuery(entity: entity, predicate: predicate)) } catch {
            throw .invalidRequest("--where \(TextCoercion.clipped(format)): \(error)")
        }
    }

    /// Whether the record `primaryKey` is selected; keys must be asked for in increasing order.
    func contains(_ primaryKey: Int64) throws(StoreReaderError) -> Bool {
        guard let keys else { return true }
        if !started {
            pending = try keys.next()
            started = true
        }
        while let key = pending, key < primaryKey { pending = try keys.next() }
        return pending == primaryKey
    }
}
