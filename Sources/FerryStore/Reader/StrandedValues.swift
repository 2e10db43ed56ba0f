/// Values in an entity table that no record of the model carries: in a column the model does not
/// have (added by hand, or a property of another model; in a join table too), or in a column of
/// one entity on a row of another (a sibling's or an ancestor's, which leaves that column out). Core Data writes
/// neither; a verb that carries records (`export`, `backup`, `migrate`) would leave them behind,
/// so it refuses the store instead (`StoreRecordReader.strandedValues()`).
public struct StrandedValues: Sendable, Equatable, CustomStringConvertible {
    public let table: String
    public let column: String
    /// Rows holding a value (not NULL) there.
    public let count: Int64
    /// The entity whose rows (and its sub-entities') use the column; nil when the model has no
    /// such column.
    public let owner: String?

    public var description: String {
        let values = "\(count) value\(count == 1 ? "" : "s")"
        guard let owner else { return "\(table).\(column): \(values) in a column the model does not have" }
        return "\(table).\(column): \(values) on rows of entities other than \(owner), whose column it is (Core Data leaves it NULL there)"
    }
}

extension StoreRecordReader {
    /// The stranded values of every entity table (`StrandedValues`), one scan per table that has
    /// columns to ask about: a table whose columns are all the model's and all used by every row
    /// (no sub-entities) is not read.
    public func strandedValues() throws(StoreReaderError) -> [StrandedValues] {
        var found: [StrandedValues] = []
        for table in layout.tables {
            // Entity and join tables: Core Data's bookkeeping tables are its own (not probed).
            guard table.holdsRecordsOrPairs, let stored = store.schema.table(named: table.name) else { continue }
            var probes: [(column: String, owner: String?, count: String)] = []
            let modelled = Set(table.columns.map { $0.name.lowercased() })
            // In an entity table, and in a many-to-many's join table (whose pairs alone are read).
            for column in stored.columns where !modelled.contains(column.name.lowercased()) {
                probes.append((column.name, nil, "count(\(SQLIdentifier.quoted(column.name)))"))
            }
            if case .entity(let root, _) = table.kind {
                let rowsOfTable = hierarchyNumbers(root)
                for column in table.columns {
                    guard let owner = column.role.rowEntity, owner != root else { continue }
                    let ownRows = Set(hierarchyNumbers(owner))
                    let otherRows = rowsOfTable.filter { !ownRows.contains($0) }
                    guard !otherRows.isEmpty else { continue }
                    probes.append((column.name, owner,
                                   "count(\(SQLIdentifier.quoted(column.name))) FILTER (WHERE Z_ENT IN (\(numberList(otherRows))))"))
                }
            }
            // A statement's result columns are limited (SQLITE_MAX_COLUMN, 2,000 by default).
            for start in stride(from: 0, to: probes.count, by: 500) {
                let chunk = probes[start..<min(start + 500, probes.count)]
                let sql = "SELECT \(chunk.map(\.count).joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table.name))"
                let counts = try StoreReaderError.sqlite { () throws(SQLiteError) -> [Int64] in
                    let statement = try store.database.prepare(sql)
                    defer { statement.finalize() }
                    guard try statement.step() else { return [] }
                    return (0..<Int32(chunk.count)).map { statement.int64(at: $0) }
                }
                for (probe, count) in zip(chunk, counts) where count > 0 {
                    found.append(StrandedValues(table: table.name, column: probe.column, count: count, owner: probe.owner))
                }
            }
        }
        return found
    }
}
