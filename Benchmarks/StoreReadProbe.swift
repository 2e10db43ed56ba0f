import FerryModel
import FerryStore

/// Ferry's store reading alone, in-process: every record of an entity through
/// `CoreDataStoreReader(path:).records(model:).records(of:)`, touching each record's key and
/// attribute count so that nothing can be optimized away.
///
/// There is no `ferry` verb that only reads a store, so this side runs inside the driver; its peak
/// memory cannot be told apart from the driver's and is not reported.
enum StoreReadProbe {
    /// Reads every `entity` record of the store and returns a checksum; throws when the store
    /// cannot be read or holds fewer than `expected` records.
    static func read(_ path: String, modelBundle: String, version: String, entity: String, expected: Int) throws -> Int {
        guard let model = try XcodeModelLoader.loadBundle(at: modelBundle).version(named: version) else {
            throw RunFailure(description: "\(modelBundle): no model version '\(version)'")
        }
        let cursor = try CoreDataStoreReader(path: path).records(model: model).records(of: entity)
        var records = 0, checksum = 0
        while let record = try cursor.next() {
            records += 1
            checksum &+= Int(truncatingIfNeeded: record.primaryKey) &+ record.attributes.count
        }
        guard records == expected else { throw RunFailure(description: "\(path): \(records) \(entity) records, expected \(expected)") }
        return checksum
    }
}
