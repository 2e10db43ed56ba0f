import FerryModel
import FerryPostgres
import FerryStore

/// Rows per entity and pairs per relationship of one store, counted with SQL: in the SQLite
/// store (`StoreCensus` for rows, a `count(*)` per relationship for pairs) or in PostgreSQL
/// (`GROUP BY entity` and `count` over the store's rows). Loading and restoring compare the two.
public struct TransferCounts: Sendable, Equatable {
    /// Rows by concrete entity name.
    public var entities: [String: Int64] = [:]
    /// Pairs by relationship, `Entity.relationship` (the declaring entity; one side of each pair
    /// of inverses: a to-one's key, or a join table).
    public var relationships: [String: Int64] = [:]

    public var rows: Int64 { entities.values.reduce(0, +) }
    public var pairs: Int64 { relationships.values.reduce(0, +) }

    /// Where `other` counts differently, one line each (`Task: store 50, database 49`).
    func differences(from other: TransferCounts, mine: String, theirs: String) -> [String] {
        func lines(_ kind: String, _ left: [String: Int64], _ right: [String: Int64]) -> [String] {
            Set(left.keys).union(right.keys).sorted().compactMap { name in
                let (mineCount, theirCount) = (left[name, default: 0], right[name, default: 0])
                return mineCount == theirCount ? nil : "\(kind) \(name): \(mine) \(mineCount), \(theirs) \(theirCount)"
            }
        }
        return lines("entity", entities, other.entities) + lines("relationship", relationships, other.relationships)
    }

    /// A store's counts in PostgreSQL, within the connection's current transaction.
    static func database(store: String, layout: PostgresLayout, schema: String,
                         connection: PostgresConnection) throws(PostgresError) -> TransferCounts {
        var counts = TransferCounts()
        let store = [store]
        let storeColumn = PostgresIdentifier.quoted(PostgresLayout.storeColumn)
        for table in layout.entityTables {
            let name = PostgresIdentifier.qualified(schema, table.name)
            let entity = PostgresIdentifier.quoted(PostgresLayout.entityColumn)
            for row in try connection.execute("SELECT \(entity), count(*) FROM \(name) WHERE \(storeColumn) = $1 GROUP BY \(entity)", store) {
                if let entity = row[0], let count = row[1].flatMap({ Int64($0) }) { counts.entities[entity] = count }
            }
            let keys = table.columns.compactMap { column -> (String, String)? in
                guard case .toOne(let owner, let relationship) = column.role else { return nil }
                return (owner + "." + relationship, column.name)
            }
            guard !keys.isEmpty else { continue }
            let selected = keys.map { "count(\(PostgresIdentifier.quoted($0.1)))" }.joined(separator: ", ")
            let row = try connection.execute("SELECT \(selected) FROM \(name) WHERE \(storeColumn) = $1", store).first ?? []
            for ((relationship, _), count) in zip(keys, row) { counts.relationships[relationship] = count.flatMap { Int64($0) } ?? 0 }
        }
        for join in layout.joinTables {
            let rows = try connection.execute("SELECT count(*) FROM \(PostgresIdentifier.qualified(schema, join.name)) WHERE \(storeColumn) = $1", store)
            counts.relationships[join.entity + "." + join.relationship] = rows.first?.first.flatMap { $0.flatMap { Int64($0) } } ?? 0
        }
        return counts
    }

    /// A store's counts in the SQLite store: rows from its census (by entity number, named
    /// through the reader's layout), pairs counted per relationship the layout has a place for.
    static func store(census: StoreCensus, reader: StoreRecordReader, layout: PostgresLayout) throws(StoreReaderError) -> TransferCounts {
        var counts = TransferCounts()
        let names = Dictionary(reader.layout.entityNumbers.map { (Int64($0.value), $0.key) }, uniquingKeysWith: { first, _ in first })
        for entity in census.appEntities where entity.rows > 0 {
            counts.entities[names[entity.number] ?? entity.name, default: 0] += entity.rows
        }
        for table in layout.entityTables {
            for column in table.columns {
                guard case .toOne(let owner, let relationship) = column.role else { continue }
                counts.relationships[owner + "." + relationship] = try reader.edgeCount(of: relationship, of: owner)
            }
        }
        for join in layout.joinTables {
            counts.relationships[join.entity + "." + join.relationship] = try reader.edgeCount(of: join.relationship, of: join.entity)
        }
        return counts
    }
}
