import FerryFormats

/// The files of the destination's external data folder (`ExternalDataFolder`) that a store
/// replaced there named and the new store does not: Core Data removes a file when it saves the
/// change that lets go of its value, and never looks at one again that no row names, so the
/// replaced store's files stayed beside the new store for good (its old values' bytes on disk).
///
/// Only files the replaced store's rows named are removed: a file in the folder that no store
/// names (put there by another process, or a value of a save still being made) is not the
/// replaced store's to let go of, and stays. A file the new store names stays, whatever else
/// names it. The names are read (`ExternalFileReferences`) before the rename, from both stores
/// at rest; the files are removed only once the new store is in place, each as a regular file
/// of the real folders, never through a symbolic link (`ExternalDataFolder.remove`). One that
/// cannot be removed is left and said (`externalFileWarnings`): the store is in place either way.
extension CoreDataStoreWriter {
    /// The files the store at the destination names and the store built does not, sorted; empty
    /// when its folder holds no files, or is not a real folder. A store whose names cannot be read
    /// lets go of nothing, and says so.
    func filesLetGo() -> [String] {
        let folder = ExternalDataFolder.path(besideStore: path)
        guard ExternalDataFolder.problem(besideStore: path) == nil,
              FilePath.entries(of: folder).contains(where: { FileInfo.kind(atPath: folder + "/" + $0) == .regularFile }) else { return [] }
        do {
            let replaced = try ExternalFileReferences.names(inStoreAt: path)
            guard !replaced.isEmpty else { return [] }
            return replaced.subtracting(try ExternalFileReferences.names(inStoreAt: temporaryPath)).sorted()
        } catch {
            externalFileWarnings.append("\(folder): the files the replaced store named are left there (its names could not be read: \(error))")
            return []
        }
    }

    /// Removes `files` from the destination's external data folder, once the new store is in place.
    func removeLetGo(_ files: [String]) {
        let folder = ExternalDataFolder.path(besideStore: path)
        let left = files.filter { !ExternalDataFolder.remove(fileNamed: $0, besideStore: path) && FileInfo.kind(atPath: folder + "/" + $0) != nil }
        guard let first = left.first else { return }
        externalFileWarnings.append("\(folder): \(left.count) file(s) of the replaced store's values that the new store does not name "
            + "could not be removed, first \(first): remove them by hand (Core Data never will)")
    }
}
