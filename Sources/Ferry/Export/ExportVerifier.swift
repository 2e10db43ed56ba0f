import FerryFormats
import FerryModel
import FoundationEssentials

/// Checks an export or backup folder against its manifest: every listed file is a regular file of
/// the folder (a bare name, no link) with its SHA-256 and size, and, when asked, holds as many
/// records as the manifest says, counted by `ExportRecordTally`.
public enum ExportVerifier {
    /// Returns the manifest when everything matches.
    /// - Throws: `ExportError.verification` naming the first missing or altered file.
    @discardableResult
    public static func verify(folder: String, countRecords: Bool) throws(ExportError) -> ExportManifest {
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
        let manifest = try ManifestFile.read(from: manifestPath)
        for entry in manifest.entities {
            let path = folder + "/" + entry.file
            guard isBareName(entry.file) else {
                throw .verification(path: folder + "/" + ExportManifest.fileName,
                                    reason: "lists \"\(entry.file)\", which is not a file name inside the folder")
            }
            // Each entity's file is named after it: a manifest that lists another entity's file
            // (two entries swapped) would restore one entity's records as the other's.
            let expected = manifest.format.fileName(for: entry.entity, gzip: manifest.gzip)
            guard entry.file == expected else {
                throw .verification(path: folder + "/" + ExportManifest.fileName,
                                    reason: "lists \"\(entry.file)\" for entity \(entry.entity), whose file an export names \"\(expected)\"")
            }
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
                throw .verification(path: path, reason: "is a symbolic link; the files of a backup are regular files")
            }
            guard FileManager.default.fileExists(atPath: path) else {
                throw .verification(path: path, reason: "missing (the manifest lists it with \(entry.count) records)")
            }
            let (digest, size) = try sha256(of: path)
            guard digest == entry.sha256, size == entry.bytes else {
                throw .verification(path: path, reason: "altered: SHA-256 \(digest) (\(size) bytes), the manifest says \(entry.sha256) (\(entry.bytes) bytes)")
            }
            guard countRecords else { continue }
            let count: Int
            do { count = try ExportRecordTally.count(path: path, format: manifest.format) } catch {
                throw .verification(path: path, reason: "unreadable: \(ErrorText.reason(of: error, at: path))")
            }
            guard count == entry.count else {
                throw .verification(path: path, reason: "holds \(count) records, the manifest says \(entry.count)")
            }
        }
        return manifest
    }

    /// A name of a file directly inside the folder: no separator, not `.` or `..`.
    private static func isBareName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && name != "." && name != ".." && !name.contains("\0")
    }

    /// SHA-256 (lowercase hex) and size of a file, streamed.
    static func sha256(of path: String) throws(ExportError) -> (String, Int) {
        do { return try FileDigest.sha256(of: path) } catch {
            throw .verification(path: path, reason: "unreadable: \(ErrorText.reason(of: error, at: path))")
        }
    }

    /// The backups in a folder `ferry backup` wrote into (by their names, oldest first).
    private static func backups(in folder: String) -> [String] {
        FilePath.entries(of: folder).filter { BackupJob.isBackupName($0) && FileInfo.kind(atPath: folder + "/" + $0 + "/" + ExportManifest.fileName) != nil }
            .sorted(by: BackupJob.isOlder)
    }
}
