import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// Values in a column the model lacks, or in a Dog's column on a Cat's row, belong to no record:
/// `export` (and so `backup`) and `migrate` left them behind with exit 0, and `verify` passed the
/// store. Now those verbs refuse the store (exit 5, nothing written) and verify fails it.
@Suite("Values outside every record")
struct StrandedValueTests {
    private static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Animal" syncable="YES">
                <attribute name="name" attributeType="String"/>
            </entity>
            <entity name="Dog" parentEntity="Animal" syncable="YES">
                <attribute name="breed" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Cat" parentEntity="Animal" syncable="YES">
                <attribute name="lives" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            </entity>
        </model>
        """

    /// A store of two dogs, a cat and an animal, damaged by `sql`; returns the bundle and store.
    private func store(_ label: String, damage sql: String?) throws -> (folder: String, bundle: String, store: String) {
        let folder = try TestPaths.temporaryFolder("stranded-\(label)")
        let bundle = try TestPaths.xcodeModelBundle("Animals", versions: [("Animals", Self.contents)], in: folder)
        let store = folder + "/animals.sqlite"
        for (entity, csv) in [("Dog", "name,breed\nrex,lab\nfido,pug\n"), ("Cat", "name,lives\ntom,7\n"), ("Animal", "name\nblob\n")] {
            try csv.write(toFile: folder + "/\(entity).csv", atomically: true, encoding: .utf8)
            let run = try FerryProcess.run(["import", folder + "/\(entity).csv", "--model", bundle, "--entity", entity, "--out", store]
                                           + (entity == "Dog" ? [] : ["--append"]))
            #expect(run.status == 0, "\(run.err)")
        }
        if let sql {
            let database = try SQLiteDatabase(path: store, mode: .readWrite)
            try database.execute(sql)
            try database.close()
        }
        return (folder, bundle, store)
    }

    @Test("a breed on a cat's row and on the parent's row: export, backup and migrate refuse, verify fails, naming the column")
    func subEntityColumnOnOtherRows() throws {
        let (folder, bundle, store) = try store("sibling", damage: "UPDATE ZANIMAL SET ZBREED = 'tabby' WHERE ZNAME IN ('tom', 'blob')")
        let message = "ZANIMAL.ZBREED: 2 values on rows of entities other than Dog, whose column it is (Core Data leaves it NULL there)"
        let export = try FerryProcess.run(["export", store, "--model", bundle, "--out", folder + "/export"])
        #expect(export.status == 5 && export.err.contains(message + ": no file would hold them"), "\(export.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/export"))
        let backup = try FerryProcess.run(["backup", store, "--model", bundle, "--to", folder + "/backups"])
        #expect(backup.status == 5, "\(backup.out)\(backup.err)")
        let migrate = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/migrated.sqlite"])
        #expect(migrate.status == 5 && migrate.err.contains(message + ": no record carries them"), "\(migrate.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/migrated.sqlite"))
        let verify = try FerryProcess.run(["verify", store, "--model", bundle])
        #expect(verify.status == 5 && verify.out.contains("stranded-values"), "\(verify.out)")
        // A selection of records does not claim the whole store: a cat's export is not refused.
        let cats = try FerryProcess.run(["export", store, "--model", bundle, "--entity", "Cat", "--out", folder + "/cats"])
        #expect(cats.status == 0, "\(cats.err)")
    }

    @Test("values in a column the model lacks: export and migrate refuse, verify notes them; an empty such column is no reason")
    func unmodelledColumn() throws {
        let (folder, bundle, store) = try store("extra", damage: "ALTER TABLE ZANIMAL ADD COLUMN ZCOLLAR VARCHAR; UPDATE ZANIMAL SET ZCOLLAR = 'red' WHERE Z_PK = 1")
        let export = try FerryProcess.run(["export", store, "--model", bundle, "--out", folder + "/export"])
        #expect(export.status == 5 && export.err.contains("ZANIMAL.ZCOLLAR: 1 value in a column the model does not have: no file would hold them"),
                "\(export.err)")
        let migrate = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/migrated.sqlite"])
        #expect(migrate.status == 5, "\(migrate.err)")
        let verify = try FerryProcess.run(["verify", store, "--model", bundle])
        #expect(verify.status == 0 && verify.out.contains("ZANIMAL.ZCOLLAR: 1 value in a column the model read"), "\(verify.out)")

        let (emptyFolder, emptyBundle, emptyStore) = try self.store("extra-empty", damage: "ALTER TABLE ZANIMAL ADD COLUMN ZCOLLAR VARCHAR")
        let intact = try FerryProcess.run(["export", emptyStore, "--model", emptyBundle, "--out", emptyFolder + "/export"])
        #expect(intact.status == 0, "\(intact.err)")
    }

    /// A column added by hand to a many-to-many's join table: its values were dropped by export,
    /// backup and restore with exit 0, where the same column in an entity table is refused.
    @Test("values in a join table's column the model lacks: export refuses, naming the table and column")
    func unmodelledJoinColumn() throws {
        let folder = try TestPaths.temporaryFolder("stranded-join")
        let store = try ExportTestSupport.workspace2Store(folder)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        let join = try #require(try database.scalarText("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\' "
            + "AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE') LIMIT 1"))
        try database.execute("ALTER TABLE \(join) ADD COLUMN NOTE TEXT; UPDATE \(join) SET NOTE = 'pair note'")
        let pairs = try #require(try database.scalarInteger("SELECT count(*) FROM \(join)"))
        try database.close()
        let export = try FerryProcess.run(["export", store, "--out", folder + "/export"])
        #expect(export.status == 5 && export.err.contains("\(join).NOTE: \(pairs) values in a column the model does not have"), "\(export.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/export"))
        // Core Data's bookkeeping tables are its own: a column there is not probed (a store of
        // another Core Data release may have more), and the store exports.
        let other = try TestPaths.temporaryFolder("stranded-bookkeeping")
        let kept = try ExportTestSupport.workspace2Store(other)
        try SQLiteDatabase(path: kept, mode: .readWrite).execute("ALTER TABLE Z_PRIMARYKEY ADD COLUMN ZNOTE TEXT; UPDATE Z_PRIMARYKEY SET ZNOTE = 'n'")
        let exported = try FerryProcess.run(["export", kept, "--out", other + "/export"])
        #expect(exported.status == 0, "\(exported.err)")
    }

    /// A part whose vehicle was cleared by hand keeps its position among the vehicle's parts and
    /// the vehicle's entity number: Core Data ignores both, and a file export dropped them with
    /// exit 0 while a PostgreSQL load was said to refuse such a value.
    @Test("an order position and a destination's entity number on a row without its to-one: export, backup and migrate refuse, naming the columns")
    func toOneQualifiersWithoutTheToOne() throws {
        let folder = try TestPaths.temporaryFolder("stranded-fok")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("UPDATE ZPART SET ZVEHICLE = NULL WHERE ZLABEL = 'wheel'")
        let messages = ["Z6_VEHICLE", "Z_FOK_VEHICLE"].map { column in
            "ZPART.\(column): 1 value on rows of Part whose vehicle is NULL (ZVEHICLE), qualifying a to-one they do not have (Core Data ignores them)"
        }
        let export = try FerryProcess.run(["export", store, "--model", model, "--out", folder + "/export"])
        #expect(export.status == 5 && messages.allSatisfy { export.err.contains($0 + ": no file would hold them") }, "\(export.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/export"))
        let backup = try FerryProcess.run(["backup", store, "--model", model, "--to", folder + "/backups"])
        #expect(backup.status == 5, "\(backup.out)\(backup.err)")
        let migrate = try FerryProcess.run(["migrate", store, "--model", model, "--out", folder + "/migrated.sqlite"])
        #expect(migrate.status == 5 && migrate.err.contains(messages[1] + ": no record carries them"), "\(migrate.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/migrated.sqlite"))
        // With its vehicle, the part's position is carried: the undamaged store exports.
        let intact = try PostgresTestSupport.garageStore(at: folder + "/Intact.sqlite", modelFolder: model)
        let exported = try FerryProcess.run(["export", intact, "--model", model, "--out", folder + "/intact"])
        #expect(exported.status == 0, "\(exported.err)")
    }

    @Test("an undamaged store with sub-entities exports, migrates and verifies")
    func intactStorePasses() throws {
        let (folder, bundle, store) = try store("intact", damage: nil)
        let export = try FerryProcess.run(["export", store, "--model", bundle, "--out", folder + "/export"])
        #expect(export.status == 0, "\(export.err)")
        let migrate = try FerryProcess.run(["migrate", store, "--model", bundle, "--out", folder + "/migrated.sqlite"])
        #expect(migrate.status == 0, "\(migrate.err)")
        #expect(try storeRows(folder + "/migrated.sqlite", "SELECT ZNAME || '|' || coalesce(ZBREED, '') || '|' || coalesce(ZLIVES, '') FROM ZANIMAL ORDER BY ZNAME")
                == ["blob||", "fido|pug|", "rex|lab|", "tom||7"])
        let verify = try FerryProcess.run(["verify", store, "--model", bundle])
        #expect(verify.status == 0, "\(verify.out)")
    }
}
