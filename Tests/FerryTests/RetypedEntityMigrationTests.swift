import Ferry
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
    @Test("from one store, and from a store with a file beside it: every pair kept, verified (ordered: a playlist's list mixes songs that were Media and Songs, a false failure, exit 5)",
          arguments: [false, true])
    func pairsKept(orderedItems: Bool) throws {
        let folder = try TestPaths.temporaryFolder("retyped-entity")
        let (bundle, source) = try MediaHierarchyStore.make(in: folder, abstractMedia: true, orderedItems: orderedItems,
                                                            mapping: "entity Media -> Song\n", second: "B")
        try Data(#"[{"name": "Z"}]"#.utf8).write(to: URL(fileURLWithPath: folder + "/extra.json"))
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
