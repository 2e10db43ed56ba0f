import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// Core Data removes the file of a value it kept outside the database when it saves the delete
/// of its object, or a new value in its place. `ferry delete` and `ferry update` left those files
/// in the store's external data folder: the bytes of deleted objects stayed on disk. Now the files
/// they let go of are removed after the change commits, unless another row still names them.
@Suite("external data files of deleted and replaced values")
struct ExternalFileReleaseTests {
    private static let fileName = ExternalBinaryVerbTests.fileName

    /// The store of `ExternalBinaryVerbTests` with photo 3's image in a file, and the file's path.
    private func store(_ label: String) throws -> (store: String, file: String) {
        let store = try ExternalBinaryVerbTests.makeStore(label, external: true)
        let file = ExternalDataFolder.path(besideStore: store) + "/" + Self.fileName
        #expect(FileManager.default.fileExists(atPath: file))
        return (store, file)
    }

    @Test("delete removes the file of a deleted object's value after the commit; --dry-run only counts it")
    func deleteRemovesFile() throws {
        let (store, file) = try store("release-delete")
        let dry = try FerryProcess.run(["delete", store, "--entity", "Photo", "--where", "number == 3", "--dry-run"])
        #expect(dry.status == 0 && dry.out.contains("external data files of their values that would be removed: 1"), "\(dry.out)\(dry.err)")
        #expect(FileManager.default.fileExists(atPath: file))
        let run = try FerryProcess.run(["delete", store, "--entity", "Photo", "--where", "number == 3"])
        #expect(run.status == 0 && run.out.contains("external data files of their values removed: 1 of 1"), "\(run.out)\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try storeRows(store, "SELECT ZNUMBER FROM ZPHOTO ORDER BY ZNUMBER") == ["1", "2"])
        #expect(try FerryProcess.run(["verify", store]).status == 0)
    }

    /// A reference stored as text (the reader reads such a value as its bytes, so as the file)
    /// was not counted, and the file another object still read was removed.
    @Test("a file another row still names stays until the last row naming it goes", arguments: ["blob", "text"])
    func sharedFileStays(storage: String) throws {
        let (store, file) = try store("release-shared")
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        let value = storage == "blob" ? "ZIMAGE" : "CAST(ZIMAGE AS TEXT)"
        try database.execute("UPDATE ZPHOTO SET ZIMAGE = (SELECT \(value) FROM ZPHOTO WHERE ZNUMBER = 3) WHERE ZNUMBER = 2")
        try database.close()
        var run = try FerryProcess.run(["delete", store, "--entity", "Photo", "--where", "number == 3"])
        #expect(run.status == 0 && run.out.contains("removed: 0 of 1"), "\(run.out)\(run.err)")
        #expect(FileManager.default.fileExists(atPath: file))
        run = try FerryProcess.run(["delete", store, "--entity", "Photo", "--where", "number == 2"])
        #expect(run.status == 0 && run.out.contains("removed: 1 of 1"), "\(run.out)\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test("update removes the file of the value it replaces")
    func updateRemovesFile() throws {
        let (store, file) = try store("release-update")
        let run = try FerryProcess.run(["update", store, "--entity", "Photo", "--where", "number == 3", "--set", "image=AQID"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try storeRows(store, "SELECT hex(ZIMAGE) FROM ZPHOTO WHERE ZNUMBER = 3") == ["01010203"])
    }
}

extension ExternalFileReleaseTests {
    /// The removal followed a symbolic link in place of the `_EXTERNAL_DATA` folder: `delete` and
    /// `update` unlinked files wherever it pointed, with exit 0, where `query` refuses to read it.
    @Test("a symbolic link in place of the external data folder refuses delete and update (exit 3); nothing outside the store is removed",
          arguments: [["delete", "--where", "number == 3"], ["update", "--where", "number == 3", "--set", "image=AQID"]])
    func linkedFolderRefused(change: [String]) throws {
        let (store, file) = try store("release-linked")
        let folder = ExternalDataFolder.path(besideStore: store)
        let elsewhere = try TestPaths.temporaryFolder("release-elsewhere")
        try FileManager.default.moveItem(atPath: file, toPath: elsewhere + "/" + Self.fileName)
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: elsewhere)
        let run = try FerryProcess.run([change[0], store, "--entity", "Photo"] + change.dropFirst())
        #expect(run.status == 3, "\(run.out)\(run.err)")
        #expect(run.err.contains("_EXTERNAL_DATA is a symbolic link, not a folder of the store"), "\(run.err)")
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/" + Self.fileName))
        #expect(try storeRows(store, "SELECT count(*) FROM ZPHOTO") == ["3"])
    }

    @Test("a file is removed only through real folders, and only a regular file")
    func removalStaysInsideTheStore() throws {
        let (store, file) = try store("release-remove")
        let folder = ExternalDataFolder.path(besideStore: store)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: file)
        #expect(!ExternalDataFolder.remove(fileNamed: "link", besideStore: store))
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(ExternalDataFolder.remove(fileNamed: Self.fileName, besideStore: store))
        #expect(!FileManager.default.fileExists(atPath: file))
        let elsewhere = try TestPaths.temporaryFolder("release-remove-elsewhere")
        #expect(FileManager.default.createFile(atPath: elsewhere + "/kept", contents: Data("kept".utf8)))
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: elsewhere)
        #expect(!ExternalDataFolder.remove(fileNamed: "kept", besideStore: store))
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/kept"))
    }
}
