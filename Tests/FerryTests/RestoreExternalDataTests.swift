@testable import Ferry
import FerryFormats
import FerryStore
import FerryTestSupport
import FerryVerify
import Foundation
import Testing

/// A restore wrote every value of a Binary attribute that allows external storage in its row
/// (tag 0x01), where the backed-up store kept some in files of its external data folder (tag
/// 0x02 and the file's name): the backup held the values but not which were outside, nor under
/// which names. The manifest now names them (`EntityFile.externalData`), and a restore keeps
/// them outside again under the same names; a manifest without them restores as before.
@Suite("a restore keeps outside their rows the values the backed-up store kept outside")
struct RestoreExternalDataTests {
    private static let model = ExternalBinaryVerbTests.model

    /// The rows of a table of `store`, as SQLite holds them (each value with its storage class),
    /// in `Z_PK` order.
    static func rows(_ table: String, of store: String) throws -> [[String]] {
        let database = try SQLiteDatabase(path: store, mode: .readOnly)
        defer { try? database.close() }
        let statement = try database.prepare("SELECT * FROM \(table) ORDER BY Z_PK")
        defer { statement.finalize() }
        var rows: [[String]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { index in
                switch statement.value(at: index).storageClass {
                case .blob: "blob " + (statement.bytes(at: index) ?? []).map { String($0) }.joined(separator: ".")
                case let other: "\(other) " + (statement.string(at: index) ?? "")
                }
            })
        }
        return rows
    }

    /// A backup of the Photos store with photo 3's image outside its row.
    private func backup() throws -> (store: String, backup: String) {
        let store = try ExternalBinaryVerbTests.makeStore("restore-external", external: true)
        let backup = try BackupJob(storePath: store, folder: FilePath.split(store).folder + "/backups").run().path
        return (store, backup)
    }

    private func restore(_ backup: String, to output: String, replacing: Bool = false) throws -> RestoreJob.Summary {
        try RestoreJob(folder: backup, model: .version(Self.model, origin: "Photos"), outputPath: output, replaceExisting: replacing).run()
    }

    @Test("the value the store kept in a file is kept in a file of the same name: the tables are the store's, byte for byte")
    func sameLayout() throws {
        let (store, backup) = try backup()
        let manifest = try ManifestFile.read(inFolder: backup)
        #expect(manifest.file(for: "Photo")?.externalData == ["image": ["3": ExternalBinaryVerbTests.fileName]])
        let output = FilePath.split(store).folder + "/Restored.sqlite"
        let summary = try restore(backup, to: output)
        #expect(summary.compared)
        for table in ["ZPHOTO", "ZALBUM"] { #expect(try Self.rows(table, of: output) == Self.rows(table, of: store), "\(table)") }
        let file = ExternalDataFolder.path(besideStore: output) + "/" + ExternalBinaryVerbTests.fileName
        #expect(try TestPaths.read(file) == [7, 8, 9])
        let report = try StoreVerifier(path: output, model: .model(Self.model)).verify()
        #expect(report.passed, "\(report.failures)")
        // Nothing of the store as it was built is left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: FilePath.split(output).folder)
        #expect(!left.contains { $0.contains(".ferry-") }, "\(left)")
    }

    @Test("a manifest that names no values outside (an older Ferry's) restores every value in its row, as before")
    func olderManifest() throws {
        let (store, backup) = try backup()
        var manifest = try ManifestFile.read(inFolder: backup)
        for index in manifest.entities.indices { manifest.entities[index].externalData = nil }
        try FileManager.default.removeItem(atPath: backup + "/" + ExportManifest.fileName)
        try ManifestFile.write(manifest, to: backup + "/" + ExportManifest.fileName, durable: false)
        let output = FilePath.split(store).folder + "/Restored.sqlite"
        _ = try restore(backup, to: output)
        let photo = try #require(try Self.rows("ZPHOTO", of: output).first { $0.contains("integer 3") })
        #expect(photo.contains("blob \([ExternalBinaryData.inlineTag, 7, 8, 9].map { String($0) }.joined(separator: "."))"), "\(photo)")
        #expect(FileInfo.kind(atPath: ExternalDataFolder.path(besideStore: output)) == nil)
    }

    @Test("a file of that name with other bytes beside the store replaced is refused: the store in place and its files are left as they were")
    func clashRefused() throws {
        let (store, backup) = try backup()
        let file = ExternalDataFolder.path(besideStore: store) + "/" + ExternalBinaryVerbTests.fileName
        try Data([1, 2]).write(to: URL(fileURLWithPath: file))
        let before = try TestPaths.read(store)
        let error = try #require(throws: ExportError.self) { try restore(backup, to: store, replacing: true) }
        #expect(error.isDestinationFailure && error.description.contains(file), "\(error)")
        #expect(try TestPaths.read(store) == before)
        #expect(try TestPaths.read(file) == [1, 2])
    }

    /// A store replaced by `restore --force` kept values in files the restored store does not
    /// name: they stayed beside it for good (Core Data never removes a file no row names).
    @Test("restore --force removes the files only the replaced store named, keeps the new store's and files no store named, follows no link")
    func replacedStoresFilesRemoved() throws {
        let (store, backup) = try backup()
        let folder = ExternalDataFolder.path(besideStore: store)
        // After the backup, the store names two more files: photo 1's image, and photo 2's as a
        // link to a file outside. Another file is in the folder that no row names.
        let old = "11111111-1111-1111-1111-111111111111", link = "22222222-2222-2222-2222-222222222222"
        try keepOutside(photo: 1, of: store, in: old, bytes: [1, 2, 3])
        let outside = FilePath.split(store).folder + "/outside"
        try Data([4, 5, 6]).write(to: URL(fileURLWithPath: outside))
        try keepOutside(photo: 2, of: store, in: link, bytes: [])
        try FileManager.default.removeItem(atPath: folder + "/" + link)
        try FileManager.default.createSymbolicLink(atPath: folder + "/" + link, withDestinationPath: outside)
        try Data([9]).write(to: URL(fileURLWithPath: folder + "/stray"))
        let summary = try restore(backup, to: store, replacing: true)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left == [ExternalBinaryVerbTests.fileName, link, "stray"].sorted(), "\(left)")
        #expect(try TestPaths.read(folder + "/" + ExternalBinaryVerbTests.fileName) == [7, 8, 9])
        #expect(try TestPaths.read(outside) == [4, 5, 6])
        // The link the replaced store named could not be removed as a file of the store: said.
        #expect(summary.externalFileWarnings.count == 1 && summary.externalFileWarnings[0].contains(link), "\(summary.externalFileWarnings)")
        let report = try StoreVerifier(path: store, model: .model(Self.model)).verify()
        #expect(report.passed, "\(report.failures)")
    }

    /// The values a restore moves out of their rows are written beside the store it builds; a
    /// run killed with SIGKILL left them there (the next run's sweep knew only the store's file).
    @Test("the next run to the destination removes a dead run's store and the values it had moved out of its rows")
    func deadRunsValuesSwept() throws {
        let (store, backup) = try backup()
        let output = FilePath.split(store).folder + "/Restored.sqlite"
        // What a restore killed after moving a value out leaves: its store, whose lock died with
        // it, and the external data folder beside it.
        let leftover = OwnedTemporary.name(beside: output)
        try Data().write(to: URL(fileURLWithPath: leftover))
        let values = ExternalDataFolder.path(besideStore: leftover)
        try FileManager.default.createDirectory(atPath: values, withIntermediateDirectories: true)
        try Data([7, 8, 9]).write(to: URL(fileURLWithPath: values + "/" + ExternalBinaryVerbTests.fileName))
        _ = try restore(backup, to: output)
        let left = try FileManager.default.contentsOfDirectory(atPath: FilePath.split(output).folder)
        #expect(!left.contains { $0.contains(".ferry-") }, "\(left)")
    }

    /// Sets photo `primaryKey`'s image of `store` to the value in the file `name` of its
    /// external data folder, which holds `bytes`.
    private func keepOutside(photo primaryKey: Int64, of store: String, in name: String, bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: ExternalDataFolder.path(besideStore: store) + "/" + name))
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        defer { try? database.close() }
        let update = try database.prepare("UPDATE ZPHOTO SET ZIMAGE = ? WHERE Z_PK = ?")
        defer { update.finalize() }
        try update.bindBlob(ExternalBinaryData.reference(to: name), at: 1)
        try update.bind(primaryKey, at: 2)
        try update.run()
    }

    /// A record a restore rejects is not in the store it builds: its value outside was counted as
    /// one "its records do not hold", and the restore failed its check (exit 5) where it had
    /// restored the rest and said what it rejected (exit 1).
    @Test("a record rejected by the restore needs no file of its value: the rest is restored, the reject said (exit 1)")
    func rejectedRecordsValue() throws {
        let folder = try TestPaths.temporaryFolder("restore-external-rejected")
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Album" syncable="YES"><attribute name="title" attributeType="String"/></entity>
                <entity name="Photo" syncable="YES">
                    <attribute name="number" attributeType="Integer 64" usesScalarValueType="YES"/>
                    <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    <relationship name="album" maxCount="1" deletionRule="Nullify" destinationEntity="Album"/>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Albums", versions: [("Albums", contents)], in: folder)
        try #"[{"title": "a"}]"#.write(toFile: folder + "/albums.json", atomically: true, encoding: .utf8)
        try #"[{"number": 1, "image": "AQID", "album": "a"}, {"number": 2, "image": "BAUG", "album": "a"}]"#
            .write(toFile: folder + "/photos.json", atomically: true, encoding: .utf8)
        let store = folder + "/Albums.sqlite"
        #expect(try FerryProcess.run(["import", folder + "/albums.json", "--model", bundle, "--entity", "Album", "--out", store]).status == 0)
        #expect(try FerryProcess.run(["import", folder + "/photos.json", "--model", bundle, "--entity", "Photo", "--out", store, "--append",
                                      "--link", "album=title"]).status == 0)
        // Both images outside; photo 2's album key dangles, so a restore rejects photo 2.
        try FileManager.default.createDirectory(atPath: ExternalDataFolder.path(besideStore: store), withIntermediateDirectories: true)
        try keepOutside(photo: 1, of: store, in: "11111111-1111-1111-1111-111111111111", bytes: [1, 2, 3])
        try keepOutside(photo: 2, of: store, in: "22222222-2222-2222-2222-222222222222", bytes: [4, 5, 6])
        try SQLiteDatabase(path: store, mode: .readWrite).execute("UPDATE ZPHOTO SET ZALBUM = 99 WHERE Z_PK = 2")
        #expect(try FerryProcess.run(["export", store, "--out", folder + "/out"]).status == 1)
        let output = folder + "/Restored.sqlite"
        let restored = try FerryProcess.run(["restore", folder + "/out", "--model", bundle, "--out", output])
        #expect(restored.status == 1 && restored.err.contains("1 record not restored"), "\(restored.err)")
        let files = ExternalDataFolder.path(besideStore: output)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files) == ["11111111-1111-1111-1111-111111111111"])
    }

    /// Rows of a store may name one file (`ExternalFileRelease`: a delete keeps a file other rows
    /// still name). Restore refused such a manifest, so the backup of a store `ferry verify`
    /// passes failed its restore check (exit 5) and no restore of it was possible.
    @Test("values of several records that share one file are kept in that file, written once: the tables are the store's")
    func sharedFile() throws {
        let store = try ExternalBinaryVerbTests.makeStore("restore-external-shared", external: true)
        try keepOutside(photo: 1, of: store, in: ExternalBinaryVerbTests.fileName, bytes: [7, 8, 9])
        let backup = try BackupJob(storePath: store, folder: FilePath.split(store).folder + "/backups").run().path
        let output = FilePath.split(store).folder + "/Restored.sqlite"
        #expect(try restore(backup, to: output).compared)
        #expect(try Self.rows("ZPHOTO", of: output) == Self.rows("ZPHOTO", of: store))
        #expect(try FileManager.default.contentsOfDirectory(atPath: ExternalDataFolder.path(besideStore: output)) == [ExternalBinaryVerbTests.fileName])
    }

    @Test("a manifest naming one file for values of other bytes is refused (exit 5), nothing written")
    func sharedFileOfOtherBytes() throws {
        let (store, backup) = try backup()
        var manifest = try ManifestFile.read(inFolder: backup)
        let index = try #require(manifest.entities.firstIndex { $0.entity == "Photo" })
        // Photo 1's image (png, in its row) named for photo 3's file ([7, 8, 9]).
        manifest.entities[index].externalData?["image"]?["1"] = ExternalBinaryVerbTests.fileName
        try FileManager.default.removeItem(atPath: backup + "/" + ExportManifest.fileName)
        _ = try ManifestFile.write(manifest, to: backup + "/" + ExportManifest.fileName, durable: false)
        let output = FilePath.split(store).folder + "/Restored.sqlite"
        let error = try #require(throws: ExportError.self) { try restore(backup, to: output) }
        #expect(error.isVerificationFailure && error.description.contains(ExternalBinaryVerbTests.fileName), "\(error)")
        #expect(FileInfo.kind(atPath: output) == nil)
        #expect(FileInfo.kind(atPath: FilePath.split(ExternalDataFolder.path(besideStore: output)).folder) == nil)
    }

    /// The errors of a manifest's `externalData` named `manifest.json`, not the backup's.
    @Test("externalData naming what a restore cannot keep is refused with the path of the backup's manifest (exit 3)")
    func badNamesNameTheManifest() throws {
        let (store, backup) = try backup()
        var manifest = try ManifestFile.read(inFolder: backup)
        let index = try #require(manifest.entities.firstIndex { $0.entity == "Photo" })
        manifest.entities[index].externalData?["raw"] = ["1": ExternalBinaryVerbTests.fileName]
        try FileManager.default.removeItem(atPath: backup + "/" + ExportManifest.fileName)
        _ = try ManifestFile.write(manifest, to: backup + "/" + ExportManifest.fileName, durable: false)
        let error = try #require(throws: ExportError.self) { try restore(backup, to: FilePath.split(store).folder + "/Restored.sqlite") }
        #expect(!error.isVerificationFailure && !error.isDestinationFailure)
        #expect(error.description.hasPrefix(backup + "/" + ExportManifest.fileName + ": externalData of Photo"), "\(error)")
    }

    /// The values moved out of their rows left their pages free in the store: a restored store
    /// was as large as one holding every value in its rows.
    @Test("the pages the values moved out leave are given back: the restored store holds no free page")
    func noFreePages() throws {
        let store = try ExternalBinaryVerbTests.makeStore("restore-external-pages", external: true)
        try keepOutside(photo: 3, of: store, in: ExternalBinaryVerbTests.fileName, bytes: [UInt8](repeating: 5, count: 200_000))
        let backup = try BackupJob(storePath: store, folder: FilePath.split(store).folder + "/backups").run().path
        let output = FilePath.split(store).folder + "/Restored.sqlite"
        _ = try restore(backup, to: output)
        let database = try SQLiteDatabase(path: output, mode: .readOnly)
        defer { try? database.close() }
        #expect(try database.scalarInteger("PRAGMA freelist_count") == 0)
        #expect(try #require(FileInfo.size(atPath: output)) < 100_000)
    }

    /// The sweep of a dead run's leftovers removed the files of the external data folder of its
    /// store through a symbolic link: another store's values, for a link made in the folder.
    @Test("a dead run's external data folder that is a symbolic link is removed itself, never followed")
    func sweepFollowsNoLink() throws {
        let (store, backup) = try backup()
        let output = FilePath.split(store).folder + "/Restored.sqlite"
        let leftover = OwnedTemporary.name(beside: output)
        try Data().write(to: URL(fileURLWithPath: leftover))
        let support = FilePath.split(ExternalDataFolder.path(besideStore: leftover)).folder
        let victim = FilePath.split(ExternalDataFolder.path(besideStore: store)).folder
        try FileManager.default.createSymbolicLink(atPath: support, withDestinationPath: victim)
        _ = try restore(backup, to: output)
        #expect(FileInfo.kind(atPath: support) == nil)
        #expect(try TestPaths.read(ExternalDataFolder.path(besideStore: store) + "/" + ExternalBinaryVerbTests.fileName) == [7, 8, 9])
    }

    /// A Photos store being built in a new folder, holding photo 1 with its image in its row.
    private static func photoBeingBuilt(_ label: String) throws -> (folder: String, output: String, writer: CoreDataStoreWriter) {
        let folder = try TestPaths.temporaryFolder(label)
        let output = folder + "/Photos.sqlite"
        let writer = try CoreDataStoreWriter.create(at: output, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                    versionIdentifiers: [""])
        let photos = try writer.inserter(for: "Photo")
        try photos.insert(photos.columns.map { $0.role == .attribute(entity: "Photo", name: "image") ? StoreValue(.binary([1, 2]), externallyStorable: true) : .null })
        return (folder, output, writer)
    }

    /// The folders made in the destination for the values' files were left, empty, when the
    /// store could not be renamed into place after them (the files were removed).
    @Test("a store not renamed into place takes its values' files and the folders made for them away with it")
    func placementUndone() throws {
        let (folder, output, writer) = try Self.photoBeingBuilt("restore-external-undone")
        #expect(try writer.keepOutside(["image": [1: ExternalBinaryVerbTests.fileName]], of: "Photo").isEmpty)
        // Another process puts a store there before the rename (which never replaces it).
        try Data([1]).write(to: URL(fileURLWithPath: output))
        #expect(throws: StoreWriterError.self) { try writer.finish(durable: false, replacing: false) }
        writer.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Photos.sqlite"])
    }

    /// A failure writing the first value's file (disk full) left the folders made for it beside
    /// the destination: only a value written had the folder removed. And it named the file built
    /// aside, gone when the run ended, where the writer's failures name the destination.
    @Test("a value's file that cannot be written leaves nothing beside the destination, and the failure names the destination's folder")
    func firstFileFails() throws {
        let (folder, output, writer) = try Self.photoBeingBuilt("restore-external-first-fails")
        // Something in the way of the file (as a full disk is): it cannot be written.
        let built = ExternalDataFolder.path(besideStore: writer.temporaryPath) + "/" + ExternalBinaryVerbTests.fileName
        try FileManager.default.createDirectory(atPath: built, withIntermediateDirectories: true)
        let error = try #require(throws: StoreWriterError.self) {
            try writer.keepOutside(["image": [1: ExternalBinaryVerbTests.fileName]], of: "Photo")
        }
        #expect(error.description.contains(ExternalDataFolder.path(besideStore: output) + "/" + ExternalBinaryVerbTests.fileName), "\(error)")
        writer.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
    }
}
