import Ferry
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// The check of a migrated store's pairs against its source store when records were left out
/// (here, the records of an entity the new version removes): it was skipped whenever a record
/// was filtered, and pairs lost between two records carried passed with exit 0. It now expects
/// the source's pairs between objects the new store holds, ranked among themselves.
@Suite("pairs against the source store when records were left out")
struct LeftOutRecordPairTests {
    /// `Playlist.songs`, ordered, ⇄ `Song.playlist`; version 1 has `Podcast`, a sub-entity of
    /// `Song`, which version 2 removes.
    private static func version(withPodcast: Bool) -> String {
        let podcast = withPodcast ? #"<entity name="Podcast" parentEntity="Song" syncable="YES"><attribute name="host" optional="YES" attributeType="String"/></entity>"# : ""
        return #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Playlist" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="songs" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Song" inverseName="playlist" inverseEntity="Song"/></entity>"#
            + #"<entity name="Song" syncable="YES"><attribute name="title" attributeType="String"/>"#
            + #"<relationship name="playlist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/></entity>"#
            + podcast + "</model>"
    }

    /// Each playlist's songs in its order, from the store's own columns.
    private static let order = """
        SELECT p.ZNAME || ':' || group_concat(s.ZTITLE, ',') FROM (SELECT * FROM ZSONG ORDER BY ZPLAYLIST, Z_FOK_PLAYLIST) s \
        JOIN ZPLAYLIST p ON p.Z_PK = s.ZPLAYLIST GROUP BY p.ZNAME ORDER BY p.ZNAME
        """

    /// Migrates a store of two playlists, whose songs `p1` and `p3` are podcasts, to version 2,
    /// with the written mapping `mapping` when given.
    private func migrated(_ name: String, mapping: String? = nil) throws -> (request: MigrateRequest, summary: MigrationSummary) {
        let folder = try TestPaths.temporaryFolder(name)
        let bundle = try TestPaths.xcodeModelBundle("Music", versions: [("Music 1", Self.version(withPodcast: true)),
                                                                      ("Music 2", Self.version(withPodcast: false))], in: folder)
        if let mapping { try Data(mapping.utf8).write(to: URL(fileURLWithPath: folder + "/Music 1 to Music 2.mapping")) }
        let json = folder + "/playlists.json"
        try Data(#"[{"name": "A", "songs": [{"title": "s0"}, {"title": "p1"}, {"title": "s2"}, {"title": "s3"}]}, {"name": "B", "songs": [{"title": "p3"}, {"title": "s4"}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: json))
        let source = folder + "/source.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [json], modelPath: bundle, modelVersion: "Music 1", entity: "Playlist", outputPath: source)).run()
        let database = try SQLiteDatabase(path: source, mode: .readWrite)
        try database.execute("UPDATE ZSONG SET Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Podcast') WHERE ZTITLE LIKE 'p%'")
        try database.close()
        #expect(try storeRows(source, Self.order) == ["A:s0,p1,s2,s3", "B:p3,s4"])
        let request = MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle, targetVersion: "Music 2",
                                     outputPath: folder + "/out.sqlite")
        return (request, try MigrateJob(request: request).run())
    }

    @Test("records of a removed entity left out: the pairs between records carried are checked against the source store, in order")
    func checkedWhenLeftOut() throws {
        let (request, summary) = try migrated("left-out-pairs")
        #expect(summary.ledgers.reduce(0) { $0 + $1.filtered } == 2)
        #expect(try storeRows(request.outputPath, Self.order) == ["A:s0,s2,s3", "B:s4"])
        let report = try #require(summary.verification)
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")
        let section = try #require(report.section(named: "pairs against source store"), "\(report.notes)")
        #expect(section.checks == 2 && section.failures.isEmpty, "Playlist.songs and Song.playlist: \(section)")
    }

    @Test("links to records left out are dropped with them, not links that found nothing (exit 1): by a where filter and by a removed entity")
    func linksToLeftOutRecordsDropped() throws {
        let (request, summary) = try migrated("left-out-links", mapping: "mapping \"Music 1\" -> \"Music 2\"\nentity Song\n  where title != \"s2\"\n")
        #expect(summary.ledgers.reduce(0) { $0 + $1.filtered } == 3)
        #expect(try storeRows(request.outputPath, Self.order) == ["A:s0,s3", "B:s4"])
        let songs = try #require(summary.links.first { $0.relationship == "Playlist.songs" })
        #expect(songs.links == 3 && songs.resolved == 3 && songs.unresolved == 0 && songs.droppedWithDestinations == 3, "\(songs)")
        #expect(!summary.leftSomethingOut)
        let report = try #require(summary.verification)
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")
        #expect(report.section(named: "pairs against source store")?.checks == 2, "\(report.notes)")
    }

    @Test("a concrete entity with a sub-entity: its pairs are those of its whole hierarchy's carried objects (a filter elsewhere failed the check, exit 5)")
    func concreteParentWithSubEntity() throws {
        let folder = try TestPaths.temporaryFolder("left-out-hierarchy")
        let (bundle, source) = try MediaHierarchyStore.make(in: folder, abstractMedia: false, mapping: "entity Playlist\n  where name != \"x\"\n",
                                                            second: "x")
        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: source, kind: .store)], modelPath: bundle,
                                                             outputPath: out)).run()
        let report = try #require(summary.verification)
        #expect(report.passed, "\(report.sections.flatMap(\.failures))")
        #expect(report.section(named: "pairs against source store")?.failures.isEmpty == true, "\(report.notes)")
        #expect(try storeRows(out, "SELECT m.ZTITLE, coalesce(p.ZNAME, '-') FROM ZMEDIA m LEFT JOIN ZPLAYLIST p ON p.Z_PK = m.ZPLAYLIST ORDER BY 1")
                == ["m1|A", "m3|-", "s2|A"])
    }

    @Test("a pair lost between two records carried, or a list reordered, fails the check against the source store")
    func lostOrReorderedFails() throws {
        for (name, change) in [("lost", "UPDATE ZSONG SET ZPLAYLIST = NULL, Z_FOK_PLAYLIST = NULL WHERE ZTITLE = 's2'"),
                               ("reordered", "UPDATE ZSONG SET Z_FOK_PLAYLIST = 1000000 WHERE ZTITLE = 's0'")] {
            let (request, _) = try migrated("left-out-pairs-\(name)")
            let database = try SQLiteDatabase(path: request.outputPath, mode: .readWrite)
            try database.execute(change)
            try database.close()
            let report = try SourceVerification.verify(store: request.outputPath, against: request, rerun: true)
            let section = try #require(report.section(named: "pairs against source store"), "\(name): \(report.notes)")
            #expect(!section.failures.isEmpty, "\(name)")
            #expect(!report.passed, "\(name)")
        }
    }
}
