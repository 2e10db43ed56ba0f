import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A type change inference cannot convert (Date → Integer 64: the epoch is not knowable) set the
/// attribute to nil in every migrated record, with exit 0 and a hint; a Double → Float change
/// turned 1e-50 into 0. Now a value that cannot cross rejects its record (nil passes), as an
/// import of the same value does.
@Suite("Type changes across versions")
struct TypeChangeMigrationTests {
    private static func version(_ attributes: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Item" syncable="YES">
                <attribute name="name" attributeType="String"/>
                \(attributes)
            </entity>
        </model>
        """
    }

    private func migrate(_ label: String, from first: String, to second: String, csv: String) throws -> (run: FerryProcess.Result, store: String) {
        let folder = try TestPaths.temporaryFolder("type-change-\(label)")
        let bundle = try TestPaths.xcodeModelBundle("M", versions: [("V1", Self.version(first)), ("V2", Self.version(second))], in: folder)
        try csv.write(toFile: folder + "/items.csv", atomically: true, encoding: .utf8)
        let imported = try FerryProcess.run(["import", folder + "/items.csv", "--model", bundle, "--model-version", "V1", "--entity", "Item",
                                             "--out", folder + "/v1.sqlite"])
        #expect(imported.status == 0, "\(imported.err)")
        let store = folder + "/v2.sqlite"
        return (try FerryProcess.run(["migrate", folder + "/v1.sqlite", "--model", bundle, "--out", store]), store)
    }

    @Test("Date → Integer 64: records holding a date are rejected, naming the change; a record without one is carried")
    func uninferableChangeRejectsValues() throws {
        let (run, store) = try migrate("date-integer", from: #"<attribute name="when" optional="YES" attributeType="Date"/>"#,
                                       to: #"<attribute name="when" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>"#,
                                       csv: "name,when\na,2020-01-01T00:00:00Z\nb,\nc,2021-06-01T12:00:00Z\n")
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("Item.when: a Date value cannot become Integer 64"), "\(run.err)")
        #expect(run.err.contains("Item.when: Date → Integer 64 is not inferable"), "\(run.err)")
        #expect(try storeRows(store, "SELECT ZNAME || '|' || quote(ZWHEN) FROM ZITEM") == ["b|NULL"])
    }

    @Test("Double → Float: rounding carries, a value that would become 0 or another whole number rejects its record")
    func floatNarrowingRejectsChangedValues() throws {
        let (run, store) = try migrate("double-float", from: #"<attribute name="size" optional="YES" attributeType="Double" usesScalarValueType="YES"/>"#,
                                       to: #"<attribute name="size" optional="YES" attributeType="Float" usesScalarValueType="YES"/>"#,
                                       csv: "name,size\nfine,0.5\ntiny,1e-50\nodd,16777217\n")
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("too small for a Float") && run.err.contains("no exact Float value"), "\(run.err)")
        #expect(try storeRows(store, "SELECT ZNAME || '|' || ZSIZE FROM ZITEM") == ["fine|0.5"])
    }
}
