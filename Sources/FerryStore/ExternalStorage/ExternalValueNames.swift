/// Where a store keeps the values it moved out of their rows (`ExternalBinaryData`): for one
/// concrete entity, by attribute, the `Z_PK` of each row whose value is in a file of the external
/// data folder, and that file's name. What a backup records so that a restore keeps those values
/// outside again, under the same names.
public typealias ExternalValueNames = [String: [Int64: String]]

extension StoreRecordReader {
    /// The values of `entityName`'s own rows (not its sub-entities') that the store keeps in files
    /// of its external data folder, read in the reader's transaction; empty when there are none.
    /// A reference that names no plain file is left out: reading the record reports it.
    public func externalValueNames(of entityName: String) throws(StoreReaderError) -> ExternalValueNames {
        guard let table = layout.table(forEntity: entityName), let number = layout.entityNumbers[entityName] else {
            throw .unknownEntity(path: store.path, entity: entityName)
        }
        var names: ExternalValueNames = [:]
        for owner in model.ancestry(of: entityName) {
            for attribute in owner.attributes where attribute.allowsExternalBinaryDataStorage {
                guard let column = table.column(for: .attribute(entity: owner.name, name: attribute.name)) else { continue }
                // A reference is the tag, a file name and a NUL: `length` comes from the row's
                // header, so the values kept in their rows (megabytes, perhaps) are not read.
                let value = SQLIdentifier.quoted(column.name)
                let sql = "SELECT Z_PK, \(value) FROM \(SQLIdentifier.quoted(table.name)) "
                    + "WHERE Z_ENT = ? AND length(\(value)) BETWEEN 2 AND \(ExternalBinaryData.longestReference) AND substr(\(value), 1, 1) = x'02'"
                let found = try StoreReaderError.sqlite { () throws(SQLiteError) -> [Int64: String] in
                    let rows = try store.database.prepare(sql)
                    defer { rows.finalize() }
                    try rows.bind(Int64(number), at: 1)
                    var found: [Int64: String] = [:]
                    while try rows.step() {
                        guard case .external(let name)? = try? ExternalBinaryData.decode(rows.bytes(at: 1) ?? []) else { continue }
                        found[rows.int64(at: 0)] = name
                    }
                    return found
                }
                if !found.isEmpty { names[attribute.name] = found }
            }
        }
        return names
    }
}
