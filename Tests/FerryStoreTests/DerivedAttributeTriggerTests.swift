import FerryStore
import FerryTestSupport
import Foundation
import Testing

@Suite("stores with derived-attribute triggers")
struct DerivedAttributeTriggerTests {
    @Test("writing to a table whose triggers call Core Data's SQL functions works", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func triggersRun() throws {
        let source = TestPaths.corpus + "/coredata/alemar11__CoreDataPlus/Tests/Resources/SampleModel2/Fixtures/SampleModel2_V2.sqlite"
        let copy = try TestPaths.temporaryFolder("triggers") + "/store.sqlite"
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        let database = try SQLiteDatabase(path: copy, mode: .readWrite)
        #expect(try database.scalarInteger("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%NSCoreDataDATrigger%'") ?? 0 > 0)
        let book = try #require(try database.scalarInteger("SELECT Z_PK FROM ZBOOK LIMIT 1"))
        let before = try database.scalarInteger("SELECT IFNULL(ZPAGESCOUNT, 0) FROM ZBOOK WHERE Z_PK = \(book)") ?? 0
        try database.execute("INSERT INTO ZPAGE (Z_PK, Z_ENT, Z_OPT, ZBOOK) VALUES ((SELECT max(Z_PK) + 1 FROM ZPAGE), (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Page'), 1, \(book))")
        #expect(try database.scalarInteger("SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = \(book)") == before + 1)
    }
}
