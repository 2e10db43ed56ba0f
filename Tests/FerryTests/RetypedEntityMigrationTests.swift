import Ferry
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A written block `entity Media -> Song` (Media becomes abstract, its own records become Songs)
/// carries Media's relationships like its attributes: the block's relationships were matched
/// against a map of its one entity, so `Media.playlist` (to Playlist) matched nothing and every
/// retyped record lost its playlist: exit 5 from one store, exit 0 with another source beside it.
@Suite("records of an entity that becomes abstract, written as a sub-entity, keep their relationships")
struct RetypedEntityMigrationTests {
    private static func version(abstract: Bool) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Playlist" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Media" inverseName="playlist" inverseEntity="Media"/></entity>"#
            + #"<entity name="Media" \#(abstract ? #"isAbstract="YES" "# : "")syncable="YES"><attribute name="title" attributeType="String"/>"#
            + #"<relationship name="playlist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Playlist" inverseName="items" inverseEntity="Playlist"/></entity>"#
            + #"<entity name="Song" parentEntity="Media" syncable="YES"><attribute name="artist" optional="YES" attributeType="String"/></entity></model>"#
    }

    @Test("from one store, and from a store with a file beside it: every pair kept, verified")
    func pairsKept() throws {
        let folder = try TestPaths.temporaryFolder("retyped-entity")
        let bundle = try TestPaths.xcodeModelBundle("Media", versions: [("Media 1", Self.version(abstract: false)),
                                                                      ("Media 2", Self.version(abstract: true))], in: folder)
        try Data("mapping \"Media 1\" -> \"Media 2\"\nentity Media -> Song\n".utf8).write(to: URL(fileURLWithPath: folder + "/Media 1 to Media 2.mapping"))
        try Data(#"[{"name": "A", "items": [{"title": "m1"}, {"title": "s2"}]}, {"name": "B", "items": [{"title": "m3"}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/playlists.json"))
        try Data(#"[{"name": "Z"}]"#.utf8).write(to: URL(fileURLWithPath: folder + "/extra.json"))
        let source = folder + "/source.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [folder + "/playlists.json"], modelPath: bundle, modelVersion: "Media 1", entity: "Playlist",
                                                 outputPath: source)).run()
        let database = try SQLiteDatabase(path: source, mode: .readWrite)
        try database.execute("UPDATE ZMEDIA SET Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Song') WHERE ZTITLE = 's2'")
        try database.close()
        let pairs = "SELECT m.ZTITLE, coalesce(p.ZNAME, '-'), m.Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Song') FROM ZMEDIA m "
            + "LEFT JOIN ZPLAYLIST p ON p.Z_PK = m.ZPLAYLIST ORDER BY 1"
        for (name, sources) in [("one", [MigrationSource(path: source, kind: .store)]),
                                ("two", [MigrationSource(path: source, kind: .store), MigrationSource(argument: "Playlist@Media 1:\(folder)/extra.json")])] {
            let out = folder + "/\(name).sqlite"
            let summary = try MigrateJob(request: MigrateRequest(sources: sources, modelPath: bundle, outputPath: out)).run()
            #expect(summary.verification?.passed == true, "\(name): \(String(describing: summary.verification))")
            #expect(try storeRows(out, pairs) == ["m1|A|1", "m3|B|1", "s2|A|1"], "\(name)")
            #expect(!summary.suggestions.contains { $0.contains("becomes abstract") }, "\(name): \(summary.suggestions)")
        }
    }
}
