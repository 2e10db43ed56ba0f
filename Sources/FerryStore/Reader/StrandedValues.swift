/// Values in an entity table that no record of the model carries: in a column the model does not
/// have (added by hand, or a property of another model; in a join table too), in a column of
/// one entity on a row of another (a sibling's or an ancestor's, which leaves that column out), or
/// in a column that only qualifies a to-one (its order position `Z_FOK_<REL>`, its destination's
/// entity number `Z<n>_<REL>`) on a row whose to-one is NULL. Core Data writes none of them and
/// reads none; a verb that carries records (`export`, `backup`, `migrate`, a PostgreSQL load)
/// would leave them behind, so it refuses the store instead (`StoreRecordReader.strandedValues()`).
public struct StrandedValues: Sendable, Equatable, CustomStringConvertible {
    /// Where the values are, that no record holds them.
    public enum Place: Sendable, Equatable {
        /// A column the model does not have.
        case unmodelledColumn
        /// A column of `owner` (and its sub-entities) on rows of other entities.
        case otherEntitiesRows(owner: String)
        /// A column qualifying the to-one `relationship` of `owner`, on rows of `owner` whose
        /// key column `keyColumn` is NULL.
        case rowsWithoutToOne(owner: String, relationship: String, keyColumn: String)
    }

    public let table: String
    public let column: String
    /// Rows holding a value (not NULL) there.
    public let count: Int64
    public let place: Place

    public var description: String {
        let values = "\(table).\(column): \(count) value\(count == 1 ? "" : "s")"
        switch place {
        case .unmodelledColumn:
            return "\(values) in a column the model does not have"
        case .otherEntitiesRows(let owner):
            return "\(values) on rows of entities other than \(owner), whose column it is (Core Data leaves it NULL there)"
        case let .rowsWithoutToOne(owner, relationship, keyColumn):
            return "\(values) on rows of \(owner) whose \(relationship) is NULL (\(keyColumn)), "
                + "qualifying a to-one they do not have (Core Data ignores them)"
        }
    }
}

extension StoreRecordReader {
    /// The stranded values of every entity table (`StrandedValues`), one scan per table that has
    /// columns to ask about: a table whose columns are all the model's, all used by every row (no
    /// sub-entities) and none an order key or a destination's entity number is not read.
    public func strandedValues() throws(StoreReaderError) -> [StrandedValues] {
        var found: [StrandedValues] = []
        for table in layout.tables {
            // Entity and join tables: Core Data's bookkeeping tables are its own (not probed).
            guard table.holdsRecordsOrPairs, let stored = store.schema.table(named: table.name) else { continue }
            var probes: [(column: String, place: StrandedValues.Place, count: String)] = []
            let modelled = Set(table.columns.map { $0.name.lowercased() })
            // In an entity table, and in a many-to-many's join table (whose pairs alone are read).
            for column in stored.columns where !modelled.contains(column.name.lowercased()) {
                probes.append((column.name, .unmodelledColumn, "count(\(SQLIdentifier.quoted(column.name)))"))
            }
            if case .entity(let root, _) = table.kind {
                let rowsOfTable = hierarchyNumbers(root)
                for column in table.columns {
                    guard let owner = column.role.rowEntity else { continue }
                    let ownRows = hierarchyNumbers(owner), own = Set(ownRows)
                    let otherRows = rowsOfTable.filter { !own.contains($0) }
                    let quoted = SQLIdentifier.quoted(column.name)
                    if !otherRows.isEmpty {
                        probes.append((column.name, .otherEntitiesRows(owner: owner), "count(\(quoted)) FILTER (WHERE Z_ENT IN (\(numberList(otherRows))))"))
                    }
                    // A to-one's order position or destination entity number, on the owner's rows
                    // (others' are asked about above) without the to-one: no reference carries it.
                    guard let relationship = column.role.qualifiedToOne,
                          let key = table.columns.first(where: { $0.role == .toOne(entity: owner, relationship: relationship) }) else { continue }
                    let ofOwner = otherRows.isEmpty ? "" : " AND Z_ENT IN (\(numberList(ownRows)))"
                    probes.append((column.name, .rowsWithoutToOne(owner: owner, relationship: relationship, keyColumn: key.name),
                                   "count(\(quoted)) FILTER (WHERE \(SQLIdentifier.quoted(key.name)) IS NULL\(ofOwner))"))
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
                    found.append(StrandedValues(table: table.name, column: probe.column, count: count, place: probe.place))
                }
            }
        }
        return found
    }
}
