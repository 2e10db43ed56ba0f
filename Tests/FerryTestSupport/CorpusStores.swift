/// The corpus stores that have their Xcode model, and that model (per the corpus README).
/// Shared by the tests of every target that reads the corpus stores.
public enum CorpusStores {
    /// `../shared/corpus/coredata`.
    public static let coredata = TestPaths.corpus + "/coredata"

    /// Store and `.xcdatamodel` paths, relative to `coredata`.
    public static let withModels: [(store: String, model: String)] = {
        let wibosco = "wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld/"
        let wiboscoStores = "wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/"
        let plus = "alemar11__CoreDataPlus/Tests/Resources/"
        let xcs = "richardpiazza__XCServerCoreData/"
        return [
            (wiboscoStores + "CoreDataMigration_Example_1.sqlite", wibosco + "CoreDataMigration_Example.xcdatamodel"),
            (wiboscoStores + "CoreDataMigration_Example_2.sqlite", wibosco + "CoreDataMigration_Example 2.xcdatamodel"),
            (wiboscoStores + "CoreDataMigration_Example_3.sqlite", wibosco + "CoreDataMigration_Example 3.xcdatamodel"),
            (wiboscoStores + "CoreDataMigration_Example_WAL.sqlite", wibosco + "CoreDataMigration_Example 4.xcdatamodel"),
            (plus + "SampleModel/Fixtures/SampleModel_V1.sqlite", plus + "SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel"),
            (plus + "SampleModel/Fixtures/SampleModel_V2.sqlite", plus + "SampleModel/SampleModel.xcdatamodeld/SampleModel2.xcdatamodel"),
            (plus + "SampleModel3/Fixtures/SampleModel3_V1.sqlite", plus + "SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel"),
            (xcs + "Tests/XCServerCoreData_1.2.0.sqlite", xcs + "Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData1.2.0.xcdatamodel"),
            (xcs + "Tests/XCServerCoreData_1.2.0_empty.sqlite", xcs + "Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData1.2.0.xcdatamodel"),
            (xcs + "Tests/XCServerCoreData_2.0.0_empty.sqlite", xcs + "Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData2.0.0.xcdatamodel"),
            (xcs + "Tests/XCServerCoreData_2.0.1.sqlite", xcs + "Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData2.0.1.xcdatamodel"),
        ]
    }()

    /// The CoreDataPlus stores of a model built in code, with no XML model: their `Z_MODELCACHE` holds
    /// the corpus's only derived attribute (`Book.pagesCount`). Relative to `coredata`.
    public static let derivedAttributeStores = ["SampleModel2_V1.sqlite", "SampleModel2_V2.sqlite"].map {
        "alemar11__CoreDataPlus/Tests/Resources/SampleModel2/Fixtures/" + $0
    }

    /// The WAL store whose rows are only in its `-wal`.
    public static let walStore = withModels[3]
    /// The store with many-to-many join tables.
    public static let xcServer201 = withModels[10]

    /// The CartKit stores, written by Core Data and by SwiftData: to-many relationships without
    /// an inverse, each with a `-wal`.
    public static let cartKit = [
        "Karim-ezzedine__CartKit/Tests/CartKitStorageCoreDataTests/LegacyCoreData/CartStorage_v1.sqlite",
        "Karim-ezzedine__CartKit/Tests/CartKitStorageSwiftDataTests/LegacySwiftData/CartKitSwiftData_v1.sqlite",
    ]

    /// Apple Notes (iOS): one-to-ones filled on one side only (`ICCloudSyncingObject.cloudState`
    /// is set, its inverse `ICCloudState.cloudSyncingObject` never), as Apple's own apps write them.
    public static let appleNotes = "log2timeline__plaso/test_data/ios/NoteStore.sqlite"

    /// Every SQLite file of the corpus (by its header; `-wal` and `-shm` files left out), relative
    /// to `coredata`; empty without the corpus.
    public static let all: [String] = {
        guard TestPaths.corpusAvailable else { return [] }
        return TestPaths.files(under: coredata) { path in
            guard !path.hasSuffix("-wal"), !path.hasSuffix("-shm"), let bytes = try? TestPaths.read(coredata + "/" + path) else { return false }
            return bytes.prefix(16).elementsEqual("SQLite format 3\0".utf8)
        }.map { String($0.dropFirst(coredata.count + 1)) }
    }()

    /// The absolute path of a corpus file.
    public static func path(_ relative: String) -> String { coredata + "/" + relative }
}
