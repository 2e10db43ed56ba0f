import FerryModel
import FerryStore
import FerryTestSupport
import Foundation
import Testing

@Suite("external binary storage")
struct ExternalBinaryDataTests {
    private let model = ManagedObjectModel(name: "M", entities: [
        Entity(name: "Photo", attributes: [
            Attribute(name: "image", type: .binary, allowsExternalBinaryDataStorage: true),
            Attribute(name: "raw", type: .binary),
        ]),
    ])

    @Test("values of externally storable attributes carry the inline tag on disk and read back without it; external files are followed")
    func tags() throws {
        let folder = try TestPaths.temporaryFolder("external")
        let path = folder + "/Photos.sqlite"
        let hashes = VersionHasher.hashes(of: model)
        let writer = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: hashes.entityHashes, versionIdentifiers: [])
        let inserter = try writer.inserter(for: "Photo")
        let image = try #require(inserter.columnIndex(named: "ZIMAGE")), raw = try #require(inserter.columnIndex(named: "ZRAW"))
        var row = [StoreValue](repeating: .null, count: inserter.columns.count)
        row[image] = StoreValue(.binary([0x89, 0x50]), externallyStorable: true)
        row[raw] = StoreValue(.binary([0x89, 0x50]), externallyStorable: false)
        try inserter.insert(row)
        // A value Core Data moved out of the database: tag 2, the file name, NUL.
        row[image] = .blob([ExternalBinaryData.externalTag] + Array("3F2504E0-4F89-11D3-9A0C-0305E82C3301".utf8) + [0])
        try inserter.insert(row)
        try writer.finish()
        let external = ExternalBinaryData.folder(of: path)
        #expect(external == folder + "/.Photos_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(atPath: external, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: external + "/3F2504E0-4F89-11D3-9A0C-0305E82C3301"))

        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try database.scalarText("SELECT hex(ZIMAGE) || '|' || hex(ZRAW) FROM ZPHOTO WHERE Z_PK = 1") == "018950|8950")
        let cursor = try CoreDataStoreReader(path: path).records(model: model).records(of: "Photo")
        #expect(try cursor.next()?.attributes["image"] == .binary([0x89, 0x50]))
        #expect(try cursor.next()?.attributes["image"] == .binary([1, 2, 3]))
    }
}
