@testable import FerryStore
import FerryFormats
import FerryModel
import FerryTestSupport
import FoundationEssentials
import Foundation
import Testing

/// `ValueScan.count` reads a table from its file's pages (`TableFileScan`) when the file holds
/// every page; its counts must be SQLite's, row for row, on every shape of file and record.
@Suite struct TableFileScanTests {
    /// Rules that tell storage classes, integer ranges and blob lengths apart, each asked of every column.
    private static let rules: [StorageRule?] = [nil, StorageRule(.integer16), StorageRule(.boolean), StorageRule(.double),
                                                StorageRule(.string), StorageRule(.uuid), StorageRule(.binary), .optimisticLockVersion]

    /// The conditions of every rule on each column (the second half only for entity 2).
    private static func conditions(_ columns: [String]) -> [ColumnCondition] {
        columns.flatMap { column in
            rules.enumerated().map { ColumnCondition(column: column, entityNumbers: $0.offset % 2 == 0 ? nil : [2], rule: $0.element) }
        }
    }

    /// The counts of `table` from the file (or why it was refused).
    private func fileCounts(_ path: String, _ table: String, columns: [String]) throws -> Result<ValueScan.Counts, FileScanRefusal> {
        let connection = try ScanConnection(path: path, sampleLimit: 0)
        let count = ConditionCount(table: table, numbers: Array(0...40), conditions: Self.conditions(columns))
        let database = connection.database
        guard let file = database.pagesFile else { return .failure(FileScanRefusal("no pages file")) }
        return Result { () throws(FileScanRefusal) in try count.run(reading: DatabaseFile(path: file), of: database) }
    }

    /// The counts of `table` from the file (nil when refused) and from SQLite.
    private func bothCounts(_ path: String, _ table: String, columns: [String]) throws -> (file: ValueScan.Counts?, sql: ValueScan.Counts) {
        let connection = try ScanConnection(path: path, sampleLimit: 0)
        let count = ConditionCount(table: table, numbers: Array(0...40), conditions: Self.conditions(columns))
        return (ValueScan(connection).countFromFile(count), try count.run(on: connection.database, keys: nil))
    }

    private func expectSame(_ path: String, _ table: String, columns: [String], _ comment: Comment) throws {
        let (file, sql) = try bothCounts(path, table, columns: columns)
        if case .failure(let refusal) = try fileCounts(path, table, columns: columns) { Issue.record("\(comment): refused, \(refusal.reason)") }
        #expect(file?.rows == sql.rows, comment)
        #expect(file?.rowsByEntity == sql.rowsByEntity, comment)
        #expect(file?.violations == sql.violations, comment)
    }

    private func makeDatabase(_ name: String, _ sql: String) throws -> String {
        let path = temporaryStorePath(name)
        let database = try SQLiteDatabase(path: path, mode: .create)
        try database.execute(sql)
        try database.close()
        return path
    }

    /// Every value class in every column, small and large rows (overflow pages, integers after a
    /// large blob), REAL affinity (integral reals stored as integers), a deep b-tree.
    @Test(arguments: [512, 4096, 65_536])
    func everyValueShapeIsCountedAsSQLiteCountsIt(pageSize: Int) throws {
        let path = try makeDatabase("file-scan-\(pageSize)", """
            PRAGMA page_size = \(pageSize);
            CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATA BLOB, ZSMALL INTEGER, ZF FLOAT,
                ZWHEN TIMESTAMP, ZNAME VARCHAR, ZID BLOB);
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 6000)
            INSERT INTO ZTHING SELECT k, 1 + k % 3,
                CASE k % 11 WHEN 0 THEN NULL WHEN 1 THEN 0 WHEN 2 THEN -k WHEN 3 THEN 'one' WHEN 4 THEN 1.5 ELSE k END,
                CASE k % 7 WHEN 0 THEN NULL WHEN 1 THEN zeroblob(k * 13 % 70000) WHEN 2 THEN 'text' WHEN 3 THEN randomblob(16)
                    ELSE randomblob(k % 300) END,
                CASE k % 5 WHEN 0 THEN 40000 WHEN 1 THEN -32768 WHEN 2 THEN 9007199254740993 WHEN 3 THEN 2.0 ELSE k % 2 END,
                CASE k % 4 WHEN 0 THEN 2.0 WHEN 1 THEN 2.5 WHEN 2 THEN NULL ELSE -3 END,
                CASE k % 3 WHEN 0 THEN 1e300 WHEN 1 THEN 9007199254740993 ELSE 12 END,
                CASE k % 6 WHEN 0 THEN NULL WHEN 1 THEN x'00' ELSE printf('%.*c', k % 5000, 'x') END,
                CASE k % 2 WHEN 0 THEN randomblob(16) ELSE randomblob(15) END
            FROM n;
            """)
        defer { removeStoreFiles(path) }
        try expectSame(path, "ZTHING", columns: ["Z_ENT", "Z_OPT", "ZDATA", "ZSMALL", "ZF", "ZWHEN", "ZNAME", "ZID"], "page size \(pageSize)")
    }

    /// Rows written before `ALTER TABLE ADD COLUMN` have fewer fields: a column without a default
    /// reads NULL there; one with a default is not evaluated here, and SQLite counts the table.
    @Test func shortRecordsReadTheirMissingColumnsAsSQLiteDoes() throws {
        let path = try makeDatabase("file-scan-added", """
            CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZA INTEGER);
            INSERT INTO ZTHING VALUES (1, 1, 5), (2, 2, 6);
            ALTER TABLE ZTHING ADD COLUMN ZB VARCHAR;
            ALTER TABLE ZTHING ADD COLUMN ZC INTEGER DEFAULT 7;
            INSERT INTO ZTHING VALUES (3, 2, 1, 'b', NULL);
            """)
        defer { removeStoreFiles(path) }
        try expectSame(path, "ZTHING", columns: ["Z_ENT", "ZA", "ZB"], "a column added without a default")
        let (file, sql) = try bothCounts(path, "ZTHING", columns: ["Z_ENT", "ZC"])
        #expect(file == nil)
        #expect(sql.rows == 3)
        let counts = try ValueScan(ScanConnection(path: path, sampleLimit: 0)).count(
            "ZTHING", numbers: [1, 2], conditions: [ColumnCondition(column: "ZC", entityNumbers: nil, rule: nil)])
        #expect(counts.violations == [1], "the NULL of row 3 only: rows 1 and 2 read the default")
    }

    /// Bytes reserved at the end of every page (as an encryption extension leaves them) shorten
    /// the usable page, and so the point where a row spills into overflow pages.
    @Test func reservedBytesAtThePageEndAreSkipped() throws {
        guard let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first(where: FileManager.default.isExecutableFile) else {
            Issue.record("the sqlite3 command-line tool is needed to reserve bytes (SQLITE_FCNTL_RESERVE_BYTES)")
            return
        }
        let path = temporaryStorePath("file-scan-reserved")
        defer { removeStoreFiles(path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite3)
        process.arguments = [path, ".filectrl reserve_bytes 40", """
            CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZDATA BLOB, ZN INTEGER);
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 500)
            INSERT INTO ZTHING SELECT k, 1, zeroblob(k * 17), CASE k % 3 WHEN 0 THEN 70000 ELSE k END FROM n;
            """]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try LockKeepingFileReader.read(path, count: 21).last == 40)
        try expectSame(path, "ZTHING", columns: ["Z_ENT", "ZDATA", "ZN"], "40 reserved bytes")
    }

    /// SQLite reads a stored NaN as NULL (it never writes one): so does the file's reader, in a
    /// REAL column and in an INTEGER one.
    @Test func aNaNInTheFileReadsAsNull() throws {
        let path = try makeDatabase("file-scan-nan", """
            CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZWHEN TIMESTAMP, ZCOUNT INTEGER);
            INSERT INTO ZTHING VALUES (1, 1, 12345.0625, 54321.0625), (2, 2, 1.5, 7), (3, 2, NULL, NULL);
            """)
        defer { removeStoreFiles(path) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for value in [12345.0625, 54321.0625] {
            let pattern = withUnsafeBytes(of: value.bitPattern.bigEndian) { Data($0) }
            let found = try #require(bytes.range(of: pattern))
            bytes.replaceSubrange(found, with: withUnsafeBytes(of: UInt64(0x7FF8_0000_0000_0001).bigEndian) { Data($0) })
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try SQLiteDatabase(path: path, mode: .readOnly).scalarText("SELECT typeof(ZWHEN) || typeof(ZCOUNT) FROM ZTHING WHERE Z_PK = 1") == "nullnull")
        try expectSame(path, "ZTHING", columns: ["Z_ENT", "ZWHEN", "ZCOUNT"], "NaN")
    }

    /// A table without rowid keeps its rows in an index b-tree: it is refused, and SQLite counts it.
    @Test func aTableWithoutRowidIsCountedBySQLite() throws {
        let path = try makeDatabase("file-scan-without-rowid", """
            CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZWITHOUT_ROWID INTEGER) WITHOUT
                ROWID;
            INSERT INTO ZTHING VALUES (1, 1, 5), (2, 2, NULL);
            CREATE TABLE ZOTHER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZWITHOUT_ROWID INTEGER);
            INSERT INTO ZOTHER VALUES (1, 1, 5), (2, 2, NULL);
            """)
        defer { removeStoreFiles(path) }
        let refusal = try #require(try fileCounts(path, "ZTHING", columns: ["Z_ENT", "ZWITHOUT_ROWID"]).failure)
        #expect(refusal.reason.contains("no rowid"))
        try expectSame(path, "ZOTHER", columns: ["Z_ENT", "ZWITHOUT_ROWID"], "a column named like the option")
        let counts = try ValueScan(ScanConnection(path: path, sampleLimit: 0)).count(
            "ZTHING", numbers: [1, 2], conditions: [ColumnCondition(column: "ZWITHOUT_ROWID", entityNumbers: nil, rule: nil)])
        #expect(counts.rows == 2 && counts.violations == [1])
    }

    /// A child pointer that names a page out of range, or one already read, is refused (SQLite's
    /// integrity check reports the damage); the count is then SQLite's.
    @Test func aDamagedTreeIsRefusedNotGuessedAt() throws {
        let path = try makeDatabase("file-scan-damaged", """
            CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, ZNAME VARCHAR);
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 3000)
            INSERT INTO ZTHING SELECT k, 1, printf('name %d', k) FROM n;
            """)
        defer { removeStoreFiles(path) }
        let root = try SQLiteDatabase(path: path, mode: .readOnly).scalarInteger("SELECT rootpage FROM sqlite_master WHERE name = 'ZTHING'") ?? 0
        let pageSize = 4096
        for damage in [UInt32(9_999), UInt32(root)] {  // out of range; the root itself (a cycle)
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.seek(toOffset: UInt64((Int(root) - 1) * pageSize + 8))  // the root's right-most child
            try handle.write(contentsOf: withUnsafeBytes(of: damage.bigEndian) { Data($0) })
            try handle.close()
            let refusal = try #require(try fileCounts(path, "ZTHING", columns: ["Z_ENT", "ZNAME"]).failure, "child page \(damage)")
            #expect(refusal.reason.contains("out of range or reached twice"))
        }
    }

    /// Every table of every corpus store that has `Z_ENT`, read both ways: Apple's and the apps'
    /// own files (page sizes, auto-vacuum, overflow, columns added by migrations).
    @Test(.enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func everyCorpusTableIsCountedAsSQLiteCountsIt() throws {
        var tablesRead = 0
        for relative in CorpusStores.all {
            let path = CorpusStores.path(relative)
            let database = try SQLiteDatabase(path: path, mode: .readOnly)
            guard database.pagesFile != nil else { continue }  // its rows are in a -wal: SQLite reads it
            let tables = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%'")
            var names: [String] = []
            while try tables.step() { names.append(tables.string(at: 0) ?? "") }
            for table in names {
                let info = try database.prepare("SELECT name FROM pragma_table_info(?1) WHERE pk = 0")
                try info.bind(table, at: 1)
                var columns: [String] = []
                while try info.step() { columns.append(info.string(at: 0) ?? "") }
                guard columns.contains("Z_ENT") else { continue }
                try expectSame(path, table, columns: ["Z_ENT"] + columns.filter { $0 != "Z_ENT" }, "\(relative) \(table)")
                tablesRead += 1
            }
        }
        #expect(tablesRead > 50)
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
