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
    /// Core Data's history in `ACHANGE`/`ATRANSACTION` (16001, 16002) beside an app's `Feedback`
    /// (3) and a root renamed since the store was written (`Z_NAME` Draft, table `ZNOTE`).
    private func historyStore(_ rows: String) throws -> String {
        let path = try TestPaths.temporaryFolder("census-places") + "/store.sqlite"
        let database = try SQLiteDatabase(path: path, mode: .create)
        try database.execute("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (3, 'Feedback', 0, 9), (4, 'Draft', 0, 9), (16001, 'CHANGE', 0, 9), (16002, 'TRANSACTION', 0, 9);
            CREATE TABLE ZFEEDBACK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            INSERT INTO ZFEEDBACK VALUES (1, 3, 1), (2, 3, 1);
            INSERT INTO ZNOTE VALUES (1, 4, 1);
            INSERT INTO ACHANGE VALUES (1, 16001, 1), (2, 16001, 1);
            INSERT INTO ATRANSACTION VALUES (1, 16002, 1);
            \(rows)
            """)
        try database.close()
        return path
    }

    /// A `CHANGE`-numbered row in `ZFEEDBACK` was counted as history, so no job missed it: export
    /// and migrate dropped a customer's feedback with exit 0 and a history count one too high.
    @Test("a row outside its entity's table is a stray, either way round: Core Data's own in an app's table, an app's in Core Data's or another's")
    func rowsOutsideTheirEntitysTableAreStrays() throws {
        let clean = try StoreCensus(path: try historyStore(""))
        #expect(clean.strays.isEmpty && clean.frameworkRecords == ["CHANGE": 2, "TRANSACTION": 1])
        #expect(clean.discrepancies(delivered: [3: 2, 4: 1]).isEmpty)

        let census = try StoreCensus(path: try historyStore("""
            INSERT INTO ZFEEDBACK VALUES (3, 16001, 1);
            INSERT INTO ACHANGE VALUES (3, 3, 1);
            INSERT INTO ATRANSACTION VALUES (2, 16001, 1);
            INSERT INTO ZNOTE VALUES (2, 3, 1);
            """))
        #expect(census.frameworkRecords == ["CHANGE": 2, "TRANSACTION": 1])
        #expect(census.entity(number: 3)?.rows == 2 && census.entity(number: 3)?.largestPrimaryKey == 2)
        #expect(census.discrepancies(delivered: [3: 2, 4: 1]) == [
            "table ACHANGE: 1 rows with Z_ENT 3, of entity Feedback, whose rows belong in table ZFEEDBACK",
            "table ATRANSACTION: 1 rows with Z_ENT 16001, of Core Data's own entity CHANGE, whose rows belong in table ACHANGE",
            "table ZFEEDBACK: 1 rows with Z_ENT 16001, of Core Data's own entity CHANGE, whose rows belong in table ACHANGE",
            "table ZNOTE: 1 rows with Z_ENT 3, of entity Feedback, whose rows belong in table ZFEEDBACK",
        ])
    }

    /// A root renamed since the store was written keeps its former `Z_NAME`: its rows are counted
    /// in whatever table holds them (the reader's count is compared with them), but in Core Data's own.
    @Test("an entity whose table the store lacks is counted where its rows are, but never in Core Data's own tables")
    func renamedRootCountedWhereItsRowsAre() throws {
        let census = try StoreCensus(path: try historyStore("INSERT INTO ACHANGE VALUES (3, 4, 1);"))
        #expect(census.entity(number: 4)?.rowsByTable == ["ZNOTE": 1])
        #expect(census.discrepancies(delivered: [3: 2, 4: 1]) == ["table ACHANGE: 1 rows with Z_ENT 4, of entity Draft, whose rows belong in table ZDRAFT"])
    }
}
