@testable import Ferry
import FerryPostgres
import FerryStore
import FerryTestSupport
import Foundation
import Testing

@Suite("a store's rows in PostgreSQL as a record source", .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
struct PostgresRecordCursorTests {
    @Test("records of each root table in Z_PK order with their to-one keys as links, then ordered children and join pairs in order; read counted against the database")
    func items() throws {
        let (modelFolder, store, uri) = try PostgresTestSupport.loadedGarage("pg-cursor")
        let model = try #require(try XcodeModelLoader.loadBundle(at: modelFolder).versions.first)
        let connection = try PostgresConnection(ConnectionTarget(uri))
        _ = try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        let cursor = try PostgresRecordCursor(connection: connection, schema: "ferry", store: try CoreDataStoreReader(path: store).metadata.storeUUID.text,
                                              model: model, layout: try PostgresLayout(model: model), path: "garage")
        #expect(cursor.total == 14)
        var rows: [String: [Int64]] = [:]
        var toOne: [String: [Int64]] = [:]
        var read: [String: Int] = [:]
        var links: [String: [[Int64]]] = [:]
        while let item = try cursor.next() {
            switch item {
            case let .record(record, entity, _, row):
                let root = try #require(model.rootEntity(of: entity)?.name)
                #expect(links.isEmpty, "every record comes before the links read apart")
                rows[root, default: []].append(try #require(row))
                read[entity, default: 0] += 1
                #expect(record.key == .integer(try #require(row)))
                for link in record.links {
                    guard case .key(.integer(let target)) = link.targets.first else { continue }
                    toOne["\(entity).\(link.relationship)", default: []].append(target)
                }
            case .link(let link):
                guard case .integer(let source) = link.source, case .integer(let target) = link.target else { continue }
                links["\(link.entity).\(link.relationship)", default: []].append([source, target, Int64(link.position)])
            case .reject(let reject, _):
                Issue.record("reject: \(reject.summary)")
            }
        }
        #expect(rows == ["Vehicle": [1, 2, 3], "Person": [1, 2], "Licence": [1], "Part": [1, 2, 3, 4], "Tag": [1, 2], "Recall": [1, 2]])
        // Vehicle.owner and both sides of the one-to-one come with their rows; Part.vehicle does not:
        // its inverse is ordered, so the parts come from their vehicle, in order.
        #expect(toOne == ["Car.owner": [1], "Truck.owner": [1], "Person.licence": [1], "Licence.holder": [1]])
        #expect(links["Vehicle.parts"] == [[1, 3, 0], [1, 1, 1], [1, 2, 2], [2, 4, 0]])
        #expect(links["Truck.recalls"] == [[2, 1, 0], [2, 2, 1]])
        #expect(links["Tag.vehicles"]?.count == 3)
        _ = try cursor.finish(read: read, stopped: false)
        var short = read
        short["Part", default: 0] -= 1
        let error = try #require(throws: PipelineError.self) { try cursor.finish(read: short, stopped: false) }
        #expect(error.description.contains("entity Part: read 3, database 4"), "\(error)")
        _ = try connection.execute("COMMIT")
    }
}
