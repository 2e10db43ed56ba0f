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
        ], uniquenessConstraints: [["image"]]),
    ])
    private static let fileName = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"

    /// A store of two photos (image and raw `[0x89, 0x50]`; then no raw, and an image in the
    /// external data folder holding `[1, 2, 3]`), written by Ferry's writer.
    private func makeStore() throws -> String {
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
        row[image] = .blob([ExternalBinaryData.externalTag] + Array(Self.fileName.utf8) + [0])
        row[raw] = .null
        try inserter.insert(row)
        try writer.finish()
        let external = ExternalDataFolder.path(besideStore: path)
        #expect(external == folder + "/.Photos_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(atPath: external, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: external + "/" + Self.fileName))
        return path
    }

    private func images(_ path: String) throws -> [AttributeValue] {
        let cursor = try CoreDataStoreReader(path: path).records(model: model).records(of: "Photo")
        var images: [AttributeValue] = []
        while let record = try cursor.next() { images.append(record.attributes["image"] ?? .null) }
        return images
    }

    @Test("the codec: the inline tag before the bytes, file references by name, bad tags and names refused")
    func codec() throws {
        #expect(ExternalBinaryData.encode([7, 8]) == [1, 7, 8])
        #expect(ExternalBinaryData.encode([]) == [1])
        #expect(try ExternalBinaryData.decode([UInt8]([1, 7, 8])) == .inline([7, 8]))
        #expect(try ExternalBinaryData.decode([UInt8]()) == .inline([]))
        #expect(try ExternalBinaryData.decode([2] + Array("A-1".utf8) + [0, 9]) == .external(fileName: "A-1"))
        #expect(throws: ExternalBinaryDataError.unknownTag(0x89)) { try ExternalBinaryData.decode([UInt8]([0x89, 0x50])) }
        for name in ["", ".", "..", "../x", "a/b"] {
            #expect(throws: ExternalBinaryDataError.invalidFileName(name)) { try ExternalBinaryData.decode([2] + Array(name.utf8) + [0]) }
        }
        #expect(try ExternalBinaryData.bytes(of: [1, 5], storePath: "/nowhere/S.sqlite") == [5])
        #expect {
            try ExternalBinaryData.bytes(of: [2] + Array("F".utf8), storePath: "/nowhere/S.sqlite")
        } throws: { error in
            guard case .unreadableFile(let path, _) = error as? ExternalBinaryDataError else { return false }
            return path == "/nowhere/.S_SUPPORT/_EXTERNAL_DATA/F"
        }
    }

    @Test("values of externally storable attributes carry the inline tag on disk and read back without it; external files are followed")
    func tags() throws {
        let path = try makeStore()
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try database.scalarText("SELECT hex(ZIMAGE) || '|' || hex(ZRAW) FROM ZPHOTO WHERE Z_PK = 1") == "018950|8950")
        #expect(try images(path) == [.binary([0x89, 0x50]), .binary([1, 2, 3])])
    }

    @Test("only a regular file in real folders is read: a symbolic link, a FIFO or a linked folder is refused, naming it")
    func onlyRegularFiles() throws {
        let path = try makeStore()
        let external = ExternalDataFolder.path(besideStore: path)
        let file = external + "/" + Self.fileName
        let outside = try TestPaths.temporaryFolder("outside") + "/secret"
        try Data([9, 9, 9]).write(to: URL(fileURLWithPath: outside))
        func refusal() -> String? {
            do {
                _ = try images(path)
                return nil
            } catch let error as ExternalBinaryDataError {
                guard case .unreadableFile(let named, let reason) = error, named == file else { return "\(error)" }
                return reason
            } catch {
                return "\(error)"
            }
        }
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: outside)
        #expect(refusal()?.contains("is a symbolic link, not a regular file of the store") == true)
        try FileManager.default.removeItem(atPath: file)
        #expect(mkfifo(file, 0o600) == 0)
        #expect(refusal()?.contains("is a FIFO, socket or device") == true)
        // The folder itself linked elsewhere, holding a file of the right name.
        try FileManager.default.removeItem(atPath: external)
        let elsewhere = try TestPaths.temporaryFolder("elsewhere")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: elsewhere + "/" + Self.fileName))
        try FileManager.default.createSymbolicLink(atPath: external, withDestinationPath: elsewhere)
        #expect(refusal()?.contains("_EXTERNAL_DATA is a symbolic link, not a folder of the store") == true)
    }

    @Test("plain values lend inline bytes without their tag and leave a file reference to value(at:)")
    func plainValues() throws {
        let path = try makeStore()
        let cursor = try CoreDataStoreReader(path: path).records(model: model).records(of: "Photo")
        let position = try #require(cursor.attributeNames(of: "Photo")?.firstIndex(of: "image"))
        var lent: [[UInt8]?] = []
        while try cursor.advance() != nil {
            cursor.forEachPlainValue(at: [position]) { _, plain in
                if case .bytes(let bytes)? = plain { lent.append(Array(bytes)) } else { lent.append(nil) }
            }
        }
        #expect(lent == [[0x89, 0x50], nil])
    }

    @Test("update stores the tagged form, and checks uniqueness on it")
    func update() throws {
        let path = try makeStore()
        let store = try MutableStore(path: path, model: model)
        #expect(try store.update("Photo", where: FetchPredicate(format: "raw == nil"), set: [("image", .binary([0xAB]))]) == 1)
        #expect(try storeText(path, "SELECT hex(ZIMAGE) FROM ZPHOTO WHERE Z_PK = 2") == "01AB")
        #expect(try images(path) == [.binary([0x89, 0x50]), .binary([0xAB])])
        #expect {
            try store.update("Photo", where: FetchPredicate(format: "raw == nil"), set: [("image", .binary([0x89, 0x50]))])
        } throws: { error in
            guard case .uniquenessViolation(let entity, let keys, _) = error as? StoreMutationError else { return false }
            return entity == "Photo" && keys == ["image"]
        }
        #expect(try images(path) == [.binary([0x89, 0x50]), .binary([0xAB])])
    }

    private func storeText(_ path: String, _ sql: String) throws -> String? {
        try SQLiteDatabase(path: path, mode: .readOnly).scalarText(sql)
    }
}
