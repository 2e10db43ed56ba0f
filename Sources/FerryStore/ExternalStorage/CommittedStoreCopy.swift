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
///
/// The files are linked before the database is copied and again after it: a file the app
/// replaces meanwhile (Core Data deletes the old one once the new state is committed) is still
/// there for the state copied, and one it adds is there for a state copied after it. The links
/// live in the private scratch folder and go with it; a run killed by a signal leaves them to the
/// next run's sweep of dead scratch folders (the signal handler removes only what it registered).
public struct CommittedStoreCopy: Sendable {
    /// The copy.
    public let path: String
    /// The store's files as the copy was made, just before its database was copied (by the
    /// attempt kept, when another process's writes made it copy again): a job that reads the copy
    /// describes the store with them (`StoreReadState.files`), not with the copy's.
    public let sourceFiles: StoreFileFacts

    /// Makes the copy in `folder`. Only the store's regular files are brought beside it, and none
    /// when its folders are not real ones (which reading the store refuses).
    public static func make(of storePath: String, in folder: ScratchFolder, attempts: Int = 5) throws(SQLiteError) -> CommittedStoreCopy {
        let name = storePath.split(separator: "/").last.map(String.init) ?? "store.sqlite"
        let copy = folder.database(name.isEmpty ? "store.sqlite" : name)
        try bringExternalData(of: storePath, besideCopy: copy)
        let files = try SQLiteDatabase.copyCommittedState(of: storePath, to: copy, attempts: attempts) { () throws(SQLiteError) in
            do throws(WriteFailure) { return try StoreFileFacts(observing: storePath, stamp: StoreFileStamp.stamp(of: storePath)) } catch {
                throw SQLiteError(path: storePath, code: SQLITE_CANTOPEN, message: error.description, writeFailure: error)
            }
        }
        try bringExternalData(of: storePath, besideCopy: copy)
        return CommittedStoreCopy(path: copy, sourceFiles: files)
    }

    /// Links (or copies) each regular file of the store's external data folder that is not yet
    /// beside the copy.
    private static func bringExternalData(of storePath: String, besideCopy copy: String) throws(SQLiteError) {
        let source = ExternalDataFolder.path(besideStore: storePath)
        guard ExternalDataFolder.problem(besideStore: storePath) == nil, FileInfo.kind(atPath: source) == .directory else { return }
        let target = ExternalDataFolder.path(besideStore: copy)
        do {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: source) where FileInfo.kind(atPath: source + "/" + file) == .regularFile {
                guard link(source + "/" + file, target + "/" + file) != 0 else { continue }
                // Linked by the first pass, or removed by the app since: nothing to bring.
                if errno == EEXIST || errno == ENOENT { continue }
                try FileManager.default.copyItem(atPath: source + "/" + file, toPath: target + "/" + file)
            }
        } catch {
            // No room in the scratch folder's file system is the destination's, not the store's.
            throw SQLiteError(path: storePath, code: SQLITE_IOERR, message: "its values kept outside the database (\(source)) "
                              + "cannot be brought beside its copy: \(error)",
                              writeFailure: WriteFailure.diagnose(file: target + "/-", destination: target))
        }
    }
}
