import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// `ValueScan.count` classifies every row of a table in one pass: from the file's pages when the
/// file holds them all, otherwise through SQLite, in two halves of its keys on two connections
/// when the table is large. Every way, its counts must be what plain SQL counts.
@Suite struct ValueScanTests {
    /// A table of `rows` rows, entity numbers 1 and 2 alternating; ZSMALL breaks its Integer 16
    /// rule on every 97th row (text) and 1001st (out of range), ZNAME is NULL on every 13th, and
    /// Z_OPT (a version from 1 up) is NULL, 0, negative, text or a real on every 89th to 109th.
    /// `inLog`: the rows stay in a `-wal` beside the file (its copy, taken before the checkpoint
    /// that closing would run), so they are read through SQLite.
    private func makeTable(rows: Int, inLog: Bool) throws -> String {
        let path = temporaryStorePath("value-scan-\(rows)")
        let building = inLog ? path + "-building" : path
        let database = try SQLiteDatabase(path: building, mode: .create)
        if inLog { try database.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0") }
        try database.execute("""
            CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSMALL INTEGER, ZNAME VARCHAR);
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < \(rows))
            INSERT INTO ZTHING SELECT k, 1 + k % 2,
                CASE WHEN k % 89 = 0 THEN NULL WHEN k % 101 = 0 THEN 0 WHEN k % 103 = 0 THEN -k WHEN k % 107 = 0 THEN 'one'
                    WHEN k % 109 = 0 THEN 1.5 ELSE 1 + k % 7 END,
                CASE WHEN k % 97 = 0 THEN 'text' WHEN k % 1001 = 0 THEN 40000 ELSE k % 300 END,
                CASE WHEN k % 13 = 0 THEN NULL ELSE 'name ' || k END FROM n;
            """)
        if inLog {
            try FileManager.default.copyItem(atPath: building, toPath: path)
            try FileManager.default.copyItem(atPath: building + "-wal", toPath: path + "-wal")
        }
        try database.close()
        if inLog { removeStoreFiles(building) }
        return path
    }

    private func scanAndCompare(rows: Int, inLog: Bool = false) throws {
        let path = try makeTable(rows: rows, inLog: inLog)
        defer { removeStoreFiles(path) }
        let reading = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect((reading.pagesFile == nil) == inLog, "read from the file's pages unless the rows are in the log")
        let conditions = [
            ColumnCondition(column: "ZSMALL", entityNumbers: nil, rule: StorageRule(.integer16)),
            ColumnCondition(column: "ZNAME", entityNumbers: [2], rule: nil),
            ColumnCondition(column: "ZNAME", entityNumbers: nil, rule: StorageRule(.string)),
            ColumnCondition(column: "Z_OPT", entityNumbers: nil, rule: .optimisticLockVersion),
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
            try count("Z_OPT IS NULL OR typeof(Z_OPT) <> 'integer' OR Z_OPT < 1"),
        ])
        #expect(counts.violations[0] > 0 && counts.violations[1] > 0 && counts.violations[3] > 0)
        // The samples are found by the rule's SQL reading: the rows the count found, first first.
        let samples = try ValueScan(ScanConnection(path: path, sampleLimit: 5)).samples(of: conditions[3], in: "ZTHING")
        #expect(samples.map(\.primaryKey) == [89, 101, 103, 107, 109])
        #expect(samples.map { $0.values["Z_OPT"] } == ["NULL", "0", "-103", "'one'", "1.5"])
    }

    @Test func aSmallTableIsCountedInOnePass() throws {
        try scanAndCompare(rows: 5_000)
    }

    @Test func aLargeTableIsCountedFromTheFileAllTheSame() throws {
        try scanAndCompare(rows: 90_001)
    }

    @Test func aLargeTableInTheLogIsCountedInTwoHalvesAllTheSame() throws {
        try scanAndCompare(rows: 90_001, inLog: true)
    }

    @Test func aSmallTableInTheLogIsCountedInOnePass() throws {
        try scanAndCompare(rows: 5_000, inLog: true)
    }
}
