import FerryFormats

/// A folder of a backup folder that is no backup (yet, or any more): `.incomplete-<UUID>`, the
/// name a backup is written under until it is verified, and the name an old backup is given while
/// retention removes it. Retention never counts it, and the next backup into the folder removes
/// one whose run has ended (its lock is free), but only one a backup made: of that exact name, a
/// folder, holding nothing but files a backup writes. A user's `.incomplete-notes.txt`, or a
/// `.incomplete-drafts/` folder, is left alone.
enum IncompleteBackup {
    /// `.incomplete-<UUID>`.
    static let name = TemporaryName(prefix: ".incomplete-")

    /// Removes, in the backup folder `folder`, what dead runs left.
    static func sweep(folder: String) {
        OwnedTemporary.sweep(folder: folder, kind: .folder) { isLeftover($0, in: folder) ? $0 : nil }
    }

    /// Whether `entry` of `folder` is an incomplete backup: of `name`'s form, a folder (not a
    /// link to one), holding only regular files a backup writes.
    private static func isLeftover(_ entry: String, in folder: String) -> Bool {
        let path = folder + "/" + entry
        guard name.matches(entry), FileInfo.kind(atPath: path) == .directory else { return false }
        return FilePath.entries(of: path).allSatisfy { isBackupFile($0) && FileInfo.kind(atPath: path + "/" + $0) == .regularFile }
    }

    /// Whether `name` is a file a backup writes: its manifest, or an entity's file in a format an
    /// export writes, gzipped or not (`Task.ndjson.gz`); or Finder's `.DS_Store`, which retention
    /// removes with an old backup.
    static func isBackupFile(_ name: String) -> Bool {
        guard name != ExportManifest.fileName, name != finderFile else { return true }
        let plain = name.hasSuffix(".gz") ? String(name.dropLast(3)) : name
        return ExportFormat.allCases.contains { format in
            plain.hasSuffix("." + format.fileExtension) && plain.count > format.fileExtension.count + 1 && !plain.hasPrefix(".")
        }
    }

    /// The file Finder leaves wherever a folder is opened on a Mac.
    static let finderFile = ".DS_Store"
}
