import FerryModel
import FerryStore
import FerryTestSupport
import Testing

/// Every corpus store's `Z_MODELCACHE` written as Xcode XML and loaded back: the XML model must
/// have the store's own version hashes, so a store without an `.xcdatamodeld` (SwiftData, a model
/// built in code, Apple's own apps) gets one that Core Data would take for its model.
@Suite("model caches written as Xcode XML", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct ModelCacheXMLTests {
    @Test("cache → XML → load gives the store's NSStoreModelVersionHashes", arguments: CorpusStores.all)
    func cacheAsXML(_ relative: String) throws {
        let store = try CoreDataStoreReader(path: CorpusStores.path(relative))
        guard let cache = try store.modelCache() else { return }
        let model = try ModelArchiveDecoder.decodeModelCache(cache, name: "Extracted")
        let xml = String(decoding: try XcodeModelWriter.contents(of: model), as: UTF8.self)
        let loaded = try XcodeModelLoader.loadModel(at: try TestPaths.xcodeModelFolder(xml, name: "Extracted"))
        let hashes = VersionHasher.hashes(of: loaded)
        #expect(!store.metadata.versionHashes.isEmpty)
        #expect(Set(hashes.entityHashes.keys) == Set(store.metadata.versionHashes.keys))
        #expect(hashes.differingEntities(from: store.metadata.versionHashes) == [])
        #expect(XcodeModelWriter.unwrittenParts(of: model).filter(\.changesVersionHash) == [])
        #expect(try XcodeModelWriter.contents(of: loaded) == XcodeModelWriter.contents(of: model), "written twice alike")
    }

    @Test("every store with a model cache is among them")
    func coverage() throws {
        let withCache = try CorpusStores.all.filter { try CoreDataStoreReader(path: CorpusStores.path($0)).modelCache() != nil }
        #expect(withCache.count >= 30)
        #expect(withCache.contains(CorpusStores.cartKit[1]))
    }
}
