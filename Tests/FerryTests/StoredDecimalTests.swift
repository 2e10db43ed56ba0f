import Ferry
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A Core Data store keeps a Decimal as a real. Ferry once wrote decimals of more digits than a
/// Double holds (a CSV's `12345678901234567.25`, an Integer 64 of 9223372036854775807 migrated to
/// a Decimal) as the nearest real, exit 0, every check passing: its fingerprints encode a Decimal
/// as the store keeps it on both sides. Such a record is now a reject that says what the store
/// would have read back. Values are read with plain SQL.
@Suite("decimals a store cannot keep are rejected, not rounded")
struct StoredDecimalTests {
    /// Versions Amounts 1 (`n` Integer 64) and Amounts 2 (`n` Decimal).
    private static func contents(type: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Amount" syncable="YES">
                <attribute name="label" attributeType="String"/>
                <attribute name="n" optional="YES" attributeType="\(type)" usesScalarValueType="NO"/>
            </entity>
        </model>
        """
    }

    private static let values = "SELECT ZLABEL || '=' || ZN FROM ZAMOUNT ORDER BY ZLABEL"

    private func bundle(_ folder: String) throws -> String {
        try TestPaths.xcodeModelBundle("Amounts", versions: [("Amounts 1", Self.contents(type: "Integer 64")),
                                                             ("Amounts 2", Self.contents(type: "Decimal"))], in: folder)
    }

    @Test("import rejects a decimal of more digits than a store's real keeps, naming what it would read back as")
    func importRejects() throws {
        let folder = try TestPaths.temporaryFolder("stored-decimal-import")
        try "label,n\nlong,12345678901234567.25\ncents,0.1\nbig,1e20\n".write(toFile: folder + "/amounts.csv", atomically: true, encoding: .utf8)
        let request = ImportRequest(sources: [folder + "/amounts.csv"], modelPath: try bundle(folder), modelVersion: "Amounts 2",
                                    entity: "Amount", outputPath: folder + "/amounts.sqlite")
        let summary = try ImportJob(request: request).run()
        #expect(summary.read == 3 && summary.written == 2 && summary.rejected == 1)
        #expect(summary.sampleRejects.first?.attribute == "n")
        #expect(summary.sampleRejects.first?.reason.hasSuffix("it would read back as 12345678901234568") == true,
                "\(summary.sampleRejects)")
        #expect(try storeRows(request.outputPath, Self.values) == ["big=1.0e+20", "cents=0.1"])
    }

    @Test("a whole Decimal that SQLite's affinity stored as an integer reads back as the real it is: backup, restore and migrate keep it")
    func integerStoredDecimalRoundTrips() throws {
        let folder = try TestPaths.temporaryFolder("stored-decimal-integer")
        let bundle = try bundle(folder)
        // 2^60: the real Ferry writes is stored as the integer 1152921504606846976, whose digits
        // the real cannot keep as written; read as those digits, the record was rejected by
        // restore and migrate (exit 1) although its backup had exited 0.
        try "label,n\npow,1.152921504606847e18\nfive,5\n".write(toFile: folder + "/amounts.csv", atomically: true, encoding: .utf8)
        let store = folder + "/amounts.sqlite"
        let imported = try ImportJob(request: ImportRequest(sources: [folder + "/amounts.csv"], modelPath: bundle, modelVersion: "Amounts 2",
                                                            entity: "Amount", outputPath: store)).run()
        #expect(imported.written == 2)
        #expect(try storeRows(store, "SELECT ZLABEL || '=' || typeof(ZN) || ':' || ZN FROM ZAMOUNT ORDER BY ZLABEL")
            == ["five=integer:5", "pow=integer:1152921504606846976"])
        let backup = try BackupJob(storePath: store, folder: folder + "/backups").run()
        let restored = try RestoreJob(folder: backup.path, modelPath: bundle, outputPath: folder + "/restored.sqlite").run()
        #expect(restored.rejected == 0 && restored.records["Amount"] == 2, "\(restored.sampleRejects)")
        #expect(try storeRows(folder + "/restored.sqlite", Self.values) == ["five=5", "pow=1152921504606846976"])
        let copy = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: bundle,
                                                          outputPath: folder + "/migrated.sqlite")).run()
        #expect(copy.rejected == 0 && copy.written["Amount"] == 2, "\(copy.sampleRejects)")
    }

    @Test("migrate rejects an Integer 64 that becomes a Decimal no real holds exactly")
    func migrateRejects() throws {
        let folder = try TestPaths.temporaryFolder("stored-decimal-migrate")
        let bundle = try bundle(folder)
        try "label,n\nmax,9223372036854775807\nfive,5\n".write(toFile: folder + "/amounts.csv", atomically: true, encoding: .utf8)
        let source = folder + "/amounts1.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [folder + "/amounts.csv"], modelPath: bundle, modelVersion: "Amounts 1",
                                                 entity: "Amount", outputPath: source)).run()
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, outputPath: folder + "/amounts2.sqlite")
        let summary = try MigrateJob(request: request).run()
        #expect(summary.chains == [["Amounts 1", "Amounts 2"]])
        #expect(summary.rejected == 1)
        let reject = try #require(summary.sampleRejects.first)
        #expect(reject.reason.contains("Amount.n: 9223372036854775807 has more significant digits"), "\(reject)")
        #expect(try storeRows(request.outputPath, Self.values) == ["five=5"])
    }
}
