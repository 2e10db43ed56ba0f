import FerryMigration
import FerryStore

/// The `Z_PK`s of `--sort` (and `--where`) in sort order. Records are read in `Z_PK` order, so a
/// sorted export holds the selected rows in memory until they are written in this order: unlike
/// plain exports, its memory grows with the selection.
struct ExportSortOrder {
    let keys: [Int64]

    /// Nil when the request has no sort keys.
    init?(request: ExportRequest, entity: String, reader: StoreRecordReader) throws(ExportError) {
        guard let text = request.sort else { return nil }
        let sort: [FetchSort]
        do { sort = try FetchSort.parse(text) } catch { throw .invalidRequest("--sort \(TextCoercion.clipped(text)): \(error)") }
        var predicate: FetchPredicate?
        if let format = request.predicate {
            do { predicate = try FetchPredicate(format: format) } catch { throw .invalidRequest("--where \(TextCoercion.clipped(format)): \(error)") }
        }
        var keys: [Int64] = []
        do {
            let cursor = try reader.primaryKeys(matching: PredicateQuery(entity: entity, predicate: predicate, sort: sort))
            while let key = try cursor.next() { keys.append(key) }
        } catch {
            throw .invalidRequest("--sort \(TextCoercion.clipped(text)): \(error)")
        }
        self.keys = keys
    }
}
