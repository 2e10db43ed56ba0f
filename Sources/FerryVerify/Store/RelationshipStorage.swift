import FerryModel
import FerryStore

/// Where the pairs of one relationship are kept (`StoreLayout.placement(of:of:)`), as the pieces
/// of SQL that read them: a table (aliased `p`), the column holding source keys, the column
/// holding destination keys, and which of its rows count.
///
/// - to-one: the source's own table, (`Z_PK`, foreign key), rows of the source's hierarchy;
/// - to-many kept on its destinations' rows (a to-one inverse's key, or its own key when it has
///   no inverse): the destination's table, (key, `Z_PK`), rows of the destination's hierarchy;
/// - many-to-many: the join table, its two key columns in the relationship's direction.
struct RelationshipStorage {
    enum Kind { case foreignKey, joinTable }

    let kind: Kind
    let table: String
    let sourceColumn: String
    let destinationColumn: String
    /// `Z_ENT` numbers the rows of `table` must have (foreign keys), nil for join tables.
    let rowNumbers: [Int]?
    /// The entities whose hierarchies the two ends belong to.
    let sourceEntity: String
    let destinationEntity: String

    /// `ZUPLOAD.ZTASK` or `Z_1TASKS`, for reports.
    var label: String {
        kind == .joinTable ? table : table + "." + (sourceColumn == "Z_PK" ? destinationColumn : sourceColumn)
    }

    /// The same pairs read in either direction have the same identity, so they are checked once.
    var identity: String {
        let columns = [sourceColumn, destinationColumn].sorted()
        return "\(table)(\(columns.joined(separator: ",")))[\(rowNumbers.map(SQL.numbers) ?? "")]"
    }

    /// `p.Z_ENT IN (…) AND ` or nothing.
    var rowFilter: String {
        rowNumbers.map { "p.Z_ENT IN (\(SQL.numbers($0))) AND " } ?? ""
    }

    var source: String { SQL.column("p", sourceColumn) }
    var destination: String { SQL.column("p", destinationColumn) }

    /// The storage of `relationship` (declared by `declaring`) for rows of `rowsOf` (the declaring
    /// entity or one below it); nil when the layout has no place for it.
    static func resolve(_ relationship: Relationship, declaredBy declaring: String, rowsOf: String,
                        context: StoreContext) -> RelationshipStorage? {
        let destination = relationship.destinationEntity
        switch context.layout.placement(of: relationship.name, of: declaring) {
        case .sourceRow(let key):
            return RelationshipStorage(kind: .foreignKey, table: key.table, sourceColumn: "Z_PK", destinationColumn: key.key,
                                       rowNumbers: context.numbers(below: rowsOf), sourceEntity: rowsOf, destinationEntity: destination)
        case .destinationRows(let key):
            return RelationshipStorage(kind: .foreignKey, table: key.table, sourceColumn: key.key, destinationColumn: "Z_PK",
                                       rowNumbers: context.numbers(below: destination), sourceEntity: rowsOf,
                                       destinationEntity: destination)
        case .joinTable(let join):
            return RelationshipStorage(kind: .joinTable, table: join.table, sourceColumn: join.source,
                                       destinationColumn: join.destination, rowNumbers: nil, sourceEntity: rowsOf,
                                       destinationEntity: destination)
        case nil:
            return nil
        }
    }
}
