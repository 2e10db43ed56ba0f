import Ferry
import FerryModel
import FerryStore
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// A model of the size of Apple's system stores (Photos: 57–71 entities, 14–21 many-to-many and
/// 8–12 ordered relationships, inheritance): its store is read, counted, verified and exported
/// whole, every row and pair accounted for.
@Suite("system-store-sized models")
struct BigModelTests {
    static let roots = 44, subentities = 20, manyToMany = 18, ordered = 10, rowsPerEntity = 12

    /// `Entity00`…: roots first, then sub-entities of the first roots; names in mixed case so that
    /// case-insensitive and byte order differ.
    static func name(_ index: Int) -> String { (index % 3 == 0 ? "asset" : "Asset") + String(format: "%02d", index) }

    static let model: ManagedObjectModel = {
        var entities: [Entity] = (0..<(roots + subentities)).map { index in
            Entity(name: name(index), parentName: index >= roots ? name(index - roots) : nil, attributes: [
                Attribute(name: "title\(index)", type: .string), Attribute(name: "count\(index)", type: .integer32),
                Attribute(name: "when\(index)", type: .date),
            ])
        }
        func relate(_ from: Int, _ name: String, to: Int, inverse: String, toMany: Bool, inverseToMany: Bool, ordered: Bool = false) {
            entities[from].relationships.append(Relationship(name: name, destinationEntity: Self.name(to), inverseName: inverse,
                                                             isToMany: toMany, isOrdered: ordered))
            entities[to].relationships.append(Relationship(name: inverse, destinationEntity: Self.name(from), inverseName: name,
                                                           isToMany: inverseToMany))
        }
        for pair in 0..<manyToMany { relate(pair, "peers\(pair)", to: pair + 1, inverse: "peerOf\(pair)", toMany: true, inverseToMany: true) }
        for list in 0..<ordered {
            relate(20 + list, "items\(list)", to: 30 + list, inverse: "owner\(list)", toMany: true, inverseToMany: false, ordered: true)
        }
        return ManagedObjectModel(name: "Big", entities: entities)
    }()

    /// Writes `rowsPerEntity` rows of every entity, links every ordered item to an owner and
    /// fills every join table; returns the store's path.
    private func makeStore() throws -> String {
        let path = try TestPaths.temporaryFolder("big") + "/Big.sqlite"
        let model = Self.model
        let writer = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                    versionIdentifiers: [])
        var keys: [String: [Int64]] = [:]
        for entity in model.entitiesInStoreOrder {
            let inserter = try writer.inserter(for: entity.name)
            for row in 0..<Self.rowsPerEntity {
                var values = [StoreValue](repeating: .null, count: inserter.columns.count)
                for (offset, column) in inserter.columns.enumerated() {
                    guard case let .attribute(_, name) = column.role else { continue }
                    values[offset] = name.hasPrefix("title") ? .text("照片 \(row)") : name.hasPrefix("count") ? .integer(Int64(row)) : .real(Double(row))
                }
                keys[entity.name, default: []].append(try inserter.insert(values))
            }
        }
        try writer.finish()
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        let layout = try StoreLayout(model: model)
        for table in layout.joinTables {
            let columns = table.columns.prefix(2).map(\.name)
            try database.execute("INSERT INTO \(table.name) (\(columns[0]), \(columns[1])) SELECT a.Z_PK, b.Z_PK FROM "
                + "(SELECT Z_PK FROM \(try rootTable(of: table, layout)) LIMIT 3) a, (SELECT 1 AS Z_PK UNION SELECT 2) b")
        }
        for list in 0..<Self.ordered {
            let items = try #require(layout.table(forEntity: Self.name(30 + list)))
            let owner = try #require(items.column(for: .toOne(entity: Self.name(30 + list), relationship: "owner\(list)")))
            let order = try #require(items.column(for: .orderKey(entity: Self.name(30 + list), relationship: "owner\(list)")))
            try database.execute("UPDATE \(items.name) SET \(owner.name) = 1, \(order.name) = 1024 * Z_PK + 1024 WHERE Z_ENT = "
                + "\(layout.entityNumbers[Self.name(30 + list)] ?? 0)")
        }
        try database.close()
        return path
    }

    private func rootTable(of join: TableLayout, _ layout: StoreLayout) throws -> String {
        guard case let .join(entity, _) = join.kind, let table = layout.table(forEntity: entity) else { throw Failure.noTable }
        return table.name
    }

    enum Failure: Error { case noTable }

    @Test("a 64-entity store with 18 many-to-many and 10 ordered relationships is counted, verified and exported whole")
    func readVerifyExport() throws {
        #expect(Self.model.entities.count == 64)
        let path = try makeStore()
        let report = try StoreReport(path: path, bundlePath: nil)
        #expect(report.discrepancies.isEmpty, "\(report.discrepancies)")
        let verified = try StoreVerifier(path: path).verify()
        #expect(verified.passed, "\(verified.failures.prefix(5))")
        let out = try TestPaths.temporaryFolder("big-export") + "/export"
        let manifest = try ExportJob(request: ExportRequest(storePath: path, outputFolder: out, format: .ndjson)).run()
        #expect(manifest.entities.count == 64)
        #expect(manifest.entities.allSatisfy { $0.count == Self.rowsPerEntity })
        let reader = try CoreDataStoreReader(path: path)
        let pairs = try reader.pairCensus(layout: try reader.layout(for: Self.model))
        #expect(pairs.filter { $0.key.hasPrefix("Z_") }.count == Self.manyToMany && pairs.values.allSatisfy { $0 > 0 }, "\(pairs)")
    }
}
