import FerryModel

/// The pairs of one relationship as the scans read them: where the layout keeps them
/// (`RelationshipPlacement`, asked, not worked out again), as a table (aliased `p`), the column
/// holding source keys, the column holding destination keys, and which of its rows count.
///
/// - to-one: the source's own table, (`Z_PK`, foreign key), rows of the source's hierarchy;
/// - to-many kept on its destinations' rows (a to-one inverse's key, or its own key when it has
///   no inverse): the destination's table, (key, `Z_PK`), rows of the destination's hierarchy;
/// - many-to-many: the join table, its two key columns in the relationship's direction.
public struct RelationshipPairs: Sendable {
    public enum Kind: Sendable { case foreignKey, joinTable }

    public let kind: Kind
    /// The table holding the pairs.
    public let table: String
    let sourceColumn: String
    /// The column holding the destinations' `Z_PK`s.
    public let destinationColumn: String
    /// `Z_ENT` numbers the rows of `table` must have (foreign keys), nil for join tables.
    let rowNumbers: [Int]?
    /// The entities whose hierarchies the two ends belong to.
    public let sourceEntity: String
    public let destinationEntity: String

    /// `ZUPLOAD.ZTASK` or `Z_1TASKS`, for reports.
    public var label: String {
        kind == .joinTable ? table : table + "." + (sourceColumn == "Z_PK" ? destinationColumn : sourceColumn)
    }

    /// The same pairs read in either direction have the same identity, so they are checked once.
    public var identity: String {
        let columns = [sourceColumn, destinationColumn].sorted()
        return "\(table)(\(columns.joined(separator: ",")))[\(rowNumbers.map(ScanSQL.numbers) ?? "")]"
    }

    /// `p.Z_ENT IN (…) AND ` or nothing.
    var rowFilter: String {
        rowNumbers.map { "p.Z_ENT IN (\(ScanSQL.numbers($0))) AND " } ?? ""
    }

    var source: String { ScanSQL.column("p", sourceColumn) }
    var destination: String { ScanSQL.column("p", destinationColumn) }

    /// The pairs of `relationship` (declared by `declaring`) for rows of `rowsOf` (the declaring
    /// entity or one below it); nil when the layout has no place for it.
    public init?(_ relationship: Relationship, declaredBy declaring: String, rowsOf: String,
                 model: ManagedObjectModel, layout: StoreLayout) {
        let destination = relationship.destinationEntity
        let numbers = { (entity: String) in layout.entityNumbers(below: entity, in: model) }
        (sourceEntity, destinationEntity) = (rowsOf, destination)
        switch layout.placement(of: relationship.name, of: declaring) {
        case .sourceRow(let key):
            (kind, table, sourceColumn, destinationColumn, rowNumbers) = (.foreignKey, key.table, "Z_PK", key.key, numbers(rowsOf))
        case .destinationRows(let key):
            (kind, table, sourceColumn, destinationColumn, rowNumbers) = (.foreignKey, key.table, key.key, "Z_PK", numbers(destination))
        case .joinTable(let join):
            (kind, table, sourceColumn, destinationColumn, rowNumbers) = (.joinTable, join.table, join.source, join.destination, nil)
        case nil:
            return nil
        }
    }
}
