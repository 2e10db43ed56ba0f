import FerryMigration
import FerryModel
import FerryStore

/// Writes records of one entity through a store inserter, putting each attribute value into
/// its column.
struct RecordSink {
    private let inserter: EntityInserter
    /// For each inserter column, the schema attribute that fills it (nil: left NULL).
    private let attributeForColumn: [Int?]

    init(writer: CoreDataStoreWriter, schema: RecordSchema) throws(ImportError) {
        do { inserter = try writer.inserter(for: schema.entity.name) } catch { throw .store(error) }
        var attributeForColumn = [Int?](repeating: nil, count: inserter.columns.count)
        for (index, attribute) in schema.attributes.enumerated() {
            let role = ColumnRole.attribute(entity: schema.declaringEntities[index], name: attribute.name)
            if let column = inserter.columnIndex(for: role) { attributeForColumn[column] = index }
        }
        self.attributeForColumn = attributeForColumn
    }

    func write(_ record: Record) throws(ImportError) {
        let values = attributeForColumn.map { index in index.map { StoreValue(record.values[$0]) } ?? .null }
        do { try inserter.insert(values) } catch { throw .store(error) }
    }
}
