import FerryFormats
import FoundationEssentials

/// `--keep N`: removes the oldest backups of the same store beyond `keep`, counting the one just
/// made, which is never removed. Backups of other stores in the folder, and folders without a
/// readable manifest, are left alone.
///
/// A backup is of the same store when its manifest names the store's UUID and its file: stores
/// copied from one another (a seed store, two devices restored from one backup) share a UUID, and
/// one's backups removed the other's. The file is compared by `resolvedSource`, the store's path
/// from the root with its links resolved when it was backed up, never by the path as it was given
/// (`source`): a relative path means another file in each folder a scheduler runs from. A
/// manifest of an older version, which keeps only `source`, is compared by that path resolved now
/// when it is absolute; when it is relative, which store it names is not known, and the backup is
/// never removed (a warning says so when it would have been).
///
/// Each backup removed is first renamed to an `IncompleteBackup` name, which retention never
/// counts, so one whose removal fails midway is not left as a backup missing files: the next
/// backup into the folder removes what is left of it.
struct BackupRetention {
    /// The folder holding the backups.
    let folder: String
    /// Backups of the store to keep, the new one included.
    let keep: Int

    /// Removes the backups of the store of `made` (the new backup's folder, whose manifest is
    /// `manifest`) beyond `keep`; returns their paths, and the backups beyond it that were not
    /// removed, each with why.
    func prune(keeping made: String, manifest: ExportManifest) -> (removed: [String], notRemoved: [String]) {
        let madeName = FilePath.split(made).name
        let candidates: [(name: String, match: StoreMatch)] = FilePath.entries(of: folder).compactMap { name in
            guard name != madeName, BackupJob.isBackupName(name),
                  let old = try? ManifestFile.read(inFolder: folder + "/" + name) else { return nil }
            let match = StoreMatch(old, storeUUID: manifest.storeUUID, resolvedStore: manifest.resolvedSource)
            return match == .other ? nil : (name, match)
        }.sorted { BackupJob.isOlder($0.name, $1.name) }
        var removed: [String] = []
        var notRemoved: [String] = []
        for (name, match) in candidates.dropLast(keep - 1) {
            guard case .unknown(let why) = match else { continue }
            notRemoved.append("\(folder)/\(name): \(why); left as it is")
        }
        for (name, _) in candidates.filter({ $0.match == .same }).dropLast(keep - 1) {
            let path = folder + "/" + name
            if let foreign = Self.foreignFiles(in: path) {
                notRemoved.append("\(path): holds files no backup writes (\(foreign.prefix(3).joined(separator: ", "))\(foreign.count > 3 ? ", …" : "")); left as it is")
                continue
            }
            let leaving = folder + "/" + IncompleteBackup.name.fresh()
            do { try FilePath.rename(path, to: leaving, replacing: false) } catch {
                notRemoved.append("\(path): \(ErrorText.reason(of: error, at: path))")
                continue
            }
            removed.append(path)
            do { try FileManager.default.removeItem(atPath: leaving) } catch {
                notRemoved.append("\(path): \(ErrorText.reason(of: error, at: leaving)) (moved to \(leaving), which the next backup removes)")
            }
        }
        return (removed, notRemoved)
    }

    /// Whether an older backup is one of the store just backed up.
    enum StoreMatch: Equatable {
        case same
        case other
        /// Its store cannot be told for certain (why, for the warning).
        case unknown(String)

        /// How the backup with manifest `old` stands to the store of UUID `storeUUID` whose
        /// resolved path is `resolvedStore` (nil: it could not be resolved).
        init(_ old: ExportManifest, storeUUID: StoreUUID, resolvedStore: String?) {
            // The same UUID, spelled alike or not (an older Ferry wrote it in uppercase).
            guard old.storeUUID.names(sameStoreAs: storeUUID) else {
                self = .other
                return
            }
            guard let resolvedStore else {
                self = .unknown("the path of the store backed up now (\(storeUUID)) could not be resolved, so which backups are of it is not known")
                return
            }
            if let resolved = old.resolvedSource {
                self = resolved == resolvedStore ? .same : .other
            } else if old.source.hasPrefix("/") {
                // An older manifest's absolute path names the store that is there now; a path that
                // leads nowhere now names no store that is backed up now.
                self = FileInfo.resolvedPath(of: old.source) == resolvedStore ? .same : .other
            } else {
                self = .unknown("its manifest (written by \(old.tool)) names the store by a relative path, \(old.source), "
                    + "which may name a copy of this store (the same UUID) in another folder")
            }
        }
    }

    /// The names in the backup folder at `path` that its manifest does not name (nil when there
    /// are none): a folder holding anything else is not removed, even when it looks like a backup.
    private static func foreignFiles(in path: String) -> [String]? {
        guard let manifest = try? ManifestFile.read(inFolder: path) else { return nil }
        let own = Set(manifest.entities.map(\.file) + [ExportManifest.fileName, IncompleteBackup.finderFile])
        let foreign = FilePath.entries(of: path).filter { !own.contains($0) }.sorted()
        return foreign.isEmpty ? nil : foreign
    }
}
