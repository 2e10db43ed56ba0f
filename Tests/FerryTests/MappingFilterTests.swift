import Ferry
import FerryMigration
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A written mapping's `where` filter leaves out only the records it says no to: Binary values
/// are values, a pattern that cannot compile fails the mapping, and a filter that cannot be
/// evaluated on a record rejects that record.
@Suite("written mappings: where filters")
struct MappingFilterTests {
    private static let entity = """
        <entity name="Post" representedClassName="Post" syncable="YES">
            <attribute name="title" attributeType="String"/>
            <attribute name="pattern" optional="YES" attributeType="String"/>
            <attribute name="image" optional="YES" attributeType="Binary"/>
        </entity>
        """

    /// Migrates `records` (JSON) from Blog 1 to Blog 2 with a mapping whose filter is `filter`.
    private func migrate(_ filter: String, _ records: String, name: String) throws -> (MigrationSummary, String) {
        let folder = try TestPaths.temporaryFolder(name)
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\#(Self.entity)</model>"#
        let bundle = try TestPaths.xcodeModelBundle("Blog", versions: [("Blog 1", xml), ("Blog 2", xml)], in: folder)
        try Data("mapping \"Blog 1\" -> \"Blog 2\"\nentity Post\n  where \(filter)\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/Blog 1 to Blog 2.mapping"))
        let source = folder + "/posts.json"
        try Data(records.utf8).write(to: URL(fileURLWithPath: source))
        let out = folder + "/Blog2.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(argument: "Post@Blog 1:\(source)")],
                                                             modelPath: bundle, outputPath: out)).run()
        return (summary, out)
    }

    @Test("image != nil keeps the posts that have an image (Binary values read as nil, and every post was filtered out)")
    func binaryIsAValue() throws {
        let posts = #"[{"title": "with", "image": "aGVsbG8="}, {"title": "without"}]"#
        let (kept, out) = try migrate("image != nil", posts, name: "filter-binary")
        #expect(kept.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZTITLE FROM ZPOST") == ["with"])
        let (other, otherOut) = try migrate("image == nil", posts, name: "filter-binary-nil")
        #expect(other.verification?.passed == true)
        #expect(try storeRows(otherOut, "SELECT ZTITLE FROM ZPOST") == ["without"])
    }

    @Test("a MATCHES pattern that does not compile fails the mapping before anything is read (every record was filtered out, exit 0)")
    func badPatternFailsTheMapping() throws {
        let error = try #require(throws: MigrateError.self) { try migrate(#"title MATCHES "[a-""#, #"[{"title": "a"}]"#, name: "filter-regex") }
        #expect(error.description.contains("invalid MATCHES pattern \"[a-\""), "\(error)")
    }

    @Test("a filter naming a relationship says that filters compare attributes only (it said the entity had no such relationship)")
    func relationshipInFilter() throws {
        let folder = try TestPaths.temporaryFolder("filter-relationship")
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Owner" syncable="YES"><attribute name="name" attributeType="String"/></entity>"#
            + #"<entity name="Pet" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner"/></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Pets", versions: [("Pets 1", xml), ("Pets 2", xml)], in: folder)
        try Data("entity Pet\n  where owner != nil\n".utf8).write(to: URL(fileURLWithPath: folder + "/Pets 1 to Pets 2.mapping"))
        try Data(#"[{"name": "rex"}]"#.utf8).write(to: URL(fileURLWithPath: folder + "/pets.json"))
        let error = try #require(throws: MigrateError.self) {
            try MigrateJob(request: MigrateRequest(sources: [MigrationSource(argument: "Pet@Pets 1:\(folder)/pets.json")], modelPath: bundle,
                                                   outputPath: folder + "/out.sqlite")).run()
        }
        #expect(error.description.contains("owner is a relationship of Pet: a record filter compares attributes of the record only"), "\(error)")
        #expect(!error.description.contains("has no attribute or relationship"), "\(error)")
    }

    @Test("a filter that cannot be evaluated on a record rejects that record, named, instead of leaving it out")
    func unevaluableFilterRejects() throws {
        let (summary, out) = try migrate("title MATCHES pattern", #"[{"title": "abc", "pattern": "a.c"}, {"title": "x", "pattern": "[x-"}]"#,
                                         name: "filter-record-regex")
        #expect(summary.rejected == 1 && summary.sampleRejects.first?.reason.contains("invalid MATCHES pattern \"[x-\"") == true,
                "\(summary.sampleRejects)")
        #expect(try storeRows(out, "SELECT ZTITLE FROM ZPOST") == ["abc"])
    }
}

/// Records nested in a record that a `where` filter leaves out are records of their own: they
/// were dropped with their carrier and counted nowhere (the ledger read 1 of a file's 2
/// playlists), exit 0, verified.
@Suite("written mappings: where filters and nested records")
struct FilteredCarrierTests {
    private static func version(note: Bool) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Playlist" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + (note ? #"<attribute name="note" optional="YES" attributeType="String"/>"# : "")
            + #"<relationship name="songs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Song" inverseName="playlist" inverseEntity="Song"/></entity>"#
            + #"<entity name="Song" syncable="YES"><attribute name="title" attributeType="String"/>"#
            + #"<relationship name="playlist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/></entity></model>"#
    }

    @Test("a filtered song's nested playlist, and a filtered playlist's nested songs, are written and counted", arguments: [
        ("Song", #"title != "x""#, #"[{"title": "x", "playlist": {"name": "P"}}, {"title": "y", "playlist": {"name": "Q"}}]"#, ["P|-", "Q|y"], ["y"]),
        ("Playlist", #"name != "P""#, #"[{"name": "P", "songs": [{"title": "x"}, {"title": "z"}]}, {"name": "Q", "songs": [{"title": "y"}]}]"#,
         ["Q|y"], ["x", "y", "z"]),
    ])
    func nestedRecordsOfAFilteredRecord(entity: String, filter: String, json: String, playlists: [String], songs: [String]) throws {
        let folder = try TestPaths.temporaryFolder("filtered-carrier")
        let bundle = try TestPaths.xcodeModelBundle("Music", versions: [("Music 1", Self.version(note: false)), ("Music 2", Self.version(note: true))],
                                                    in: folder)
        try Data("mapping \"Music 1\" -> \"Music 2\"\nentity \(entity)\n  where \(filter)\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/Music 1 to Music 2.mapping"))
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/records.json"))
        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(argument: "\(entity)@Music 1:\(folder)/records.json")],
                                                             modelPath: bundle, outputPath: out)).run()
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(summary.isBalanced && summary.ledgers.reduce(0) { $0 + $1.filtered } == 1, "\(summary.ledgers)")
        let read = Dictionary(summary.ledgers.map { ($0.entity, $0.read) }, uniquingKeysWith: +)
        #expect(read == (entity == "Song" ? ["Song": 2, "Playlist": 2] : ["Playlist": 2, "Song": 3]), "\(summary.ledgers)")
        #expect(try storeRows(out, "SELECT p.ZNAME, coalesce(group_concat(s.ZTITLE), '-') FROM ZPLAYLIST p LEFT JOIN ZSONG s ON s.ZPLAYLIST = p.Z_PK "
                              + "GROUP BY p.Z_PK ORDER BY 1") == playlists)
        #expect(try storeRows(out, "SELECT ZTITLE FROM ZSONG ORDER BY 1") == songs)
    }

    /// The songs' required playlist comes with the playlists' ordered lists; they were written
    /// without it, and verification failed (exit 5, nothing kept). The to-one is read from the
    /// songs' rows too, so they are rejected, as those of an unordered list are.
    @Test("records whose required to-one a filter left out are rejected with it, also when an ordered list holds the pairs (exit 1)")
    func requiredDestinationLeftOutRejects() throws {
        let folder = try TestPaths.temporaryFolder("filtered-required")
        let required = { (note: Bool) in
            Self.version(note: note).replacingOccurrences(of: #"<relationship name="playlist" optional="YES""#, with: #"<relationship name="playlist""#)
                .replacingOccurrences(of: #"toMany="YES" deletionRule"#, with: #"toMany="YES" ordered="YES" deletionRule"#)
        }
        let bundle = try TestPaths.xcodeModelBundle("Music", versions: [("Music 1", required(false)), ("Music 2", required(true))], in: folder)
        try Data(#"[{"name": "A", "songs": [{"title": "a1"}]}, {"name": "x", "songs": [{"title": "b1"}, {"title": "b2"}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/p.json"))
        let imported = try FerryProcess.run(["import", folder + "/p.json", "--model", bundle, "--model-version", "Music 1", "--entity", "Playlist",
                                             "--out", folder + "/source.sqlite"])
        #expect(imported.status == 0, "\(imported.err)")
        try Data("mapping \"Music 1\" -> \"Music 2\"\nentity Playlist\n  where name != \"x\"\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/Music 1 to Music 2.mapping"))
        let run = try FerryProcess.run(["migrate", folder + "/source.sqlite", "--model", bundle, "--out", folder + "/out.sqlite"])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.out.contains("Song.playlist by source key: 1 of 3 links resolved, 2 records rejected (the relationship is required)"),
                "\(run.out)")
        #expect(try storeRows(folder + "/out.sqlite", "SELECT p.ZNAME, s.ZTITLE FROM ZSONG s JOIN ZPLAYLIST p ON s.ZPLAYLIST = p.Z_PK") == ["A|a1"])
    }

    @Test("links to nested records a filter leaves out are dropped with them and counted, as links to a store's")
    func linksToFilteredNestedRecordsCounted() throws {
        let folder = try TestPaths.temporaryFolder("filtered-nested-links")
        let bundle = try TestPaths.xcodeModelBundle("Music", versions: [("Music 1", Self.version(note: false)), ("Music 2", Self.version(note: true))],
                                                    in: folder)
        try Data("mapping \"Music 1\" -> \"Music 2\"\nentity Song\n  where title != \"x\"\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/Music 1 to Music 2.mapping"))
        try Data(#"[{"name": "A", "songs": [{"title": "s0"}, {"title": "x"}, {"title": "s2"}]}, {"name": "B", "songs": [{"title": "x"}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/records.json"))
        let out = folder + "/out.sqlite"
        let summary = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(argument: "Playlist@Music 1:\(folder)/records.json")],
                                                             modelPath: bundle, outputPath: out)).run()
        #expect(summary.verification?.passed == true && !summary.leftSomethingOut)
        let songs = try #require(summary.links.first { $0.relationship == "Playlist.songs" })
        #expect(songs.resolved == 2 && songs.unresolved == 0 && songs.droppedWithDestinations == 2, "\(songs)")
    }
}
