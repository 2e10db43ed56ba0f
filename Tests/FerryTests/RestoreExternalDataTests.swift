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
}
