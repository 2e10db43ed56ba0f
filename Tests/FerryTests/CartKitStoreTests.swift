import Ferry
import FerryStore
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// CartKit's stores (Core Data and SwiftData, framework 1523), whose to-many relationships have
/// no inverse: verified and exported from private copies (store and `-wal`).
@Suite("CartKit corpus stores", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct CartKitStoreTests {
    /// A private copy of a corpus store and its `-wal`.
    private func copy(_ relative: String) throws -> String {
        let store = CorpusStores.path(relative)
        let copy = try TestPaths.temporaryFolder("cartkit") + "/" + (relative as NSString).lastPathComponent
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        if FileManager.default.fileExists(atPath: store + "-wal") { try FileManager.default.copyItem(atPath: store + "-wal", toPath: copy + "-wal") }
        return copy
    }

    @Test("verify passes with every relationship stored", arguments: CorpusStores.cartKit)
    func verifies(_ relative: String) throws {
        let report = try StoreVerifier(path: try copy(relative)).verify()
        #expect(report.passed, "\(report.failures)")
        let storage = Dictionary(uniqueKeysWithValues: report.relationships.map { ($0.relationship, $0.storage) })
        if relative.contains("SwiftData") {
            #expect(storage == ["CartItemModel.modifiers": "ZCARTITEMMODIFIERMODEL.Z1MODIFIERS", "CartModel.items": "ZCARTITEMMODEL.Z3ITEMS"])
        } else {
            #expect(storage["CDCartItem.modifiers"] == "ZCDCARTITEMMODIFIER.Z2MODIFIERS")
        }
    }

    @Test("export gives each item its modifiers")
    func exportsModifiers() throws {
        let path = try copy(CorpusStores.cartKit[0])
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute("""
            INSERT INTO ZCDCARTITEM (Z_PK, Z_ENT, Z_OPT, ZQUANTITY, ZCART, ZID, ZPRODUCTID, ZUNITPRICEAMOUNT) VALUES (2, 2, 1, 1, 1, 'I2', 'fries', 3);
            INSERT INTO ZCDCARTITEMMODIFIER (Z_PK, Z_ENT, Z_OPT, ZITEM, Z2MODIFIERS, ZPRICEDELTAAMOUNT, ZID, ZNAME, ZPRICEDELTACURRENCYCODE)
                VALUES (1, 3, 1, 1, 1, 0.5, 'M1', 'cheese', 'USD'), (2, 3, 1, NULL, 2, 0.1, 'M2', 'salt', 'USD'), (3, 3, 1, 1, 1, 0.25, 'M3', 'bacon', 'USD');
            UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_NAME = 'CDCartItem';
            UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_NAME = 'CDCartItemModifier';
            """)
        try database.close()
        let report = try StoreVerifier(path: path).verify()
        #expect(report.passed, "\(report.failures)")
        #expect(report.relationships.first { $0.relationship == "CDCartItem.modifiers" }?.edges == 3)

        let out = try TestPaths.temporaryFolder("cartkit-export") + "/export"
        _ = try ExportJob(request: ExportRequest(storePath: path, outputFolder: out, format: .ndjson)).run()
        let items = try String(contentsOfFile: out + "/CDCartItem.ndjson", encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(items.map { "\($0["productId"] ?? "") \($0["modifiers"] as? [Int] ?? [-1])" } == ["burger [1, 3]", "fries [2]"])
    }
}
