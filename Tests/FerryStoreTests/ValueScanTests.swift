import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// `ValueScan.count` classifies every row of a table in one pass, in two halves of its keys on
/// two connections when the table is large. Either way its counts must be what plain SQL counts.
@Suite struct ValueScanTests {
    /// A table of `rows` rows, entity numbers 1 and 2 alternating; ZSMALL breaks its Integer 16
    /// rule on every 97th row (text) and 1001st (out of range), ZNAME is NULL on every 13th.
    private func makeTable(rows: Int) throws -> String {
        let path = temporaryStorePath("value-scan-\(rows)")
        let database = try SQLiteDatabase(path: path, mode: .create)
        try database.execute("""
            CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSMALL INTEGER, ZNAME VARCHAR);
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(rows))
            INSERT INTO ZTHING SELECT k, 1 + k % 2, 1,
                CASE WHEN k % 97 = 0 THEN 'text' WHEN k % 1001 = 0 THEN 40000 ELSE k % 300 END,
                CASE WHEN k % 13 = 0 THEN NULL ELSE 'name ' || k END FROM n;
            """)
        try database.close()
        return path
    }

    private func scanAndCompare(rows: Int) throws {
        let path = try makeTable(rows: rows)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let conditions = [
            ColumnCondition(column: "ZSMALL", entityNumbers: nil, rule: StorageRule(.integer16)),
            ColumnCondition(column: "ZNAME", entityNumbers: [2], rule: nil),
            ColumnCondition(column: "ZNAME", entityNumbers: nil, rule: StorageRule(.string)),
        ]
        let counts = try ValueScan(ScanConnection(path: path, sampleLimit: 3)).count("ZTHING", numbers: [1, 2, 3], conditions: conditions)

        let plain = try SQLiteDatabase(path: path, mode: .readOnly)
        func count(_ condition: String) throws -> Int64 {
            try plain.scalarInteger("SELECT count(*) FROM ZTHING WHERE \(condition)") ?? -1
        }
        #expect(counts.rows == Int64(rows))
        #expect(counts.rowsByEntity == [1: try count("Z_ENT = 1"), 2: try count("Z_ENT = 2"), 3: 0])
        #expect(counts.violations == [
            try count("typeof(ZSMALL) <> 'integer' OR ZSMALL NOT BETWEEN -32768 AND 32767"),
            try count("Z_ENT = 2 AND ZNAME IS NULL"),
            0,
        ])
        #expect(counts.violations[0] > 0 && counts.violations[1] > 0)
    }

    @Test func aSmallTableIsCountedInOnePass() throws {
        try scanAndCompare(rows: 5_000)
    }

    @Test func aLargeTableIsCountedInTwoHalvesAllTheSame() throws {
        try scanAndCompare(rows: 90_001)
    }
}
