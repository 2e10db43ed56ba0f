import Ferry
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// One-to-ones that a store fills on one side only (Apple Notes sets
/// `ICCloudSyncingObject.cloudState` and never its inverse) stay so through `migrate`,
/// `verify --against` and PostgreSQL; where the source holds one side only (a file naming it, a
/// relationship that gains its inverse in a later version), the other is filled from it.
/// Every expectation is read from the stores with plain SQL.
@Suite("one-to-ones filled on one side")
struct OneSidedOneToOneTests {
    /// Version 1: `Member.passport` ⇄ `Passport.holder` (`Member` abstract, `Person` below it,
    /// so the inverse is carried with the records of a sub-entity), and `Person.badge` without
    /// an inverse. Version 2: `holder` renamed `owner`, and `Badge.wearer` added as `badge`'s inverse.
    private static func contents(version: Int) -> String {
        let holder = version == 1 ? "holder" : "owner"
        let renamed = version == 1 ? "" : " elementID=\"holder\""
        let badgeInverse = version == 1 ? "" : " inverseName=\"wearer\" inverseEntity=\"Badge\""
        let wearer = version == 1 ? "" : "\n        <relationship name=\"wearer\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Person\" inverseName=\"badge\" inverseEntity=\"Person\"/>"
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Badge" syncable="YES">
                    <attribute name="code" attributeType="String"/>\(wearer)
                </entity>
                <entity name="Member" isAbstract="YES" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="passport" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Passport" inverseName="\(holder)" inverseEntity="Passport"/>
                </entity>
                <entity name="Passport" syncable="YES">
                    <attribute name="number" attributeType="String"/>
                    <relationship name="\(holder)" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Member" inverseName="passport" inverseEntity="Member"\(renamed)/>
                </entity>
                <entity name="Person" parentEntity="Member" syncable="YES">
                    <relationship name="badge" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Badge"\(badgeInverse)/>
                </entity>
            </model>
            """
    }

    /// `Club.xcdatamodeld` (versions Club and Club 2, the second current) in `folder`.
    private func makeBundle(_ folder: String) throws -> String {
        try TestPaths.xcodeModelBundle("Club", versions: [("Club", Self.contents(version: 1)), ("Club 2", Self.contents(version: 2))], in: folder)
    }

    /// A version 1 store imported from files (each naming one side), then emptied with SQL on one
    /// side of two pairs: ann's passport P1 does not name her as its holder, and bob's P2 names
    /// him while he does not name it.
    private func oneSidedStore(_ folder: String, bundle: String) throws -> String {
        let path = folder + "/club.sqlite"
        try "code\nB1\n".write(toFile: folder + "/badges.csv", atomically: true, encoding: .utf8)
        try #"[{"name": "ann", "badge": "B1"}, {"name": "bob"}, {"name": "cy"}]"#.write(toFile: folder + "/people.json", atomically: true, encoding: .utf8)
        try #"[{"number": "P1", "holder": "ann"}, {"number": "P2", "holder": "bob"}, {"number": "P3", "holder": "cy"}]"#
            .write(toFile: folder + "/passports.json", atomically: true, encoding: .utf8)
        for (file, entity, links) in [("badges.csv", "Badge", [:]), ("people.json", "Person", ["badge": "code"]),
                                      ("passports.json", "Passport", ["holder": "name"])] {
            _ = try ImportJob(request: ImportRequest(sources: [folder + "/" + file], modelPath: bundle, modelVersion: "Club", entity: entity,
                                                     outputPath: path, existingStore: entity == "Badge" ? .refuse : .append,
                                                     files: FileRecordSource(linkAttributes: links))).run()
        }
        // A file names one side; Core Data (and import) fills the other.
        #expect(try storeRows(path, Self.passportsOfPeople(column: "ZPASSPORT")) == ["ann|P1", "bob|P2", "cy|P3"])
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        // As Core Data clears a to-one: its key and the destination's entity number (`Z2_HOLDER`) both.
        try database.execute("UPDATE ZPASSPORT SET ZHOLDER = NULL, Z2_HOLDER = NULL WHERE ZNUMBER = 'P1'; UPDATE ZMEMBER SET ZPASSPORT = NULL WHERE ZNAME = 'bob'")
        return path
    }

    /// Person name → passport number, from the person's own column.
    private static func passportsOfPeople(column: String) -> String {
        "SELECT p.ZNAME, coalesce(q.ZNUMBER, 'NULL') FROM ZMEMBER p LEFT JOIN ZPASSPORT q ON q.Z_PK = p.\(column) ORDER BY p.ZNAME"
    }

    /// Passport number → person name, from the passport's own column.
    private static func holdersOfPassports(column: String) -> String {
        "SELECT q.ZNUMBER, coalesce(p.ZNAME, 'NULL') FROM ZPASSPORT q LEFT JOIN ZMEMBER p ON p.Z_PK = q.\(column) ORDER BY q.ZNUMBER"
    }

    @Test("migrate keeps each side of a one-to-one as the store has it, across a rename; a new inverse is filled")
    func migrateAcrossVersions() throws {
        let folder = try TestPaths.temporaryFolder("one-sided-migrate")
        let bundle = try makeBundle(folder)
        let source = try oneSidedStore(folder, bundle: bundle)
        #expect(try storeRows(source, Self.passportsOfPeople(column: "ZPASSPORT")) == ["ann|P1", "bob|NULL", "cy|P3"])
        #expect(try storeRows(source, Self.holdersOfPassports(column: "ZHOLDER")) == ["P1|NULL", "P2|bob", "P3|cy"])
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, outputPath: folder + "/club2.sqlite")
        let summary = try MigrateJob(request: request).run()
        #expect(summary.chains == [["Club", "Club 2"]])
        let migrated = request.outputPath
        #expect(try storeRows(migrated, Self.passportsOfPeople(column: "ZPASSPORT")) == ["ann|P1", "bob|NULL", "cy|P3"])
        #expect(try storeRows(migrated, Self.holdersOfPassports(column: "ZOWNER")) == ["P1|NULL", "P2|bob", "P3|cy"])
        // Version 1 had no inverse of Person.badge: its store holds that side only, and the new
        // inverse is filled from it, as Core Data fills the other side of a one-to-one.
        #expect(try storeRows(migrated, "SELECT b.ZCODE, p.ZNAME FROM ZBADGE b JOIN ZMEMBER p ON p.Z_PK = b.ZWEARER") == ["B1|ann"])
        let report = try #require(summary.verification)
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")
        let pairs = try #require(report.section(named: "pairs against source store"))
        #expect(pairs.checks == 3 && pairs.failures.isEmpty, "Passport.owner, Person.badge and Person.passport")
        #expect(try SourceVerification.verify(store: migrated, against: request, rerun: true).passed)
    }

    @Test("verify --against fails a store whose empty side was filled from the other, by the source store's own pairs")
    func filledSideFails() throws {
        let folder = try TestPaths.temporaryFolder("one-sided-filled")
        let bundle = try makeBundle(folder)
        let source = try oneSidedStore(folder, bundle: bundle)
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, outputPath: folder + "/club2.sqlite")
        _ = try MigrateJob(request: request).run()
        let database = try SQLiteDatabase(path: request.outputPath, mode: .readWrite)
        try database.execute("""
            UPDATE ZPASSPORT SET (ZOWNER, Z2_OWNER) = (SELECT Z_PK, Z_ENT FROM ZMEMBER WHERE ZNAME = 'ann') WHERE ZNUMBER = 'P1'
            """)
        // Closed before the verify: an open writer is a live connection, and verify refuses a store that may change under it.
        try database.close()
        let report = try SourceVerification.verify(store: request.outputPath, against: request, rerun: true)
        #expect(!report.passed)
        let pairs = try #require(report.section(named: "pairs against source store"))
        #expect(pairs.failures.map(\.subject) == ["Passport.owner"])
        #expect(report.section(named: "relationships")?.failures.isEmpty == true, "both sides agree: only the sources tell")
    }

    @Test("Apple Notes migrates with every one-to-one column as the store has it, and verifies against a copy of itself",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func appleNotes() throws {
        let (folder, store, bundle) = try Self.appleNotesCopy("one-sided-notes")
        let copy = folder + "/NoteStore copy.sqlite"
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        let request = MigrateRequest(sources: [MigrationSource(path: store, kind: .store)], modelPath: bundle, outputPath: folder + "/Migrated.sqlite")
        let summary = try MigrateJob(request: request).run()
        #expect(summary.verification?.passed == true)
        let model = try #require(try XcodeModelLoader.loadBundle(at: bundle).versions.first)
        var columns: [String] = []
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isToMany {
                guard let inverse = model.inverse(of: relationship), !inverse.isToMany else { continue }
                let table = "Z" + (model.rootEntity(of: entity.name)?.name ?? entity.name).uppercased()
                let column = "Z" + relationship.name.uppercased()
                #expect(try storeRows(store, "SELECT name FROM pragma_table_info('\(table)') WHERE name = '\(column)'") == [column])
                let rows = "SELECT Z_PK, \(column) FROM \(table) WHERE \(column) IS NOT NULL ORDER BY Z_PK"
                #expect(try storeRows(request.outputPath, rows) == storeRows(store, rows), "\(table).\(column)")
                columns.append("\(table).\(column)")
            }
        }
        #expect(columns.contains("ZICCLOUDSYNCINGOBJECT.ZCLOUDSTATE") && columns.contains("ZICCLOUDSTATE.ZCLOUDSYNCINGOBJECT"))
        #expect(try storeRows(request.outputPath, "SELECT count(ZCLOUDSTATE) FROM ZICCLOUDSYNCINGOBJECT") == ["28"])
        #expect(try storeRows(request.outputPath, "SELECT count(ZCLOUDSYNCINGOBJECT) FROM ZICCLOUDSTATE") == ["0"])
        let against = MigrateRequest(sources: [MigrationSource(path: copy, kind: .store)], modelPath: bundle, outputPath: store)
        let report = try SourceVerification.verify(store: store, against: against)
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")
        #expect(report.section(named: "pairs against sources")?.failures.isEmpty == true)
        #expect(report.section(named: "pairs against source store")?.checks ?? 0 > 0)
    }

    /// A copy of the Apple Notes corpus store in a new folder named after `label`, and the model
    /// its cache holds, extracted beside it.
    static func appleNotesCopy(_ label: String) throws -> (folder: String, store: String, model: String) {
        let folder = try TestPaths.temporaryFolder(label)
        let store = folder + "/NoteStore.sqlite"
        try FileManager.default.copyItem(atPath: CorpusStores.path(CorpusStores.appleNotes), toPath: store)
        let model = folder + "/Notes.xcdatamodeld"
        _ = try ModelExtractJob(storePath: store, outputPath: model).run()
        return (folder, store, model)
    }

    @Test("a one-to-one filled on one side comes back from PostgreSQL as it was",
          .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
    func postgresRoundTrip() throws {
        let folder = try TestPaths.temporaryFolder("one-sided-pg")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/Garage.sqlite", modelFolder: model)
        do {
            let database = try SQLiteDatabase(path: store, mode: .readWrite)
            try database.execute("UPDATE ZLICENCE SET ZHOLDER = NULL")
        }
        let licences = "SELECT p.ZNAME, l.ZNUMBER FROM ZPERSON p JOIN ZLICENCE l ON l.Z_PK = p.ZLICENCE"
        #expect(try storeRows(store, licences).count == 1)
        let uri = try PostgresTestSupport.database()
        let summary = try PostgresTestSupport.load([store], into: uri)
        #expect(summary.allLoaded, "\(summary.stores.first?.failure?.message ?? "")")
        #expect(try PostgresTestSupport.query(uri, "SELECT count(holder) FROM ferry.\"Licence\"") == [["0"]])
        let restored = folder + "/Restored.sqlite"
        try PostgresTestSupport.restore(store, from: uri, model: model, to: restored)
        #expect(try storeRows(restored, licences) == storeRows(store, licences))
        #expect(try storeRows(restored, "SELECT count(ZHOLDER) FROM ZLICENCE") == ["0"])
    }
}
