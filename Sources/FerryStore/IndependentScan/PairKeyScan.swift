import FerryModel

/// The pairs of a relationship, each end named by key columns of its row, read with one join of
/// the pairs' table with both ends' tables: for a fingerprint of the pairs computed by a caller
/// that reads the key values itself.
///
/// A pair whose key names no row at all (a dangling foreign key or join row) is a pair the store
/// holds too: it is read with that end named by the key (`Z_PK`) or by NULLs (columns), where
/// the end is the relationship's own (`RelationshipPairs.sourceIsDeclaring`; the destination
/// always), so that a copy of the store that lost such a pair differs from it. A scan of the
/// pairs `betweenRecordsOnly` leaves such pairs out: the pairs a copy holds that could keep only
/// pairs between records (a restore of a backup, whose links name records).
///
/// The pairs' table is read without its indexes (`NOT INDEXED`): a fingerprint stands for what the
/// table holds, and readers find lists through an index that may disagree with it unseen by
/// SQLite's quick check (`PairIndexScan` compares the two).
public struct PairKeyScan {
    /// How an end of a pair is named.
    public enum Key: Sendable {
        /// By its row's `Z_PK` (the key the pair holds, also when no row has it).
        case primaryKey
        /// By these columns of its row.
        case columns([String])

        /// `keyColumn`: the pairs' column holding this end's key.
        fileprivate func expressions(alias: String, keyColumn: String) -> [String] {
            switch self {
            case .primaryKey: [keyColumn]
            case .columns(let names): names.map { ScanSQL.column(alias, $0) }
            }
        }
    }

    private let sql: String

    /// A scan of `pairs` between rows of `sourceTable` and `destinationTable` of the ends'
    /// hierarchies (with `ownSourceRowsOnly`, sources of the source entity itself, not of those
    /// below it); each row holds the source's key columns, then the destination's, then the
    /// pair's rank in each list of `ranked` (`PairOrder.rank`), in that order. With
    /// `betweenRecordsOnly`, only pairs whose ends are both such rows, ranked among themselves.
    public init(_ pairs: RelationshipPairs, sourceTable: String, destinationTable: String, sourceKey: Key, destinationKey: Key,
                ranked: [PairOrder] = [], ownSourceRowsOnly: Bool = false, betweenRecordsOnly: Bool = false,
                model: ManagedObjectModel, layout: StoreLayout) {
        let sources = ScanSQL.numbers(ownSourceRowsOnly ? [layout.entityNumbers[pairs.sourceEntity]].compactMap { $0 }
                                                        : layout.entityNumbers(below: pairs.sourceEntity, in: model))
        let destinations = ScanSQL.numbers(layout.entityNumbers(below: pairs.destinationEntity, in: model))
        let columns = sourceKey.expressions(alias: "s", keyColumn: pairs.source) + destinationKey.expressions(alias: "d", keyColumn: pairs.destination)
            + ranked.map(\.rank)
        // An end counts when its row is of its hierarchy, or when no row has its key and the end is
        // the relationship's own. Ranks (window functions) are numbered over the rows WHERE keeps.
        let sourceMissing = pairs.sourceIsDeclaring && !betweenRecordsOnly ? " OR s.Z_PK IS NULL" : ""
        let destinationMissing = betweenRecordsOnly ? "" : " OR d.Z_PK IS NULL"
        sql = """
            SELECT \(columns.joined(separator: ", ")) \
            FROM \(SQLIdentifier.quoted(pairs.table)) p NOT INDEXED LEFT JOIN \(SQLIdentifier.quoted(sourceTable)) s ON s.Z_PK = \(pairs.source) \
            LEFT JOIN \(SQLIdentifier.quoted(destinationTable)) d ON d.Z_PK = \(pairs.destination) \
            WHERE \(pairs.rowFilter)\(pairs.source) IS NOT NULL AND \(pairs.destination) IS NOT NULL \
            AND (s.Z_ENT IN (\(sources))\(sourceMissing)) \
            AND (d.Z_ENT IN (\(destinations))\(destinationMissing))
            """
    }

    /// Hands each pair's row to `pair`, positioned on it.
    public func forEachPair(on connection: ScanConnection, _ pair: (SQLiteStatement) -> Void) throws(SQLiteError) {
        let statement = try connection.database.prepare(sql)
        while try statement.step() { pair(statement) }
    }
}
