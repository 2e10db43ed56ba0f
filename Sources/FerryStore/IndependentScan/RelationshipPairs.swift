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
    /// Whether `sourceEntity` is the entity declaring the relationship, not one below it: a key
    /// of the source end that names no row is then this relationship's pair and no narrower
    /// one's (the destination end is always the relationship's whole destination).
    let sourceIsDeclaring: Bool
    /// The sides that keep their pairs in order (an ordered to-many, or both sides of an ordered
    /// many-to-many), as the table keeps them; empty when neither side is ordered.
    public let orders: [PairOrder]

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

    /// The columns of `table` holding the pairs, their keys and order keys (the row's own `Z_PK`,
    /// its rowid, left out): an index holding one is what a reader finds the pairs through.
    var pairColumns: [String] {
        [sourceColumn, destinationColumn].filter { $0 != "Z_PK" } + orders.map(\.position)
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
        sourceIsDeclaring = rowsOf == declaring
        switch layout.placement(of: relationship.name, of: declaring) {
        case .sourceRow(let key):
            (kind, table, sourceColumn, destinationColumn, rowNumbers) = (.foreignKey, key.table, "Z_PK", key.key, numbers(rowsOf))
            orders = key.orderKey.map { [PairOrder(end: .destination, owner: key.key, member: "Z_PK", position: $0)] } ?? []
        case .destinationRows(let key):
            (kind, table, sourceColumn, destinationColumn, rowNumbers) = (.foreignKey, key.table, key.key, "Z_PK", numbers(destination))
            orders = key.orderKey.map { [PairOrder(end: .source, owner: key.key, member: "Z_PK", position: $0)] } ?? []
        case .joinTable(let join):
            (kind, table, sourceColumn, destinationColumn, rowNumbers) = (.joinTable, join.table, join.source, join.destination, nil)
            orders = (join.order.map { [PairOrder(end: .source, owner: join.source, member: join.destination, position: $0)] } ?? [])
                + (join.inverseOrder.map { [PairOrder(end: .destination, owner: join.destination, member: join.source, position: $0)] } ?? [])
        case nil:
            return nil
        }
    }
}

/// One ordered side of a relationship's pairs: the object at `end` holds an ordered list of the
/// objects at the other end, each pair's place in it kept in `position` (a `Z_FOK_` column).
public struct PairOrder: Sendable, Equatable {
    public enum End: Sendable { case source, destination }

    /// The end whose object's list it is.
    public let end: End
    /// The columns (of the pairs' table) naming the list's owner and its member, and the position.
    let owner: String
    let member: String
    let position: String

    /// Each pair's rank in its owner's list, 1 for the first: by position, then the member's
    /// `Z_PK` (positions repeat only in a store `verify` fails). Ranks, not the positions
    /// themselves, so that stores numbering positions differently (1, 2, 3 or 2048, 3072, …)
    /// compare equal when the order is the same.
    var rank: String {
        "row_number() OVER (PARTITION BY \(ScanSQL.column("p", owner)) ORDER BY \(ScanSQL.column("p", position)), \(ScanSQL.column("p", member)))"
    }
}
