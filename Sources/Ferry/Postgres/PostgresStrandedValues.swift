import FerryModel
import FerryPostgres

/// Values a store's rows hold in PostgreSQL that no record carries, which a restore would drop
/// without a word: a value in a column of an entity the row's entity is not (a sub-entity's
/// column on its parent's row), or an order position on a row whose to-one is NULL (a position in
/// no list). A load refuses such values in a store (`StoreRecordReader.strandedValues`); a restore
/// (and so `verify postgresql://`) refuses them in the database, naming the first such row.
enum PostgresStrandedValues {
    /// Throws `invalidValue` for the first row of `table` (in `Z_PK` order) holding such a value.
    static func refuse(in table: PostgresEntityTable, store: String, schema: String, model: ManagedObjectModel,
                       connection: PostgresConnection) throws(PostgresTransferError) {
        var parameters: [String?] = [store]
        func placeholder(_ value: String) -> String {
            parameters.append(value)
            return "$\(parameters.count)"
        }
        let entity = PostgresIdentifier.quoted(PostgresLayout.entityColumn)
        var checks: [(column: String, condition: String, reason: (String) -> String)] = []
        for column in table.columns {
            let quoted = PostgresIdentifier.quoted(column.name)
            let owner: String
            switch column.role {
            case .attribute(let declaring, _), .toOne(let declaring, _), .exactDate(let declaring, _): owner = declaring
            case let .position(declaring, relationship):
                owner = declaring
                let key = table.columns.first { $0.role == .toOne(entity: declaring, relationship: relationship) }
                if let key {
                    checks.append((column.name, "\(quoted) IS NOT NULL AND \(PostgresIdentifier.quoted(key.name)) IS NULL",
                                   { _ in "an order position with no \(relationship), in no ordered list: no store holds it" }))
                }
            case .store, .primaryKey, .entity: continue
            }
            guard owner != table.root else { continue }
            let holders = model.hierarchy(below: owner).map { placeholder($0.name) }
            checks.append((column.name, "\(quoted) IS NOT NULL AND \(entity) NOT IN (\(holders.joined(separator: ", ")))",
                           { rowEntity in "a value in a column of \(owner), which entity \(rowEntity) does not have: no store holds it" }))
        }
        guard !checks.isEmpty else { return }
        let which = checks.indices.map { "WHEN \(checks[$0].condition) THEN \($0)" }.joined(separator: " ")
        let any = checks.map { "(\($0.condition))" }.joined(separator: " OR ")
        let rows = try database { () throws(PostgresError) in
            let key = PostgresIdentifier.quoted(PostgresLayout.primaryKeyColumn)
            return try connection.execute("SELECT \(key)::text, \(entity), CASE \(which) END "
                + "FROM \(PostgresIdentifier.qualified(schema, table.name)) WHERE \(PostgresIdentifier.quoted(PostgresLayout.storeColumn)) = $1 "
                + "AND (\(any)) ORDER BY \(key) LIMIT 1", parameters)
        }
        guard let row = rows.first, let rowEntity = row[1], let index = row[2].flatMap({ Int($0) }) else { return }
        throw .invalidValue(entity: rowEntity, primaryKey: Int64(row[0] ?? "") ?? 0, attribute: checks[index].column,
                            reason: checks[index].reason(rowEntity) + ", so a restore would drop it")
    }
}
