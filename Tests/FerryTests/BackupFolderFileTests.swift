@testable import Ferry
import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// A restore read a backup folder's manifest through a symbolic link (to a file outside the
/// folder) and rebuilt whatever store that manifest described, exit 0; an entity's file that was
/// a FIFO blocked the restore for ever. Every file of a backup folder is now read only as its own
/// regular file (`BackupFolderFile`), anything else refused with its name, never followed.
@Suite("a backup folder is read only through its own regular files")
struct BackupFolderFileTests {
    /// What may stand in a backup folder in place of one of its files.
    enum Impostor: String, CaseIterable, CustomTestStringConvertible {
        case symbolicLink, fifo, folder
        var testDescription: String { rawValue }
    }

    /// A backup of the Workspace 2 store, its folder, and a folder beside it for files the
    /// impostors lead to.
    private func backup(_ label: String) throws -> (folder: String, backup: String, outside: String) {
        let folder = try TestPaths.temporaryFolder(label)
        let store = try ExportTestSupport.workspace2Store(folder)
        let backup = try BackupJob(storePath: store, folder: folder + "/backups").run().path
        let outside = folder + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        return (folder, backup, outside)
    }

    /// Puts `impostor` in place of the file `name` of `backup` (a link leads to the file itself,
    /// moved outside the folder, so that following it would restore as before).
    private func plant(_ impostor: Impostor, as name: String, in backup: String, outside: String) throws {
        let path = backup + "/" + name
        switch impostor {
        case .symbolicLink:
            try FileManager.default.moveItem(atPath: path, toPath: outside + "/" + name)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside + "/" + name)
        case .fifo:
            try FileManager.default.removeItem(atPath: path)
            #expect(mkfifo(path, 0o600) == 0)
        case .folder:
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
    }

    @Test("a manifest or an entity's file that is a symbolic link, a FIFO or a folder is refused, naming it, and nothing is restored",
          arguments: Impostor.allCases, [ExportManifest.fileName, "Upload.ndjson.gz"])
    func impostorRefused(_ impostor: Impostor, name: String) throws {
        let (folder, backup, outside) = try backup("backup-impostor")
        try plant(impostor, as: name, in: backup, outside: outside)
        let output = folder + "/R.sqlite"
        let error = try #require(throws: ExportError.self) {
            try RestoreJob(folder: backup, modelPath: ExportTestSupport.workspace, outputPath: output).run()
        }
        guard case .notABackupFile(let path, _) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(path == backup + "/" + name)
        #expect(!error.isVerificationFailure && !error.isDestinationFailure)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("ferry restore of a backup whose manifest is a symbolic link exits 3, naming it")
    func linkedManifestExitCode() throws {
        let (folder, backup, outside) = try backup("backup-linked-manifest")
        try plant(.symbolicLink, as: ExportManifest.fileName, in: backup, outside: outside)
        // Given with a trailing slash, as a shell completes a folder: named as the folder's file.
        let run = try FerryProcess.run(["restore", backup + "/", "--model", ExportTestSupport.workspace, "--out", folder + "/R.sqlite"])
        #expect(run.status == 3, "\(run.err)")
        #expect(run.err.contains(backup + "/manifest.json: is a symbolic link") && !run.err.contains("//"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/R.sqlite"))
    }

    /// Its message named `manifest.json` alone, not the backup's: it was found when the metadata
    /// was written into the store, far from where the manifest was read.
    @Test("a manifest whose applicationMetadata is no property list is refused when read, naming the backup's manifest")
    func unreadableApplicationMetadata() throws {
        let (folder, backup, _) = try backup("backup-bad-metadata")
        var manifest = try ManifestFile.read(inFolder: backup)
        manifest.applicationMetadata = "not base64"
        try FileManager.default.removeItem(atPath: backup + "/" + ExportManifest.fileName)
        try ManifestFile.write(manifest, to: backup + "/" + ExportManifest.fileName, durable: false)
        let run = try FerryProcess.run(["restore", backup, "--model", ExportTestSupport.workspace, "--out", folder + "/R.sqlite"])
        #expect(run.status == 3, "\(run.err)")
        #expect(run.err.contains(backup + "/manifest.json: applicationMetadata is not a base64 property list dictionary"), "\(run.err)")
    }
}
