import FerryModel
import FerryStore

/// Where the pairs of one relationship are kept, as the pieces of SQL that read them: a table
/// (aliased `p`), the column holding source keys, the column holding destination keys, and which
/// of its rows count.
///
/// - to-one: the source's own table, (`Z_PK`, foreign key), rows of the source's hierarchy;
/// - to-many with a to-one inverse: the destination's table, (inverse foreign key, `Z_PK`), rows
///   of the destination's hierarchy;
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
        let model = context.model
        guard relationship.isToMany else {
            guard let table = context.table(of: declaring),
                  let key = table.column(for: .toOne(entity: declaring, relationship: relationship.name)) else { return nil }
            return RelationshipStorage(kind: .foreignKey, table: table.name, sourceColumn: "Z_PK", destinationColumn: key.name,
                                       rowNumbers: context.numbers(below: rowsOf), sourceEntity: rowsOf,
                                       destinationEntity: relationship.destinationEntity)
        }
        guard let inverse = model.inverse(of: relationship),
              let inverseOwner = model.declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity) else { return nil }
        guard inverse.isToMany else {
            guard let table = context.table(of: inverseOwner.name),
                  let key = table.column(for: .toOne(entity: inverseOwner.name, relationship: inverse.name)) else { return nil }
            return RelationshipStorage(kind: .foreignKey, table: table.name, sourceColumn: key.name, destinationColumn: "Z_PK",
                                       rowNumbers: context.numbers(below: relationship.destinationEntity), sourceEntity: rowsOf,
                                       destinationEntity: relationship.destinationEntity)
        }
        let joins = context.layout.joinTables
        if let table = joins.first(where: { $0.kind == .join(entity: declaring, relationship: relationship.name) }), table.columns.count >= 2 {
            return RelationshipStorage(kind: .joinTable, table: table.name, sourceColumn: table.columns[0].name,
                                       destinationColumn: table.columns[1].name, rowNumbers: nil, sourceEntity: rowsOf,
                                       destinationEntity: relationship.destinationEntity)
        }
        if let table = joins.first(where: { $0.kind == .join(entity: inverseOwner.name, relationship: inverse.name) }), table.columns.count >= 2 {
            return RelationshipStorage(kind: .joinTable, table: table.name, sourceColumn: table.columns[1].name,
                                       destinationColumn: table.columns[0].name, rowNumbers: nil, sourceEntity: rowsOf,
                                       destinationEntity: relationship.destinationEntity)
        }
        return nil
    }
}
