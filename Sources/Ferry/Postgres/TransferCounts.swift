import FerryMigration
import FerryModel
import FerryPostgres
import FerryStore

/// Rows per entity and pairs per relationship of one store, counted with SQL: in the SQLite
/// store (`StoreCensus` for rows, a `count(*)` per relationship for pairs) or in PostgreSQL
/// (`count` per entity and per key over the store's rows). Loading and restoring compare the two.
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

    /// These counts with the pairs a restore could not keep added back: the links that found no
    /// destination (`LinkReport.unresolved`: a key naming a row of another entity than the
    /// relationship's, which the database holds as it was loaded and a store cannot), each under
    /// the relationship these counts count it as (the link's own, as its declaring entity names it,
    /// or its inverse's). Equal to the database's counts when nothing else was lost.
    func adding(pairsNotKept links: [LinkReport], model: ManagedObjectModel) -> TransferCounts {
        var counts = self
        for link in links where link.unresolved > 0 {
            let parts = link.relationship.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let owner = model.declaringEntity(ofProperty: parts[1], in: parts[0]),
                  let relationship = owner.relationships.first(where: { $0.name == parts[1] }) else { continue }
            var names = ["\(owner.name).\(relationship.name)"]
            if let inverse = model.inverse(of: relationship),
               let inverseOwner = model.declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity) {
                names.append("\(inverseOwner.name).\(inverse.name)")
            }
            guard let counted = names.first(where: { counts.relationships[$0] != nil }) else { continue }
            counts.relationships[counted, default: 0] += Int64(link.unresolved)
        }
        return counts
    }

    /// A store's counts in PostgreSQL, within the connection's current transaction.
    ///
    /// One pass over each entity table's rows of the store: `count(*) FILTER (WHERE entity = …)`
    /// per entity of the table and `count(…)` per to-one key, with no sort (a `GROUP BY entity`
    /// sorted every row, spilling to disk, as the planner expects few rows in a table loaded in
    /// the same transaction). Only when rows carry an entity the table does not hold does a
    /// `GROUP BY` name them.
    static func database(store: String, layout: PostgresLayout, schema: String,
                         connection: PostgresConnection) throws(PostgresError) -> TransferCounts {
        var counts = TransferCounts()
        let storeColumn = PostgresIdentifier.quoted(PostgresLayout.storeColumn)
        let entity = PostgresIdentifier.quoted(PostgresLayout.entityColumn)
        for table in layout.entityTables {
            let name = PostgresIdentifier.qualified(schema, table.name)
            let keys = table.columns.compactMap { column -> (String, String)? in
                guard case .toOne(let owner, let relationship) = column.role else { return nil }
                return (owner + "." + relationship, column.name)
            }
            let selected = ["count(*)"] + table.entities.indices.map { "count(*) FILTER (WHERE \(entity) = $\($0 + 2))" }
                + keys.map { "count(\(PostgresIdentifier.quoted($0.1)))" }
            let row = try connection.execute("SELECT \(selected.joined(separator: ", ")) FROM \(name) WHERE \(storeColumn) = $1",
                                             [store] + table.entities).first ?? []
            let numbers = row.map { $0.flatMap { Int64($0) } ?? 0 }
            guard numbers.count == selected.count else { throw .protocolFailure(reason: "a count of \(table.name) came back incomplete") }
            let perEntity = numbers[1...table.entities.count]
            for (entityName, rows) in zip(table.entities, perEntity) where rows > 0 { counts.entities[entityName] = rows }
            if perEntity.reduce(0, +) != numbers[0] {
                // Rows of entities this table does not hold: counted by name.
                for row in try connection.execute("SELECT \(entity), count(*) FROM \(name) WHERE \(storeColumn) = $1 GROUP BY \(entity)", [store]) {
                    if let entity = row[0], let count = row[1].flatMap({ Int64($0) }) { counts.entities[entity] = count }
                }
            }
            for ((relationship, _), count) in zip(keys, numbers.suffix(keys.count)) { counts.relationships[relationship] = count }
        }
        for join in layout.joinTables {
            let rows = try connection.execute("SELECT count(*) FROM \(PostgresIdentifier.qualified(schema, join.name)) WHERE \(storeColumn) = $1", [store])
            counts.relationships[join.entity + "." + join.relationship] = rows.first?.first.flatMap { $0.flatMap { Int64($0) } } ?? 0
        }
        return counts
    }

    /// A store's counts in the SQLite store: rows from its census (by entity number, named
    /// through the reader's layout), pairs counted per relationship the layout has a place for.
    static func store(census: StoreCensus, reader: StoreRecordReader, layout: PostgresLayout) throws(StoreReaderError) -> TransferCounts {
        var counts = TransferCounts()
        let names = reader.layout.entityNames
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
