import FerryModel
import FerryStore
import FerryTestSupport
import Testing

/// Predicates run on a store written by Core Data itself (richardpiazza/XCServerCoreData 2.0.1, data
/// partly in its `-wal`), compared with hand-written SQL. Skipped when the corpus is absent.
@Suite(.enabled(if: TestPaths.corpusAvailable, "needs the external corpus in ../shared/corpus"))
struct PredicateCorpusTests {
    static let folder = TestPaths.corpus + "/coredata/richardpiazza__XCServerCoreData"

    static let cases: [(String, String, String)] = [
        ("Bot", "name BEGINSWITH 'Crazy'", "SELECT Z_PK FROM ZBOT WHERE ZNAME LIKE 'Crazy%'"),
        ("Integration", "bot.name CONTAINS[c] 'IOS' AND result == 'succeeded'",
         "SELECT i.Z_PK FROM ZINTEGRATION i JOIN ZBOT b ON b.Z_PK = i.ZBOT WHERE b.ZNAME LIKE '%ios%' AND i.ZRESULT = 'succeeded'"),
        ("Integration", "result IN {'build-errors', 'build-failed'} OR number BETWEEN {10, 12}",
         "SELECT Z_PK FROM ZINTEGRATION WHERE ZRESULT IN ('build-errors', 'build-failed') OR ZNUMBER BETWEEN 10 AND 12"),
        ("Integration", "endedTime > CAST('2017-01-01T00:00:00Z', 'NSDate')",
         "SELECT Z_PK FROM ZINTEGRATION WHERE ZENDEDTIME > 504921600"),
        ("Commit", "commitChanges.@count > 20", "SELECT c.Z_PK FROM ZCOMMIT c WHERE (SELECT count(*) FROM ZCOMMITCHANGE x WHERE x.ZCOMMIT = c.Z_PK) > 20"),
        ("Commit", "ANY commitChanges.filePath ENDSWITH '.swift' AND message != nil",
         "SELECT Z_PK FROM ZCOMMIT WHERE Z_PK IN (SELECT ZCOMMIT FROM ZCOMMITCHANGE WHERE ZFILEPATH LIKE '%.swift') AND ZMESSAGE IS NOT NULL"),
        ("Device", "ANY integrations.number > 150",
         "SELECT Z_PK FROM ZDEVICE WHERE Z_PK IN (SELECT j.Z_9TESTEDDEVICES FROM Z_9INTEGRATIONS j JOIN ZINTEGRATION i ON i.Z_PK = j.Z_13INTEGRATIONS WHERE i.ZNUMBER > 150)"),
        ("Device", "NONE integrations.result == 'succeeded'",
         "SELECT Z_PK FROM ZDEVICE WHERE Z_PK NOT IN (SELECT j.Z_9TESTEDDEVICES FROM Z_9INTEGRATIONS j JOIN ZINTEGRATION i ON i.Z_PK = j.Z_13INTEGRATIONS WHERE i.ZRESULT = 'succeeded')"),
    ]

    @Test(arguments: cases.indices) func corpusStoreAnswersLikeHandWrittenSQL(index: Int) throws {
        let (entity, format, sql) = Self.cases[index]
        let model = try XcodeModelLoader.loadModel(
            at: Self.folder + "/Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData2.0.1.xcdatamodel")
        let compiler = PredicateCompiler(model: model, layout: try StoreLayout(model: model))
        let database = try SQLiteDatabase(path: Self.folder + "/Tests/XCServerCoreData_2.0.1.sqlite", mode: .readOnly)
        let actual = try PredicateQuery(entity: entity, predicate: try FetchPredicate(format: format))
            .compile(with: compiler).primaryKeys(on: database)
        let statement = try database.prepare(sql + " ORDER BY 1")
        var expected: [Int64] = []
        while try statement.step() { expected.append(statement.int64(at: 0)) }
        #expect(actual == expected, "\(format)")
        #expect(!expected.isEmpty)
    }
}
