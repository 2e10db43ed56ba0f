import FerryModel

/// The pairs of a relationship, each end named by key columns of its row, read with one join of
/// the pairs' table with both ends' tables: for a fingerprint of the pairs computed by a caller
/// that reads the key values itself.
public struct PairKeyScan {
    /// How an end of a pair is named.
    public enum Key: Sendable {
        /// By its row's `Z_PK`.
        case primaryKey
        /// By these columns of its row.
        case columns([String])

        fileprivate func expressions(alias: String) -> [String] {
            switch self {
            case .primaryKey: ["\(alias).Z_PK"]
            case .columns(let names): names.map { ScanSQL.column(alias, $0) }
            }
        }
    }

    private let sql: String

    /// A scan of `pairs` between rows of `sourceTable` and `destinationTable` of the ends'
    /// hierarchies; each row holds the source's key columns, then the destination's, then the
    /// pair's rank in each list of `ranked` (`PairOrder.rank`), in that order.
    public init(_ pairs: RelationshipPairs, sourceTable: String, destinationTable: String, sourceKey: Key, destinationKey: Key,
                ranked: [PairOrder] = [], model: ManagedObjectModel, layout: StoreLayout) {
        let sources = ScanSQL.numbers(layout.entityNumbers(below: pairs.sourceEntity, in: model))
        let destinations = ScanSQL.numbers(layout.entityNumbers(below: pairs.destinationEntity, in: model))
        let columns = sourceKey.expressions(alias: "s") + destinationKey.expressions(alias: "d") + ranked.map(\.rank)
        sql = """
            SELECT \(columns.joined(separator: ", ")) \
            FROM \(SQLIdentifier.quoted(pairs.table)) p JOIN \(SQLIdentifier.quoted(sourceTable)) s ON s.Z_PK = \(pairs.source) \
            JOIN \(SQLIdentifier.quoted(destinationTable)) d ON d.Z_PK = \(pairs.destination) \
            WHERE \(pairs.rowFilter)s.Z_ENT IN (\(sources)) \
            AND d.Z_ENT IN (\(destinations))
            """
    }

    /// Hands each pair's row to `pair`, positioned on it.
    public func forEachPair(on connection: ScanConnection, _ pair: (SQLiteStatement) -> Void) throws(SQLiteError) {
        let statement = try connection.database.prepare(sql)
        while try statement.step() { pair(statement) }
    }
}
