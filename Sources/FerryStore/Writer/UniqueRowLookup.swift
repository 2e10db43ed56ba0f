/// Finds the row of an entity table that already holds given values in some columns: the
/// record a new one collides with on a uniqueness constraint. The lowest `Z_PK` among the rows
/// of the table's entities wins.
public final class UniqueRowLookup {
    private let statement: SQLiteStatement

    init(statement: SQLiteStatement) {
        self.statement = statement
    }

    /// The `Z_PK` and `Z_ENT` of the first row holding `values` (in the order of the lookup's
    /// columns, in their storage form), or nil when none does.
    public func row(of values: [StoreValue]) throws(StoreWriterError) -> (primaryKey: Int64, entityNumber: Int)? {
        let statement = statement
        return try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            for (position, value) in values.enumerated() { try statement.bind(value, at: Int32(position + 1)) }
            return try statement.step() ? (statement.int64(at: 0), Int(statement.int64(at: 1))) : nil
        }
    }
}

extension CoreDataStoreWriter {
    /// A lookup of rows of `entity`'s table (any entity of it) by the columns holding `roles`;
    /// nil when one of them has no column in the layout.
    public func uniqueRowLookup(for entity: String, matching roles: [ColumnRole]) throws(StoreWriterError) -> UniqueRowLookup? {
        guard let table = layout.table(forEntity: entity), case let .entity(_, members) = table.kind else {
            throw .unknownEntity(entity)
        }
        let columns = roles.compactMap { table.column(for: $0)?.name }
        guard columns.count == roles.count else { return nil }
        let numbers = members.compactMap { layout.entityNumbers[$0] }.map(String.init).joined(separator: ", ")
        let condition = columns.map { "\($0) = ?" }.joined(separator: " AND ")
        let sql = "SELECT Z_PK, Z_ENT FROM \(table.name) WHERE \(condition) AND Z_ENT IN (\(numbers)) ORDER BY Z_PK LIMIT 1"
        return UniqueRowLookup(statement: try prepareStatement(sql))
    }
}
