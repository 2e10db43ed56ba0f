import FerryModel

/// Questions about the pairs of a relationship (`RelationshipPairs`) asked with plain SQL: how
/// many there are, which point at no row or at a row of the wrong entity, join rows stored
/// twice, order keys missing or shared, to-ones whose entity column, destination or inverse
/// disagree, and sources with too few or too many destinations.
public struct PairScan {
    let connection: ScanConnection
    let model: ManagedObjectModel
    let layout: StoreLayout

    public init(_ connection: ScanConnection, model: ManagedObjectModel, layout: StoreLayout) {
        self.connection = connection
        self.model = model
        self.layout = layout
    }

    /// A `Z_FOK_` column of a join table, with the key column of the objects it orders within.
    public struct JoinOrderKey: Sendable {
        public let parent: String
        public let order: String
    }

    // MARK: Pairs

    /// The pairs: rows of a join table, rows whose key and `Z_PK` are both set.
    public func edges(of pairs: RelationshipPairs) throws(SQLiteError) -> Int64 {
        try connection.integers("SELECT count(*) FROM \(SQLIdentifier.quoted(pairs.table)) p WHERE \(pairs.rowFilter)\(present(pairs))").first ?? 0
    }

    /// Pairs that point at no row of `sourceTable` or `destinationTable`, at a row of another
    /// entity than the relationship's ends (or below them), or hold a key that is no integer.
    public func danglingPairs(of pairs: RelationshipPairs, sourceTable: String, destinationTable: String) throws(SQLiteError) -> OffendingRows {
        let key = pairs.kind == .foreignKey ? "p.Z_PK AS Z_PK, " : ""
        let sql = """
            SELECT \(key)\(pairs.source) AS source, \(pairs.destination) AS destination, \
            s.Z_ENT AS source_entity, d.Z_ENT AS destination_entity \
            FROM \(SQLIdentifier.quoted(pairs.table)) p LEFT JOIN \(SQLIdentifier.quoted(sourceTable)) s ON s.Z_PK = \(pairs.source) \
            LEFT JOIN \(SQLIdentifier.quoted(destinationTable)) d ON d.Z_PK = \(pairs.destination) \
            WHERE \(pairs.rowFilter)\(present(pairs)) AND (s.Z_PK IS NULL OR d.Z_PK IS NULL \
            OR typeof(\(pairs.source)) <> 'integer' OR typeof(\(pairs.destination)) <> 'integer' \
            OR s.Z_ENT NOT IN (\(numbers(below: pairs.sourceEntity))) \
            OR d.Z_ENT NOT IN (\(numbers(below: pairs.destinationEntity))))
            """
        return try connection.offending(sql, keyed: pairs.kind == .foreignKey)
    }

    /// Pairs of a join table stored more than once, with how many copies.
    public func duplicateJoinRows(of pairs: RelationshipPairs) throws(SQLiteError) -> OffendingRows {
        try connection.offending("""
            SELECT \(pairs.source) AS source, \(pairs.destination) AS destination, count(*) AS copies \
            FROM \(SQLIdentifier.quoted(pairs.table)) p GROUP BY 1, 2 HAVING count(*) > 1
            """, keyed: false)
    }

    /// The `Z_FOK_` columns of the pairs' join table.
    public func joinOrderKeys(of pairs: RelationshipPairs) -> [JoinOrderKey] {
        guard let table = layout.table(named: pairs.table), table.columns.count >= 2,
              case .join(let namingEntity, let namingRelationship) = table.kind else { return [] }
        return table.columns.compactMap { column in
            guard case .joinOrderKey(let entity, let relationship) = column.role else { return nil }
            let ownSide = entity == namingEntity && relationship == namingRelationship
            return JoinOrderKey(parent: table.columns[ownSide ? 0 : 1].name, order: column.name)
        }
    }

    /// Parents of the join table whose members lack an integer order key in `key.order`, or share one.
    public func orderKeyProblems(of pairs: RelationshipPairs, _ key: JoinOrderKey) throws(SQLiteError) -> OffendingRows {
        try orderKeyProblems(table: pairs.table, parent: key.parent, order: key.order, rowFilter: "")
    }

    /// Destinations of a to-one whose sources lack an integer order key in `orderColumn` (the
    /// `Z_FOK_` column of its ordered to-many inverse), or share one.
    public func orderKeyProblems(of pairs: RelationshipPairs, orderColumn: String) throws(SQLiteError) -> OffendingRows {
        try orderKeyProblems(table: pairs.table, parent: pairs.destinationColumn, order: orderColumn,
                             rowFilter: "\(sourceRows(pairs)) AND \(pairs.destination) IS NOT NULL AND ")
    }

    /// Every ordered member has an order key, an integer as Core Data writes it, distinct within
    /// its parent. (A group of one row has that row's storage class; a larger one fails anyway.)
    private func orderKeyProblems(table: String, parent: String, order: String, rowFilter: String) throws(SQLiteError) -> OffendingRows {
        let key = ScanSQL.column("p", order)
        return try connection.offending("""
            SELECT \(ScanSQL.column("p", parent)) AS parent, \(key) AS \(SQLIdentifier.quoted(order)), count(*) AS members \
            FROM \(SQLIdentifier.quoted(table)) p WHERE \(rowFilter)1 GROUP BY 1, 2 HAVING typeof(\(key)) != 'integer' OR count(*) > 1
            """, keyed: false)
    }

    // MARK: To-one (pairs on the sources' rows)

    /// Sources whose `Z<n>_` column `entityColumn` is set without a destination, or names
    /// another entity than the destination's row in `destinationTable`.
    public func entityNumberMismatches(of pairs: RelationshipPairs, entityColumn: String,
                                       destinationTable: String) throws(SQLiteError) -> OffendingRows {
        let number = ScanSQL.column("p", entityColumn)
        return try connection.offending("""
            SELECT p.Z_PK, \(pairs.destination) AS destination, \(number) AS \(SQLIdentifier.quoted(entityColumn)), \
            d.Z_ENT AS destination_entity FROM \(SQLIdentifier.quoted(pairs.table)) p LEFT JOIN \(SQLIdentifier.quoted(destinationTable)) d \
            ON d.Z_PK = \(pairs.destination) \
            WHERE \(sourceRows(pairs)) AND ((\(pairs.destination) IS NULL AND \(number) IS NOT NULL) \
            OR (d.Z_PK IS NOT NULL AND \(number) IS NOT d.Z_ENT))
            """)
    }

    /// Sources without a destination.
    public func missingDestinations(of pairs: RelationshipPairs) throws(SQLiteError) -> OffendingRows {
        try connection.offending(
            "SELECT p.Z_PK FROM \(SQLIdentifier.quoted(pairs.table)) p WHERE \(sourceRows(pairs)) AND \(pairs.destination) IS NULL")
    }

    /// Sources whose destination (in `destinationTable`) has its one-to-one inverse, in
    /// `inverseColumn`, empty.
    public func oneSidedPairs(of pairs: RelationshipPairs, destinationTable: String, inverseColumn: String) throws(SQLiteError) -> OffendingRows {
        let back = ScanSQL.column("d", inverseColumn)
        return try connection.offending("SELECT p.Z_PK \(inverseJoin(pairs, destinationTable)) AND \(back) IS NULL")
    }

    /// Sources whose destination's one-to-one inverse points at another row.
    public func inverseMismatches(of pairs: RelationshipPairs, destinationTable: String, inverseColumn: String) throws(SQLiteError) -> OffendingRows {
        let back = ScanSQL.column("d", inverseColumn)
        return try connection.offending("""
            SELECT p.Z_PK, \(pairs.destination) AS destination, \(back) AS inverse \(inverseJoin(pairs, destinationTable)) \
            AND \(back) IS NOT NULL AND \(back) <> p.Z_PK
            """)
    }

    private func inverseJoin(_ pairs: RelationshipPairs, _ destinationTable: String) -> String {
        "FROM \(SQLIdentifier.quoted(pairs.table)) p JOIN \(SQLIdentifier.quoted(destinationTable)) d ON d.Z_PK = \(pairs.destination) WHERE \(sourceRows(pairs))"
    }

    // MARK: To-many

    /// Sources (rows of `sourceTable` of the source's hierarchy) with fewer than `minimum`
    /// destinations, or more than `maximum` when it is above 0, with their count.
    public func destinationCounts(of pairs: RelationshipPairs, sourceTable: String, below minimum: Int,
                                  above maximum: Int) throws(SQLiteError) -> OffendingRows {
        var bounds = ["count(\(pairs.destination)) < \(minimum)"]
        if maximum > 0 { bounds.append("count(\(pairs.destination)) > \(maximum)") }
        return try connection.offending("""
            SELECT s.Z_PK, count(\(pairs.destination)) AS destinations FROM \(SQLIdentifier.quoted(sourceTable)) s \
            LEFT JOIN \(SQLIdentifier.quoted(pairs.table)) p ON \(pairs.rowFilter)\(pairs.source) = s.Z_PK \
            WHERE s.Z_ENT IN (\(numbers(below: pairs.sourceEntity))) GROUP BY s.Z_PK HAVING \(bounds.joined(separator: " OR "))
            """)
    }

    /// Sources (rows of `sourceTable` of the source's hierarchy) whose `column` does not hold
    /// their number of destinations: a derived `count:` attribute that disagrees with its
    /// derivation, with the stored and the counted value.
    public func countMismatches(of pairs: RelationshipPairs, sourceTable: String, column: String) throws(SQLiteError) -> OffendingRows {
        let stored = ScanSQL.column("s", column)
        return try connection.offending("""
            SELECT s.Z_PK, \(stored) AS stored, count(\(pairs.destination)) AS derived FROM \(SQLIdentifier.quoted(sourceTable)) s \
            LEFT JOIN \(SQLIdentifier.quoted(pairs.table)) p ON \(pairs.rowFilter)\(pairs.source) = s.Z_PK \
            WHERE s.Z_ENT IN (\(numbers(below: pairs.sourceEntity))) GROUP BY s.Z_PK HAVING \(stored) IS NOT count(\(pairs.destination))
            """)
    }

    // MARK: Pieces

    /// Both keys set, for pairs kept on rows; every row of a join table.
    private func present(_ pairs: RelationshipPairs) -> String {
        pairs.kind == .foreignKey ? "\(pairs.source) IS NOT NULL AND \(pairs.destination) IS NOT NULL" : "1"
    }

    /// `p.Z_ENT IN (…)`: rows of the source's hierarchy.
    private func sourceRows(_ pairs: RelationshipPairs) -> String {
        "p.Z_ENT IN (\(numbers(below: pairs.sourceEntity)))"
    }

    private func numbers(below entity: String) -> String {
        ScanSQL.numbers(layout.entityNumbers(below: entity, in: model))
    }
}
