import FerryFormats
import FerryModel
import FoundationEssentials

/// Checks an export or backup folder against its manifest: every listed file is a regular file of
/// the folder (a plain name, no link, no FIFO: `BackupFolderFile`) with its SHA-256 and size, and,
/// when asked, holds as many records as the manifest says, counted by `ExportRecordTally`. Each
/// file is opened once, and its digest, its count and a restore's records are read from that one
/// descriptor (`CheckedBackup`): a file swapped between the check and the read is not read unchecked.
public enum ExportVerifier {
    /// Returns the manifest when everything matches.
    /// - Throws: `ExportError.verification` naming the first missing or altered file,
    ///   `ExportError.notABackupFile` the first that is not a regular file of the folder.
    @discardableResult
    public static func verify(folder: String, countRecords: Bool) throws(ExportError) -> ExportManifest {
        try check(folder: folder, countRecords: countRecords).manifest
    }

    /// Checks the folder as `verify`, and hands back each entity's file as it was opened for its
    /// check, at its first byte again, to read its records from (`CheckedBackup`).
    /// - Throws: as `verify`.
    static func check(folder given: String, countRecords: Bool) throws(ExportError) -> CheckedBackup {
        // `bk/` names the folder `bk`: its files are `bk/manifest.json`, not `bk//manifest.json`.
        let folder = FilePath.withoutTrailingSlashes(given)
        guard FileManager.default.fileExists(atPath: folder) else { throw .notAnExport(path: folder, reason: "no such folder") }
        if FileInfo.kind(atPath: FileInfo.linkTarget(of: folder)) != .directory {
            throw .notAnExport(path: folder, reason: "is a file, not a folder: this reads the folder an export or backup wrote (a store is given to export, backup or migrate)")
        }
        let manifestPath = folder + "/" + ExportManifest.fileName
        if FileInfo.kind(atPath: manifestPath) == nil {
            let backups = backups(in: folder)
            if let newest = backups.last {
                throw .notAnExport(path: folder, reason: "holds no manifest.json: it is a folder of backups, not one backup; give one of them, "
                    + "as \(folder)/\(newest) (the newest of \(backups.count))")
            }
        }
        let manifest = try ManifestFile.read(inFolder: folder)
        var files: [String: FileByteSource] = [:]
        for entry in manifest.entities {
            let file = try BackupFolderFile.open(entry, in: folder)
            // Each entity's file is named after it: a manifest that lists another entity's file
            // (two entries swapped) would restore one entity's records as the other's.
            let expected = manifest.format.fileName(for: entry.entity, gzip: manifest.gzip)
            guard entry.file == expected else {
                throw .verification(path: manifestPath, reason: "lists \"\(entry.file)\" for entity \(entry.entity), whose file an export names \"\(expected)\"")
            }
            let (digest, size) = try sha256(of: file)
            guard digest == entry.sha256, size == entry.bytes else {
                throw .verification(path: file.name, reason: "altered: SHA-256 \(digest) (\(size) bytes), the manifest says \(entry.sha256) (\(entry.bytes) bytes)")
            }
            if countRecords {
                let count: Int
                do {
                    try file.rewind()
                    count = try ExportRecordTally.count(file, format: manifest.format)
                } catch let error as ExportError {
                    throw error
                } catch {
                    throw .verification(path: file.name, reason: "unreadable: \(ErrorText.reason(of: error, at: file.name))")
                }
                guard count == entry.count else {
                    throw .verification(path: file.name, reason: "holds \(count) records, the manifest says \(entry.count)")
                }
            }
            do { try file.rewind() } catch {
                throw .verification(path: file.name, reason: "unreadable: \(ErrorText.reason(of: error, at: file.name))")
            }
            files[entry.entity] = file
        }
        return CheckedBackup(manifest: manifest, files: files)
    }

    /// SHA-256 (lowercase hex) and size of a file of the folder, streamed.
    private static func sha256(of file: FileByteSource) throws(ExportError) -> (String, Int) {
        do { return try FileDigest.sha256(reading: file) } catch {
            throw .verification(path: file.name, reason: "unreadable: \(ErrorText.reason(of: error, at: file.name))")
        }
    }

    /// The backups in a folder `ferry backup` wrote into (by their names, oldest first).
    private static func backups(in folder: String) -> [String] {
        FilePath.entries(of: folder).filter { BackupJob.isBackupName($0) && FileInfo.kind(atPath: folder + "/" + $0 + "/" + ExportManifest.fileName) != nil }
            .sorted(by: BackupJob.isOlder)
    }
}
