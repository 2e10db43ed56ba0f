import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// Entities that share a table with their parent and sub-entities are restricted by `Z_ENT`.
@Suite struct PredicateHierarchyTests {
    @Test func subEntitiesAreRestrictedToTheirEntityNumbers() throws {
        let model = Models.sampleModelV1
        let compiler = PredicateCompiler(model: model, layout: try StoreLayout(model: model))
        #expect(try compiler.compile(format: "TRUEPREDICATE", entity: "SportCar").whereClause == "(t0.Z_ENT IN (2, 3)) AND (1)")
        #expect(try compiler.compile(format: "TRUEPREDICATE", entity: "Car").whereClause == "(1)")

        let path = try TestPaths.temporaryFolder("predicate-hierarchy") + "/cars.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: model,
                                                    versionHashes: placeholderHashes(for: CoreDataStoreWriterTests.entityNames),
                                                    versionIdentifiers: [])
        let people = try writer.inserter(for: "Person")
        let owner = try people.insert([.real(0), .text("Ada"), .text("Lovelace"), .blob(Array(repeating: 1, count: 16))])
        for (offset, entity) in ["Car", "SportCar", "ExpensiveSportCar", "Car", "SportCar"].enumerated() {
            let cars = try writer.inserter(for: entity)
            var row = [StoreValue](repeating: .null, count: cars.columns.count)
            row[try #require(cars.columnIndex(named: "ZNUMBERPLATE"))] = .text("P\(offset)")
            row[try #require(cars.columnIndex(named: "ZOWNER"))] = offset < 3 ? .integer(owner) : .null
            try cars.insert(row)
        }
        try writer.finish()
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        func keys(_ format: String, _ entity: String) throws -> [Int64] {
            try PredicateQuery(entity: entity, predicate: try FetchPredicate(format: format))
                .compile(with: compiler).primaryKeys(on: database)
        }
        #expect(try keys("numberPlate BEGINSWITH 'P'", "SportCar") == [2, 3, 5])
        #expect(try keys("numberPlate BEGINSWITH 'P'", "ExpensiveSportCar") == [3])
        #expect(try keys("owner.firstName == 'Ada'", "SportCar") == [2, 3])
        #expect(try keys("ANY cars.numberPlate == 'P1'", "Person") == [owner])
        #expect(try keys("cars.@count == 3", "Person") == [owner])
    }
}
