@testable import Ferry
import FerryMigration
import FerryModel
import FerryPostgres
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// `ferry export --to` and `ferry restore postgresql://…` as a user runs them.
@Suite("the ferry command with PostgreSQL", .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
struct PostgresCommandTests {
    struct Run {
        let status: Int32
        let out: String
        let err: String
    }

    func ferry(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExportTestSupport.binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
    }

    @Test("a fleet load prints every store with counts, time and outcome; --json says the same; the exit code says whether all loaded")
    func fleet() throws {
        let folder = try TestPaths.temporaryFolder("pg-cli")
        let model = try PostgresTestSupport.garageModel()
        let stores = try (1...3).map { try PostgresTestSupport.garageStore(at: folder + "/G\($0).sqlite", modelFolder: model, seed: $0) }
        _ = try PostgresTestSupport.garageStore(at: folder + "/G4.sqlite", modelFolder: model, seed: 4)
        let uri = try PostgresTestSupport.database()
        let first = try ferry(["export"] + stores + ["--to", uri, "--jobs", "2"])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("3 of 3 stores loaded"))
        for store in stores {
            let line = first.out.split(separator: "\n").first { $0.hasPrefix(store + " ") }?.split(separator: " ").map(String.init)
            #expect(line?.count == 6 && line?[2] == "14" && line?[3] == "13" && line?[5] == "loaded", "\(first.out)")
        }
        // A run that loaded nothing claims no counts; one that loaded some claims them for those.
        let none = try ferry(["export", stores[0], "--to", uri])
        #expect(none.status == 4 && none.out.contains("0 of 1 stores loaded") && !none.out.contains("equal the store's"), "\(none.out)")
        let some = try ferry(["export", stores[0], folder + "/G4.sqlite", "--to", uri])
        #expect(some.out.contains("1 of 2 stores loaded") && some.out.contains("equal the store's for those loaded"), "\(some.out)")
        let again = try ferry(["export", stores[0], folder + "/missing.sqlite", "--to", uri, "--json"])
        #expect(again.status == 4)
        let line = try #require(try JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any])
        let results = try #require(line["stores"] as? [[String: Any]])
        #expect(results.map { $0["outcome"] as? String } == ["refused", "failed"])
        #expect((results[0]["error"] as? String)?.contains("already in schema") == true)
        #expect(line["loaded"] as? Int == 0 && line["failed"] as? Int == 2)
        let replaced = try ferry(["export", stores[0], "--to", uri, "--replace", "--json"])
        let entry = try #require((try JSONSerialization.jsonObject(with: Data(replaced.out.utf8)) as? [String: Any])?["stores"] as? [[String: Any]])
        #expect(replaced.status == 0 && entry.first?["outcome"] as? String == "replaced" && entry.first?["rows"] as? Int == 14)
        let uuid = try CoreDataStoreReader(path: stores[1]).metadata.storeUUID.text
        let restore = try ferry(["restore", uri, "--store", uuid, "--model", model, "--out", folder + "/R.sqlite"])
        #expect(restore.status == 0, "\(restore.err)")
        #expect(try ExportTestSupport.contents(of: stores[1], modelPath: model) == ExportTestSupport.contents(of: folder + "/R.sqlite", modelPath: model))
        #expect(restore.out.hasSuffix("Vehicle: 1\n13 pairs; rows per entity and pairs per relationship equal the database's\n"), "\(restore.out)")
        let restoredJSON = try ferry(["restore", uri, "--store", uuid, "--model", model, "--out", folder + "/J.sqlite", "--json"])
        let summaryLine = try #require(try JSONSerialization.jsonObject(with: Data(restoredJSON.out.utf8)) as? [String: Any], "\(restoredJSON.out)")
        #expect(summaryLine["records"] as? Int == 14 && summaryLine["pairs"] as? Int == 13 && summaryLine["store"] as? String == folder + "/J.sqlite")
        #expect((summaryLine["entities"] as? [String: Int])?["Part"] == 4)
        let missing = try ferry(["restore", uri, "--store", UUID().uuidString, "--model", model, "--out", folder + "/M.sqlite"])
        #expect(missing.status == 3 && missing.err.contains("holds no store"))
        let verify = try ferry(["verify", uri, "--against", stores[2]])
        #expect(verify.status == 0, "\(verify.out)\(verify.err)")
        // --log json on the PostgreSQL paths too: one JSON object per line, from start to summary or error.
        let logged: [(arguments: [String], last: String)] = [
            (["export", stores[0], "--to", uri], "summary"), (["verify", uri, "--against", stores[2]], "summary"),
            (["restore", uri, "--store", UUID().uuidString, "--model", model, "--out", folder + "/M.sqlite"], "error"),
        ]
        for (arguments, last) in logged {
            let run = try ferry(arguments + ["--log", "json"])
            let events = run.err.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(!events.isEmpty && events.allSatisfy { $0 != nil }, "\(arguments[0]): \(run.err)")
            #expect(events.first??["event"] as? String == "start" && events.last??["event"] as? String == last, "\(arguments[0]): \(run.err)")
            #expect(events.last??["exitCode"] as? Int == Int(run.status), "\(arguments[0]): \(run.err)")
        }
    }

    @Test("migrate --out postgresql:// migrates into a private store, verifies it and loads it; the catalog names the sources")
    func migrate() throws {
        let uri = try PostgresTestSupport.database()
        let legacy = TestPaths.fixtures + "/legacy"
        let run = try ferry(["migrate", "UploadEntity:\(legacy)/uploads.csv", "Task:\(legacy)/tasks.json", "--model", ExportTestSupport.workspace,
                             "--link", "attachments=remotePath", "--link", "tags=name", "--var", "zone=UTC", "--out", uri, "--schema", "w3"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.contains("verified: ") && run.out.contains("1 of 1 stores loaded"))
        let source = try PostgresTestSupport.query(uri, "SELECT source, model FROM w3.ferry_stores")
        #expect(source == [["ferry migrate UploadEntity:\(legacy)/uploads.csv Task:\(legacy)/tasks.json", "Workspace 3"]])
        let tasks = try PostgresTestSupport.query(uri, "SELECT count(*) FROM w3.\"Task\"")
        #expect(tasks.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0 > 0)
        #expect(try ferry(["migrate", "UploadEntity:\(legacy)/uploads.csv", "--model", ExportTestSupport.workspace, "--out", "x.sqlite",
                           "--replace"]).status == 2)
        // The same sources again are the same store (found by a hostile run: each run loaded a
        // second copy under a new UUID, and --replace replaced nothing): refused as loaded, or
        // replaced with --replace, never loaded twice.
        let arguments = ["migrate", "UploadEntity:\(legacy)/uploads.csv", "Task:\(legacy)/tasks.json", "--model", ExportTestSupport.workspace,
                         "--link", "attachments=remotePath", "--link", "tags=name", "--var", "zone=UTC", "--out", uri, "--schema", "w3"]
        let again = try ferry(arguments)
        #expect(again.status == 4 && again.err.contains("is already in schema w3"), "\(again.err)")
        let replaced = try ferry(arguments + ["--replace"])
        #expect(replaced.status == 1 && replaced.out.contains("1 of 1 stores loaded"), "\(replaced.err)")
        #expect(try PostgresTestSupport.query(uri, "SELECT count(*) FROM w3.ferry_stores") == [["1"]])
        #expect(try PostgresTestSupport.query(uri, "SELECT count(*) FROM w3.\"Task\"") == tasks)
    }

    @Test("usage: --to takes no file options, --schema only goes with --to, restore needs --store")
    func usage() throws {
        #expect(try ferry(["export", "a.sqlite", "--to", "postgresql:///x", "--out", "dir"]).status == 2)
        #expect(try ferry(["export", "a.sqlite", "--out", "dir", "--schema", "s"]).status == 2)
        #expect(try ferry(["export", "a.sqlite", "--to", "postgresql:///x", "--jobs", "0"]).status == 2)
        #expect(try ferry(["restore", "postgresql:///x", "--model", "m", "--out", "o"]).err.contains("--store is required"))
        // PostgreSQL keeps pg_ names for itself; every verb says so as a usage error (the load was exit 4).
        for arguments in [["export", "a.sqlite", "--to", "postgresql:///x"], ["restore", "postgresql:///x", "--store", "DC2CE2A7-3DCC-4AB1-B809-C114CD80DA91", "--model", "m", "--out", "o"],
                          ["verify", "postgresql:///x", "--against", "a.sqlite"], ["migrate", "E:a.csv", "--model", "m", "--out", "postgresql:///x"]] {
            let run = try ferry(arguments + ["--schema", "pg_x"])
            #expect(run.status == 2 && run.err.contains("names starting with pg_ are PostgreSQL's own"), "\(arguments[0]): \(run.err)")
        }
    }

    /// The file route named a store failing verify's relationship checks (exit 1); through
    /// PostgreSQL it went at exit 0, its entity column mended to the row's without a word.
    @Test("a store failing verify's relationship checks is named by export --to and by verify postgresql:// --against (exit 1)")
    func damagedStore() throws {
        let server = try PostgresTestServer.running()
        let uri = server.uri(database: try server.database().name)
        let folder = try TestPaths.temporaryFolder("pg-damaged")
        let (store, bundle) = try DamagedStoreReadTests.store(in: folder, required: false, damage: "UPDATE ZTAG SET Z1_MEDIA = 2 WHERE Z_PK = 3")
        let failure = "foreign-key-entity Tag.media: 1 row(s) name another entity in Z1_MEDIA than their destination's Z_ENT (Z_PK 3: "
        let exported = try ferry(["export", store, "--to", uri])
        #expect(exported.status == 1, "\(exported.err)")
        #expect(exported.err.contains("warning: \(store) fails a relationship check of ferry verify (loaded as its rows are): \(failure)"),
                "\(exported.err)")
        // The catalog keeps them, and the restore says them again.
        let uuid = try CoreDataStoreReader(path: store).metadata.storeUUID.text
        let restored = try ferry(["restore", uri, "--store", uuid, "--model", bundle, "--out", folder + "/back.sqlite"])
        #expect(restored.status == 1, "\(restored.err)")
        #expect(restored.err.contains("warning: store \(uuid) fails a relationship check of ferry verify (named when it was loaded; "
            + "restored as the database holds it): \(failure)"), "\(restored.err)")
        let verified = try ferry(["verify", uri, "--against", store])
        #expect(verified.status == 1, "\(verified.out)\(verified.err)")
        #expect(verified.err.contains("fails a relationship check of ferry verify (the database holds its rows as they were loaded): \(failure)"),
                "\(verified.err)")
    }

    /// The relationship checks run on a connection of their own; one that could not open the
    /// store was taken as finding nothing, and the load exited 0 as if they had held.
    @Test("export --to whose relationship checks cannot run (no descriptor left for their connection) exits 1, says why, and restore repeats it")
    func uncheckedRelationships() throws {
        let server = try PostgresTestServer.running()
        let uri = server.uri(database: try server.database().name)
        let folder = try TestPaths.temporaryFolder("pg-unchecked")
        let store = try ExportTestSupport.workspace2Store(folder)
        let uuid = try CoreDataStoreReader(path: store).metadata.storeUUID.text
        // The fewest descriptors a load needs depends on what the process inherits.
        let seen = try ExportTestSupport.sweepDescriptorLimits(
            "'\(ExportTestSupport.binary)' export '\(store)' --to '\(uri)' --replace",
            unchecked: "warning: \(store): ferry verify's relationship checks did not run on the state exported (the checker could not read the store")
        #expect(seen, "no limit left the checker without a descriptor")
        let restored = try ferry(["restore", uri, "--store", uuid, "--model", ExportTestSupport.workspace, "--out", folder + "/back.sqlite"])
        #expect(restored.status == 0, "\(restored.err)")
        #expect(restored.err.contains("warning: store \(uuid): ferry verify's relationship checks did not run on the state exported"), "\(restored.err)")
        // Loaded again with descriptors enough, the checks run and the catalog forgets the old reason.
        let again = try ferry(["export", store, "--to", uri, "--replace"])
        #expect(again.status == 0 && again.err.isEmpty, "\(again.err)")
        let restoredAgain = try ferry(["restore", uri, "--store", uuid, "--model", ExportTestSupport.workspace, "--out", folder + "/again.sqlite"])
        #expect(restoredAgain.status == 0 && restoredAgain.err.isEmpty, "\(restoredAgain.err)")
    }

    @Test("the password never shows: not on a wrong one, not in --json, not from the password file")
    func passwords() throws {
        let server = try PostgresTestServer.running()
        let database = try server.database(owner: PostgresTestServer.passwordUser).name
        let folder = try TestPaths.temporaryFolder("pg-password")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/G.sqlite", modelFolder: model)
        let password = PostgresTestServer.password
        let wrongPassword = "not-" + password
        let wrong = try ferry(["export", store, "--json", "--to", server.uri(database: database, user: PostgresTestServer.passwordUser,
                                                                            password: wrongPassword)])
        #expect(wrong.status == 4 && wrong.out.contains("password authentication failed"))
        #expect(!(wrong.out + wrong.err).contains(password) && !(wrong.out + wrong.err).contains(wrongPassword))
        let right = try ferry(["export", store, "--json", "--to", server.uri(database: database, user: PostgresTestServer.passwordUser,
                                                                            password: password)])
        #expect(right.status == 0, "\(right.err)")
        #expect(!(right.out + right.err).contains(password))
        // The password file, named by PGPASSFILE, for a URI without a password.
        let passfile = folder + "/pgpass"
        try "*:*:*:\(PostgresTestServer.passwordUser):\(password)\n".write(toFile: passfile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passfile)
        let fromFile = try ferry(["export", store, "--replace", "--to", server.uri(database: database, user: PostgresTestServer.passwordUser)],
                                 environment: ["PGPASSFILE": passfile])
        #expect(fromFile.status == 0, "\(fromFile.err)")
        #expect(!(fromFile.out + fromFile.err).contains(password))
        // A failure after connecting (the store is there already) does not show it either.
        let refused = try ferry(["export", store, "--to", server.uri(database: database, user: PostgresTestServer.passwordUser)],
                                environment: ["PGPASSFILE": passfile])
        #expect(refused.status == 4 && !(refused.out + refused.err).contains(password))
        let catalog = try PostgresTestSupport.query(server.uri(database: database), "SELECT * FROM ferry.ferry_stores")
        #expect(!catalog.flatMap { $0 }.contains { $0?.contains(password) == true })
    }
}

extension PostgresCommandTests {
    @Test("no PostgreSQL verb prints the password: export --to, restore, verify and migrate --out, in text, --quiet, --json and --log json, right or wrong, in the URI or as ?password=")
    func noVerbPrintsThePassword() throws {
        let server = try PostgresTestServer.running()
        let database = try server.database(owner: PostgresTestServer.passwordUser).name
        let folder = try TestPaths.temporaryFolder("pg-password-verbs")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/G.sqlite", modelFolder: model)
        let uuid = try CoreDataStoreReader(path: store).metadata.storeUUID.text
        let password = PostgresTestServer.password
        let wrongPassword = "not-" + password
        let user = PostgresTestServer.passwordUser
        let legacy = TestPaths.fixtures + "/legacy"
        var runs = 0
        for given in [password, wrongPassword] {
            let uris = [server.uri(database: database, user: user, password: given),
                        server.uri(database: database, user: user) + "&password=" + given]
            for (form, uri) in uris.enumerated() {
                for mode in [[], ["--quiet"], ["--json"], ["--log", "json"], ["--json", "--log", "json"]] {
                    let restored = folder + "/R\(runs).sqlite"
                    var verbs = [
                        ["export", store, "--to", uri, "--replace"],
                        ["restore", uri, "--store", uuid, "--model", model, "--out", restored],
                        ["verify", uri, "--against", store],
                    ]
                    if mode == ["--json", "--log", "json"] {
                        verbs.append(["migrate", "UploadEntity:\(legacy)/uploads.csv", "Task:\(legacy)/tasks.json", "--model", ExportTestSupport.workspace,
                                      "--link", "attachments=remotePath", "--link", "tags=name", "--var", "zone=UTC", "--out", uri,
                                      "--schema", "m\(form)", "--replace"])
                    }
                    for arguments in verbs {
                        let run = try ferry(arguments + mode)
                        runs += 1
                        let shown = run.out + run.err
                        #expect(!shown.contains(given), "\(arguments[0]) \(mode): \(shown)")
                        #expect((run.status == 0 || run.status == 1) == (given == password), "\(arguments[0]) \(mode): \(run.status) \(shown)")
                        if mode.contains("json"), given == password {
                            #expect(shown.contains("postgresql://\(user)@"), "\(arguments[0]) \(mode): the target is shown without its password")
                        }
                    }
                }
            }
        }
        #expect(runs > 60)
    }
}

@Suite("ferry verify postgresql://… --against STORE", .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
struct PostgresVerifyTests {
    @Test("a schema holding what the store holds passes; a changed value or a lost pair fails with the entity or relationship named")
    func verify() throws {
        let folder = try TestPaths.temporaryFolder("pg-verify")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/G.sqlite", modelFolder: model)
        let uri = try PostgresTestSupport.database()
        #expect(try PostgresTestSupport.load([store], into: uri).allLoaded)
        let job = try PostgresVerifyJob(target: ConnectionTarget(uri), againstPath: store)
        let report = try job.run()
        #expect(report.passed && report.section(named: "counts")?.checks == 14 && (report.section(named: "fingerprints")?.checks ?? 0) > 10)
        try PostgresTestSupport.query(uri, "UPDATE ferry.\"Part\" SET label = 'rim' WHERE label = 'wheel'")
        let changed = try job.run()
        #expect(!changed.passed && changed.failures.map(\.subject) == ["Part"])
        try PostgresTestSupport.query(uri, "DELETE FROM ferry.\"Tag_vehicles\" WHERE destination = (SELECT z_pk FROM ferry.\"Vehicle\" WHERE entity = 'Truck')")
        let lost = try job.run()
        #expect(lost.failures.contains { $0.check == "count" && $0.message.contains("Tag.vehicles: store 3, database 2") })
        #expect(lost.failures.contains { $0.subject.contains("Tag.vehicles") || $0.subject.contains("Vehicle.tags") })
    }

    @Test("the database's counts per entity and per to-one equal the store's; rows naming an entity their table does not hold are counted by that name")
    func databaseCounts() throws {
        let folder = try TestPaths.temporaryFolder("pg-counts")
        let model = try PostgresTestSupport.garageModel()
        let store = try PostgresTestSupport.garageStore(at: folder + "/G.sqlite", modelFolder: model)
        let uri = try PostgresTestSupport.database()
        #expect(try PostgresTestSupport.load([store], into: uri).allLoaded)
        let reader = try CoreDataStoreReader(path: store)
        let records = try reader.records(model: try ExportModelSource.resolve(bundlePath: nil, store: reader).model)
        let layout = try PostgresLayout(model: records.model)
        let own = try TransferCounts.store(census: try reader.census(), reader: records, layout: layout)
        let uuid = reader.metadata.storeUUID.text
        let connection = try PostgresConnection(ConnectionTarget(uri))
        let held = try TransferCounts.database(store: uuid, layout: layout, schema: "ferry", connection: connection)
        #expect(held == own && own.entities["Truck", default: 0] > 0 && own.relationships.values.contains { $0 > 0 })
        try connection.execute("UPDATE ferry.\"Vehicle\" SET entity = 'Boat' WHERE entity = 'Truck'")
        let renamed = try TransferCounts.database(store: uuid, layout: layout, schema: "ferry", connection: connection)
        #expect(renamed.entities["Boat"] == own.entities["Truck"] && renamed.entities["Truck"] == nil)
        #expect(renamed.relationships == own.relationships)
    }
}

extension PostgresCommandTests {
    /// Item (its `fav` a to-one to Special, below Item) and Special: a `fav` may name only a Special.
    static let shelfXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Item" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="fav" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Special" inverseName="fans" inverseEntity="Special"/>
            </entity>
            <entity name="Special" parentEntity="Item" syncable="YES">
                <attribute name="level" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                <relationship name="fans" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="fav" inverseEntity="Item"/>
            </entity>
        </model>
        """

    /// A store of the shelf model whose item `c` has as its `fav` the plain item `a`: a key naming
    /// a row of another entity than its relationship's (`ferry verify` names it).
    static func wrongEntityStore(in folder: String) throws -> (store: String, model: String) {
        let modelFolder = try TestPaths.xcodeModelFolder(shelfXML, name: "Shelf")
        let model = try #require(try XcodeModelLoader.loadBundle(at: modelFolder).versions.first)
        let path = folder + "/Shelf.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                    versionIdentifiers: [""])
        let graph = StoreGraphWriter(writer: writer, model: model)
        for (entity, key, fav) in [("Item", "a", nil), ("Item", "b", "s"), ("Item", "c", "s"), ("Special", "s", nil)] as [(String, String, String?)] {
            let schema = try #require(RecordSchema(model: model, entityName: entity))
            let record = Record(values: schema.attributes.map { $0.name == "name" ? .string(key) : .null }, location: SourceLocation(file: "shelf"),
                                key: .text(key), links: fav.map { [RecordLink(relationship: "fav", targets: [.key(.text($0))])] } ?? [])
            _ = try graph.write(record, schema: schema, namespace: 0)
        }
        _ = try graph.resolveLinks()
        try writer.finish()
        try SQLiteDatabase(path: path, mode: .readWrite).execute("UPDATE ZITEM SET ZFAV = (SELECT Z_PK FROM ZITEM WHERE ZNAME = 'a') WHERE ZNAME = 'c'")
        return (path, modelFolder)
    }

    /// Loaded with exit 1 (its failure named and kept in the catalog), such a store could never
    /// come back: restore and verify postgresql:// counted the pair the new store cannot keep as
    /// lost (exit 5), where the same store through files restores with exit 1.
    @Test("a store whose to-one names a row of another entity is restored from PostgreSQL and verified as through files: exit 1, the pair named as not kept, the failure repeated")
    func wrongEntityKey() throws {
        let folder = try TestPaths.temporaryFolder("pg-wrong-entity")
        let (store, model) = try Self.wrongEntityStore(in: folder)
        let uri = try PostgresTestSupport.database()
        let exported = try ferry(["export", store, "--to", uri])
        #expect(exported.status == 1, "\(exported.err)")
        let failure = "dangling-foreign-key Item.fav: 1 pair(s) in ZITEM.ZFAV point at no row, or at a row that is not a Item → Special"
        #expect(exported.err.contains(failure), "\(exported.err)")
        let uuid = try CoreDataStoreReader(path: store).metadata.storeUUID.text
        let back = folder + "/Back.sqlite"
        let restored = try ferry(["restore", uri, "--store", uuid, "--model", model, "--out", back])
        #expect(restored.status == 1, "\(restored.out)\(restored.err)")
        #expect(restored.err.contains("warning: Item.fav: 1 links to records not in the database"), "\(restored.err)")
        #expect(restored.err.contains("(named when it was loaded; restored as the database holds it): \(failure)"), "\(restored.err)")
        #expect(try storeRows(back, "SELECT ZNAME, ZFAV IS NULL FROM ZITEM ORDER BY ZNAME") == ["a|1", "b|0", "c|1", "s|1"])
        let summary = try PostgresTestSupport.restore(store, from: uri, model: model, to: folder + "/Job.sqlite")
        #expect(summary.counts.relationships["Item.fav"] == 1 && summary.databaseCounts.relationships["Item.fav"] == 2)
        let verified = try ferry(["verify", uri, "--against", store])
        #expect(verified.status == 1, "\(verified.out)\(verified.err)")
        #expect(verified.out.contains("Item.fav: the database holds 1 pair(s) whose destination is no record"), "\(verified.out)")
        // A pair lost on the way is still a failure, the one not kept counted apart.
        try PostgresTestSupport.query(uri, "UPDATE ferry.\"Item\" SET fav = NULL WHERE name = 'b'")
        let lost = try ferry(["restore", uri, "--store", uuid, "--model", model, "--out", folder + "/Lost.sqlite"])
        #expect(lost.status == 1, "\(lost.err)")
        let lostVerify = try ferry(["verify", uri, "--against", store])
        #expect(lostVerify.status == 5 && lostVerify.out.contains("Item.fav: store 2, database 1"), "\(lostVerify.out)\(lostVerify.err)")
    }
}
