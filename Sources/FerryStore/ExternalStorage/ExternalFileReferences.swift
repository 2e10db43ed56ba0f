/// The names of the files of its external data folder (`ExternalDataFolder`) that a store's rows
/// name (`ExternalBinaryData`'s `0x02` references), read without the store's model: every column
/// of every table (virtual tables aside: their rows are in their shadow tables), each value of a
/// reference's length (blob, or text as the record reader reads it) whose first byte is the tag.
/// For a store whose model is not at hand: one a writer replaces, whose files it lets go of.
enum ExternalFileReferences {
    /// The file names the rows of the store at `path` hold, opened read-only (nothing beside it
    /// changes).
    /// - Throws: SQLite's errors opening or reading it.
    static func names(inStoreAt path: String) throws(SQLiteError) -> Set<String> {
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        defer { try? database.close() }
        var names: Set<String> = []
        for table in try DatabaseSchema.read(from: database).tables
        where !table.createStatement.uppercased().hasPrefix("CREATE VIRTUAL TABLE") && !table.columns.isEmpty {
            // `length` of a blob comes from the row's header: a long value is not read to be told apart.
            let isReference = table.columns.map { column in
                let value = SQLIdentifier.quoted(column.name)
                return "(typeof(\(value)) IN ('blob', 'text') AND length(\(value)) BETWEEN 2 AND \(ExternalBinaryData.longestReference) "
                    + "AND hex(substr(\(value), 1, 1)) = '02')"
            }
            // Each value only where it is a reference: a value kept in a row of one is not read.
            let sql = "SELECT \(zip(table.columns, isReference).map { "CASE WHEN \($1) THEN \(SQLIdentifier.quoted($0.name)) END" }.joined(separator: ", ")) "
                + "FROM \(SQLIdentifier.quoted(table.name)) WHERE \(isReference.joined(separator: " OR "))"
            let rows = try database.prepare(sql)
            defer { rows.finalize() }
            while try rows.step() {
                for index in table.columns.indices {
                    let value = rows.value(at: Int32(index))
                    guard value.storageClass == .blob || value.storageClass == .text,
                          case .external(let name)? = try? value.withBlob({ try ExternalBinaryData.decode($0) }) else { continue }
                    names.insert(name)
                }
            }
        }
        return names
    }
}
