import Ferry
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// A store's `Z_UUID` is part of every object's URI (`x-coredata://<Z_UUID>/Entity/pN`), and some
/// tools write it in lowercase. Ferry read it into a `UUID` and wrote `uuidString` back: migrate
/// and restore gave such a store an uppercase UUID, so every URI an app had saved named another
/// store. The text now goes through as it was read.
@Suite("a store's UUID comes out spelled as it went in")
struct StoreUUIDSpellingTests {
    static let lowercase = "25544f4c-935d-4c26-9afc-055c79dc55b4"

    /// A Workspace 2 store whose `Z_UUID` is in lowercase.
    private static func lowercaseStore(_ folder: String) throws -> String {
        let store = try ExportTestSupport.workspace2Store(folder)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("UPDATE Z_METADATA SET Z_UUID = '\(lowercase)'")
        try database.close()
        return store
    }

    /// The store's `Z_UUID` as SQLite holds it.
    static func storedUUID(_ path: String) throws -> String? {
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        defer { try? database.close() }
        return try database.scalarText("SELECT Z_UUID FROM Z_METADATA")
    }

    @Test("migrate --out keeps a lowercase UUID, and verify --against holds it to it")
    func migrateKeepsTheSpelling() throws {
        let folder = try TestPaths.temporaryFolder("uuid-spelling-migrate")
        let source = try Self.lowercaseStore(folder)
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: ExportTestSupport.workspace,
                                     outputPath: folder + "/Workspace3.sqlite", variables: ["zone": "UTC"])
        let summary = try MigrateJob(request: request).run()
        #expect(summary.identity?.uuid.text == Self.lowercase)
        #expect(try Self.storedUUID(request.outputPath) == Self.lowercase)
        let report = try SourceVerification.verify(store: request.outputPath, against: request)
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")

        // Spelled otherwise, it is another URI: verify --against says so.
        let database = try SQLiteDatabase(path: request.outputPath, mode: .readWrite)
        try database.execute("UPDATE Z_METADATA SET Z_UUID = upper(Z_UUID)")
        try database.close()
        let changed = try SourceVerification.verify(store: request.outputPath, against: request)
        #expect(changed.section(named: "identity against sources")?.failures.map(\.check) == ["store-uuid"])
    }

    @Test("export then restore keeps a lowercase UUID, in the manifest and the restored store")
    func restoreKeepsTheSpelling() throws {
        let folder = try TestPaths.temporaryFolder("uuid-spelling-restore")
        let store = try Self.lowercaseStore(folder)
        let export = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        #expect(export.storeUUID.text == Self.lowercase)
        let restored = folder + "/Restored.sqlite"
        _ = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: restored).run()
        #expect(try Self.storedUUID(restored) == Self.lowercase)
    }

    @Test("two spellings of one UUID name the same store; each keeps its text")
    func spellingsCompareAsOneUUID() throws {
        let lower = try #require(StoreUUID(Self.lowercase))
        let upper = try #require(StoreUUID(Self.lowercase.uppercased()))
        #expect(lower.names(sameStoreAs: upper))
        #expect(lower != upper)
        #expect(lower.text == Self.lowercase && upper.text == Self.lowercase.uppercased())
        #expect(StoreUUID("not a uuid") == nil)
        let decoded = try JSONDecoder().decode([StoreUUID].self, from: Data("[\"\(Self.lowercase)\"]".utf8))
        #expect(decoded == [lower])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([StoreUUID].self, from: Data("[\"nope\"]".utf8)) }
    }
}
