import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// `StoreCensus` groups each table's rows by `Z_ENT`: one pass that sorts nothing when every row
/// carries the first row's number, the full `GROUP BY` otherwise. Both must give what the
/// `GROUP BY` alone gave.
@Suite("the census counts rows per Z_ENT, quickly when a table holds one entity")
struct StoreCensusTests {
    /// A database with Core Data's `Z_PRIMARYKEY` (entities 1 to 7) and entity tables whose
    /// `Z_ENT` values are given per row, in `Z_PK` order.
    private func store(_ tables: [String: [String]]) throws -> String {
        let path = try TestPaths.temporaryFolder("census") + "/store.sqlite"
        let database = try SQLiteDatabase(path: path, mode: .create)
        try database.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        for number in 1...7 { try database.execute("INSERT INTO Z_PRIMARYKEY VALUES (\(number), 'E\(number)', 0, 0)") }
        for (table, numbers) in tables {
            try database.execute("CREATE TABLE \(table) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER)")
            for (index, number) in numbers.enumerated() {
                try database.execute("INSERT INTO \(table) VALUES (\(index * 10 + 5), \(number), 1)")
            }
        }
        try database.close()
        return path
    }

    @Test("one entity per table, mixed entities, rows of no entity, NULL and real numbers, empty tables")
    func groups() throws {
        let census = try StoreCensus(path: try store([
            "ZONE": ["1", "1", "1"],
            "ZMIXED": ["2", "3", "2"],
            "ZSTRAY": ["4", "42", "42"],
            "ZNULLFIRST": ["NULL", "5"],
            "ZNULLLATER": ["6", "6", "NULL"],
            "ZREAL": ["7", "7.5"],
            "ZEMPTY": [],
        ]))
        let rows = Dictionary(uniqueKeysWithValues: census.entities.map { ($0.number, $0.rows) })
        #expect(rows == [1: 3, 2: 2, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2])
        let largest = Dictionary(uniqueKeysWithValues: census.entities.map { ($0.number, $0.largestPrimaryKey) })
        #expect(largest == [1: 25, 2: 25, 3: 15, 4: 5, 5: 15, 6: 15, 7: 15])
        let strays = census.strays.map { "\($0.table) \($0.entityNumber) \($0.rows)" }.sorted()
        #expect(strays == ["ZNULLFIRST -1 1", "ZNULLLATER -1 1", "ZSTRAY 42 2"])
    }

    @Test("rows of one entity in two tables are named by table where the count differs (the message blamed the entity alone)")
    func rowsOutOfPlaceAreNamedByTable() throws {
        let census = try StoreCensus(path: try store(["ZONE": ["1", "1"], "ZTWO": ["2", "1"]]))
        #expect(census.discrepancies(delivered: [1: 2, 2: 1]) == ["entity E1 (Z_ENT 1): the store holds 3 rows (2 in table ZONE, 1 in table ZTWO), 2 were read"])
        #expect(census.discrepancies(delivered: [1: 3, 2: 1]).isEmpty)
    }
}
