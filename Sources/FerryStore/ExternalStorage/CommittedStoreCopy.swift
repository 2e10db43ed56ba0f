#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite
import FerryFormats
import FoundationEssentials

/// A copy of one committed state of a Core Data store, for a job that reads a store another
/// process keeps writing (verify, export, backup): the database through SQLite's online backup
/// (`SQLiteDatabase.copyCommittedState`), under the store's own file name, and the values Core
/// Data keeps outside the database (`ExternalDataFolder`) in the folder beside the copy, each file
/// hard-linked (copied when the scratch folder is on another file system). Without them, every
/// value kept outside read as a missing file in the copy, and a sound store failed its check.
public enum CommittedStoreCopy {
    /// Makes the copy in `folder`; returns its path. Only the store's regular files are brought
    /// beside it, and none when its folders are not real ones (which reading the store refuses).
    public static func make(of storePath: String, in folder: ScratchFolder, attempts: Int = 5) throws(SQLiteError) -> String {
        let name = storePath.split(separator: "/").last.map(String.init) ?? "store.sqlite"
        let copy = folder.database(name.isEmpty ? "store.sqlite" : name)
        try SQLiteDatabase.copyCommittedState(of: storePath, to: copy, attempts: attempts)
        try bringExternalData(of: storePath, besideCopy: copy)
        return copy
    }

    private static func bringExternalData(of storePath: String, besideCopy copy: String) throws(SQLiteError) {
        let source = ExternalDataFolder.path(besideStore: storePath)
        guard ExternalDataFolder.problem(besideStore: storePath) == nil, FileInfo.kind(atPath: source) == .directory else { return }
        let target = ExternalDataFolder.path(besideStore: copy)
        do {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: source) where FileInfo.kind(atPath: source + "/" + file) == .regularFile {
                guard link(source + "/" + file, target + "/" + file) != 0 else { continue }
                // Removed by the app since the copy was made: a value of no committed state left.
                if errno == ENOENT { continue }
                try FileManager.default.copyItem(atPath: source + "/" + file, toPath: target + "/" + file)
            }
        } catch {
            throw SQLiteError(path: storePath, code: SQLITE_IOERR, message: "its values kept outside the database (\(source)) "
                              + "cannot be brought beside its copy: \(error)")
        }
    }
}
