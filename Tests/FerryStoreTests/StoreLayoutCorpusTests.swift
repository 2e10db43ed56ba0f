import FerryModel
import FerryStore
import Testing

/// Layouts of models built in code, compared with the stores Apple's Core Data wrote for the same
/// models. Needs the external corpus (`../shared/corpus`); skipped when it is absent.
@Suite struct StoreLayoutCorpusTests {
    static let sampleV1 = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V1.sqlite"
    static let sampleV2 = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V2.sqlite"
    static let wibosco = "wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_3.sqlite"
    static let xcServer = "richardpiazza__XCServerCoreData/Tests/XCServerCoreData_2.0.1.sqlite"

    @Test(.enabled(if: Corpus.exists(sampleV1), "needs the corpus store SampleModel_V1.sqlite"))
    func sampleModelV1MatchesStore() throws {
        let layout = try StoreLayout(model: Models.sampleModelV1)
        let store = try SchemaSnapshot(path: Corpus.path(Self.sampleV1))
        let expected = SchemaSnapshot(layout: layout)
        #expect(expected.columns == store.columns)
        #expect(expected.tables == store.tables)
        #expect(expected.indexes == store.indexes)
    }

    @Test(.enabled(if: Corpus.exists(sampleV2), "needs the corpus store SampleModel_V2.sqlite"))
    func sampleModelV2FetchIndexMatchesStore() throws {
        let layout = try StoreLayout(model: Models.sampleModelV2)
        let store = try SchemaSnapshot(path: Corpus.path(Self.sampleV2))
        let expected = SchemaSnapshot(layout: layout)
        #expect(expected.columns == store.columns)
        #expect(expected.tables == store.tables)
        #expect(expected.indexes == store.indexes)
        #expect(store.indexes["Z_Car_byMakerAndNumberPlate"] != nil)
    }

    @Test(.enabled(if: Corpus.exists(wibosco), "needs the corpus store CoreDataMigration_Example_3.sqlite"))
    func oneToOneMatchesStore() throws {
        let layout = try StoreLayout(model: Models.wiboscoV3)
        let store = try SchemaSnapshot(path: Corpus.path(Self.wibosco))
        #expect(SchemaSnapshot(layout: layout) == store)
    }

    @Test(.enabled(if: Corpus.exists(xcServer), "needs the corpus store XCServerCoreData_2.0.1.sqlite"))
    func manyToManyJoinTablesMatchStore() throws {
        let layout = try StoreLayout(model: Models.xcServerManyToMany)
        let store = try SchemaSnapshot(path: Corpus.path(Self.xcServer))
        let joinTables = layout.joinTables
        #expect(joinTables.map(\.name).sorted() == ["Z_8REPOSITORIES", "Z_9DEVICESPECIFICATIONS", "Z_9INTEGRATIONS"])
        for table in joinTables {
            #expect(store.tables[table.name] == table.createStatement)
            #expect(store.columns[table.name] == table.columns.map { "\($0.name) \($0.declaredType)" })
        }
        let joinIndexes = layout.indexes.filter { index in joinTables.contains { $0.name == index.table } }
        #expect(joinIndexes.count == 3)
        for index in joinIndexes {
            #expect(store.indexes[index.name] == index.createStatement)
        }
    }
}
