import Ferry
import FerryFormats
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// A Binary attribute that allows external storage is stored tagged (`ExternalBinaryData`): every
/// verb writes the tagged form and shows the value itself.
@Suite("binary attributes that allow external storage, through every verb")
struct ExternalBinaryVerbTests {
    static let model = ManagedObjectModel(name: "Photos", entities: [
        Entity(name: "Album", attributes: [Attribute(name: "title", type: .string)],
               relationships: [Relationship(name: "photos", destinationEntity: "Photo", inverseName: "album", isToMany: true)]),
        Entity(name: "Photo", attributes: [
            Attribute(name: "number", type: .integer64),
            Attribute(name: "image", type: .binary, allowsExternalBinaryDataStorage: true),
            Attribute(name: "raw", type: .binary),
        ], relationships: [Relationship(name: "album", destinationEntity: "Album", inverseName: "photos")]),
    ])
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
    /// The name of the file a value moved out of the database is in.
    static let fileName = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"

    /// `Photos.sqlite`, written by Ferry's writer: album 1; photo 1 in it, with `image` and `raw`
    /// set to `png`; photo 2 with neither; and with `external` a photo 3 in album 1 whose image
    /// is in a file of the external data folder (holding `[7, 8, 9]`).
    static func makeStore(_ label: String, external: Bool = false) throws -> String {
        let folder = try TestPaths.temporaryFolder(label)
        let path = folder + "/Photos.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                    versionIdentifiers: [""])
        let albums = try writer.inserter(for: "Album")
        try albums.insert(albums.columns.map { $0.role == .attribute(entity: "Album", name: "title") ? .text("A") : .null })
        let photos = try writer.inserter(for: "Photo")
        func insert(_ values: [String: StoreValue], album: Int64?) throws {
            try photos.insert(photos.columns.map { column in
                switch column.role {
                case .attribute(_, let name): values[name] ?? .null
                case .toOne: album.map(StoreValue.integer) ?? .null
                default: .null
                }
            })
        }
        try insert(["number": .integer(1), "image": StoreValue(.binary(png), externallyStorable: true),
                    "raw": StoreValue(.binary(png), externallyStorable: false)], album: 1)
        try insert(["number": .integer(2)], album: nil)
        if external {
            try insert(["number": .integer(3), "image": .blob([ExternalBinaryData.externalTag] + Array(fileName.utf8) + [0])], album: 1)
            let files = folder + "/.Photos_SUPPORT/_EXTERNAL_DATA"
            try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
            try Data([7, 8, 9]).write(to: URL(fileURLWithPath: files + "/" + fileName))
        }
        try writer.finish()
        return path
    }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    private func query(_ store: String, format: QueryFormat = .json, where predicate: String? = nil) throws -> String {
        let path = try TestPaths.temporaryFolder("external-query") + "/out"
        let sink = try FileByteSink(path: path)
        try QueryJob(request: QueryRequest(storePath: store, entity: "Photo", predicate: predicate, format: format)).run(to: sink)
        try sink.close()
        return String(decoding: try TestPaths.read(path), as: UTF8.self)
    }

    /// The JSON rows of a query, by `number`.
    private func rows(_ store: String, where predicate: String? = nil) throws -> [Int: [String: Any]] {
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(query(store, where: predicate).utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["number"] as? Int ?? -1, $0) })
    }

    /// The NDJSON export of the photos, by `number`.
    private func exported(_ store: String) throws -> [Int: [String: Any]] {
        let folder = try TestPaths.temporaryFolder("external-export")
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder, format: .ndjson)).run()
        let lines = String(decoding: try TestPaths.read(folder + "/Photo.ndjson"), as: UTF8.self).split(separator: "\n")
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        return Dictionary(uniqueKeysWithValues: objects.map { ($0["number"] as? Int ?? -1, $0) })
    }

    @Test("query shows the value of a store Ferry's writer made, not the tagged column")
    func queryWrittenStore() throws {
        let store = try Self.makeStore("external-written")
        #expect(try storeRows(store, "SELECT hex(ZIMAGE) FROM ZPHOTO WHERE ZNUMBER = 1") == ["0189504E47"])
        let photos = try rows(store)
        #expect(photos[1]?["image"] as? String == Self.base64(Self.png))
        #expect(photos[1]?["raw"] as? String == Self.base64(Self.png))
        #expect(photos[2]?["image"] is NSNull)
        let table = try query(store, format: .table)
        #expect(table.contains("<4 bytes>") && !table.contains("<5 bytes>"))
        let csv = try query(store, format: .csv)
        #expect(csv.contains(",\(Self.base64(Self.png)),\(Self.base64(Self.png))\r\n"))
    }

    @Test("update --set stores Core Data's tagged form: verify passes, query and export give the bytes")
    func updateThenRead() throws {
        let store = try Self.makeStore("external-update")
        let bytes: [UInt8] = [0xAB, 0xCD, 0xEF]
        let changed = try UpdateJob(storePath: store, entity: "Photo", predicate: "number == 2",
                                    assignments: [("image", Self.base64(bytes)), ("raw", Self.base64(bytes))]).run()
        #expect(changed == 1)
        #expect(try storeRows(store, "SELECT hex(ZIMAGE) || '|' || hex(ZRAW) FROM ZPHOTO WHERE ZNUMBER = 2") == ["01ABCDEF|ABCDEF"])
        let report = try StoreVerifier(path: store).verify()
        #expect(report.passed, "\(report.failures.map(\.message))")
        #expect(try rows(store)[2]?["image"] as? String == Self.base64(bytes))
        let records = try exported(store)
        #expect(records[2]?["image"] as? String == Self.base64(bytes))
        #expect(records[1]?["image"] as? String == Self.base64(Self.png))
        let cursor = try CoreDataStoreReader(path: store).records(model: Self.model).records(of: "Photo")
        var images: [AttributeValue] = []
        while let record = try cursor.next() { images.append(record.attributes["image"] ?? .null) }
        #expect(images == [.binary(Self.png), .binary(bytes)])
    }

    /// Verify, export and backup of a store an app keeps writing read a copy of one committed
    /// state of it in a scratch folder; the values kept outside the database were not beside the
    /// copy, and a sound store failed its check (exit 5: "external data file … No such file").
    @Test("a committed copy of a store brings the values kept outside the database beside it, and the source's stay")
    func committedCopyKeepsExternalValues() throws {
        let store = try Self.makeStore("external-committed-copy", external: true)
        let folder = try ScratchFolder.make(purpose: "test")
        defer { folder.remove() }
        let copy = try CommittedStoreCopy.make(of: store, in: folder).path
        #expect(copy != store && copy.hasSuffix("/Photos.sqlite"))
        // The scratch folder is private: it holds a copy of the store and links to its files.
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let report = try StoreVerifier(path: copy, model: .model(Self.model)).verify()
        #expect(report.passed, "\(report.failures)")
        #expect(try rows(copy)[3]?["image"] as? String == Self.base64([7, 8, 9]))
        #expect(FileManager.default.fileExists(atPath: ExternalDataFolder.path(besideStore: store) + "/" + Self.fileName))
    }

    @Test("a value in the external data folder is read from its file by query and export; a missing file is an error naming the row")
    func externalReference() throws {
        let store = try Self.makeStore("external-file", external: true)
        #expect(try rows(store)[3]?["image"] as? String == Self.base64([7, 8, 9]))
        #expect(try exported(store)[3]?["image"] as? String == Self.base64([7, 8, 9]))
        #expect(try query(store, format: .table).contains("<3 bytes>"))
        let file = ExternalDataFolder.path(besideStore: store) + "/" + Self.fileName
        try FileManager.default.removeItem(atPath: file)
        #expect {
            _ = try query(store)
        } throws: { error in
            guard case .unreadableValue(let path, _, let primaryKey, let attribute, .unreadableFile(let missing, _)) = error as? QueryError else {
                return false
            }
            return path == store && primaryKey == 3 && attribute == "image" && missing == file
        }
    }

    @Test("verify's edge keys read such attributes as their values: inline bytes without the tag, an external file's content")
    func edgeKeys() throws {
        let store = try Self.makeStore("external-edges", external: true)
        let edges = try StoreVerifier(path: store).edgeFingerprint(of: "album", of: "Photo", sourceKey: .attributes(["image"]),
                                                                   destinationKey: .primaryKey)
        var expected = Fingerprint()
        expected.add(source: [.binary(Self.png)], destination: [.integer(1)])
        expected.add(source: [.binary([7, 8, 9])], destination: [.integer(1)])
        #expect(edges == expected)
    }

    @Test("predicates compare such attributes with nil only: == nil selects by the column, bytes are refused")
    func predicates() throws {
        let store = try Self.makeStore("external-predicate")
        #expect(try rows(store, where: "image != nil").keys.sorted() == [1])
        #expect(try rows(store, where: "image == nil").keys.sorted() == [2])
        #expect(try UpdateJob(storePath: store, entity: "Photo", predicate: "image == nil", assignments: [("image", Self.base64([1]))]).run() == 1)
        #expect(try storeRows(store, "SELECT hex(ZIMAGE) FROM ZPHOTO WHERE ZNUMBER = 2") == ["0101"])
        #expect {
            _ = try query(store, where: "image == '\(Self.base64(Self.png))'")
        } throws: { error in
            guard case .predicate(.typeMismatch(let keyPath, _)) = error as? QueryError else { return false }
            return keyPath == "image"
        }
    }
}
