import FerryModel
import FerryStore

/// Ferry's store reading alone, in-process, along the path `ferry migrate` reads a store's rows
/// (`StoreRecordCursor` in FerryMigration): `CoreDataStoreReader(path:).records(model:).records(of:)`,
/// then per row `advance()` and `read(_:values:references:)` into a values array in the model's
/// attribute order (slots matched by name once, no dictionary per record), touching each record's
/// key and first value so that nothing can be optimized away. Not included: the pipeline's row
/// census (one `count(*)` per table) and turning the array into its `Record`.
///
/// There is no `ferry` verb that only reads a store, so this side runs inside the driver; its peak
/// memory cannot be told apart from the driver's and is not reported.
enum StoreReadProbe {
    /// Reads every `entity` record of the store and returns a checksum; throws when the store
    /// cannot be read or holds fewer than `expected` records.
    /// How the cursor reads the table: as it chooses (on worker threads only with cores to
    /// spare), with one statement, or on two worker threads whatever the cores.
    enum Reading: String {
        case chosen
        case oneStatement = "one statement"
        case workers = "two worker threads"
    }

    static func read(_ path: String, modelBundle: String, version: String, entity: String, expected: Int,
                     reading: Reading = .chosen) throws -> Int {
        guard let model = try XcodeModelLoader.loadBundle(at: modelBundle).version(named: version) else {
            throw RunFailure(description: "\(modelBundle): no model version '\(version)'")
        }
        let reader = try CoreDataStoreReader(path: path).records(model: model)
        let cursor = switch reading {
        case .chosen: try reader.records(of: entity)
        case .oneStatement: try reader.records(of: entity, minimumSplitSpan: nil)
        case .workers: try reader.records(of: entity, minimumSplitSpan: 0)
        }
        let attributes = model.allAttributes(of: entity).map(\.name)
        let toOne = model.allRelationships(of: entity).filter { !$0.isToMany }.map(\.name)
        var slots: StoredRowSlots?
        var references = [StoredReference?](repeating: nil, count: toOne.count)
        var records = 0, checksum = 0
        while let row = try cursor.advance() {
            if slots?.entity != row.entity { slots = cursor.slots(of: row.entity, attributes: attributes, toOne: toOne) }
            guard let slots else { throw RunFailure(description: "\(path): a row of \(row.entity), not \(entity)") }
            var values = [AttributeValue].nulls(count: attributes.count)
            try cursor.read(slots, values: &values, references: &references)
            records += 1
            checksum &+= Int(truncatingIfNeeded: row.primaryKey) &+ (values.first == .null ? 0 : 1)
        }
        guard records == expected else { throw RunFailure(description: "\(path): \(records) \(entity) records, expected \(expected)") }
        return checksum
    }
}
