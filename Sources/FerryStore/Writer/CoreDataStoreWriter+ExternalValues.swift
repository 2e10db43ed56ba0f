#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryFormats

/// Values kept outside their rows, as Core Data keeps a value it moved out of the database
/// (`ExternalBinaryData`): a restore writes back those its backup names (`ExternalValueNames`)
/// into files of those names. The files are written into the external data folder beside the
/// store being built, where its checks read them, and placed into the destination's folder when
/// the store is renamed into place (`placeExternalFiles`), or removed with it: on every error
/// path, by a signal's cleanup (registered with the store's temporary file), and after a
/// `kill -9` by the next run's sweep of the store's leftovers (`removeBuiltExternalFiles(besideStore:)`).
extension CoreDataStoreWriter {
    /// Moves the value of each row of `entity` that `names` names (by attribute and `Z_PK`) out of
    /// its row, into the file of that name: the row then holds the reference
    /// (`ExternalBinaryData.reference`). A row that is not there (its record was not restored:
    /// rejected) has no value to keep. Several rows may name one file, as in a store whose rows
    /// share one (`ExternalFileRelease`): it is written once, and each row must hold its bytes.
    /// Freed pages are given back (the store's `auto_vacuum` is incremental), so the file is no
    /// larger than a store that never held the values in its rows.
    /// - Returns: each named value that cannot be kept outside as named, left as it is: its row
    ///   holds no value in it, or other bytes than another row that names the file.
    public func keepOutside(_ names: ExternalValueNames, of entity: String) throws(StoreWriterError) -> [UnkeptExternalValue] {
        guard !names.isEmpty else { return [] }
        guard let table = layout.table(forEntity: entity), let number = layout.entityNumbers[entity] else { throw .unknownEntity(entity) }
        try commit(flushing: false)
        try beginRow()
        let database = try openDatabase()
        var unkept: [UnkeptExternalValue] = []
        for (attribute, files) in names.sorted(by: { $0.key < $1.key }) {
            guard let owner = model.ancestry(of: entity).first(where: { $0.attribute(named: attribute)?.allowsExternalBinaryDataStorage == true }),
                  let column = table.column(for: .attribute(entity: owner.name, name: attribute)) else {
                unkept += files.keys.sorted().map { UnkeptExternalValue(attribute: attribute, primaryKey: $0, reason: .noValueInRow) }
                continue
            }
            // Two statements per attribute, run once per value it names.
            let quoted = SQLIdentifier.quoted(column.name), tableName = SQLIdentifier.quoted(table.name)
            let (row, update) = try StoreWriterError.sqlite { () throws(SQLiteError) in
                (try database.prepare("SELECT \(quoted) FROM \(tableName) WHERE Z_PK = ? AND Z_ENT = ?"),
                 try database.prepare("UPDATE \(tableName) SET \(quoted) = ? WHERE Z_PK = ?"))
            }
            defer {
                row.finalize()
                update.finalize()
            }
            for (primaryKey, file) in files.sorted(by: { $0.key < $1.key }) {
                // nil: no such row; .some(nil): a row whose column is NULL.
                let stored = try StoreWriterError.sqlite { () throws(SQLiteError) -> [UInt8]?? in
                    try row.bind(primaryKey, at: 1)
                    try row.bind(Int64(number), at: 2)
                    let found: [UInt8]?? = try row.step() ? .some(row.bytes(at: 0)) : nil
                    // Done reading before the row is updated.
                    try row.reset()
                    return found
                }
                guard let stored else { continue }
                guard let value = stored, case .inline(let bytes)? = try? ExternalBinaryData.decode(value) else {
                    unkept.append(UnkeptExternalValue(attribute: attribute, primaryKey: primaryKey, reason: .noValueInRow))
                    continue
                }
                if externalFiles.contains(file) {
                    guard (try? ExternalDataFolder.read(fileNamed: file, besideStore: temporaryPath)) == Array(bytes) else {
                        unkept.append(UnkeptExternalValue(attribute: attribute, primaryKey: primaryKey, reason: .fileNamedForOtherBytes(file)))
                        continue
                    }
                } else {
                    try writeExternalFile(named: file, bytes: Array(bytes))
                    externalFiles.insert(file)
                }
                try StoreWriterError.sqlite { () throws(SQLiteError) in
                    try update.bindBlob(ExternalBinaryData.reference(to: file), at: 1)
                    try update.bind(primaryKey, at: 2)
                    try update.run()
                    try update.reset()
                }
            }
        }
        try StoreWriterError.sqlite { () throws(SQLiteError) in try database.execute("PRAGMA incremental_vacuum") }
        return unkept
    }

    /// Writes a value's file beside the store being built (its folders made as needed, each
    /// registered for a signal's cleanup before it is made: the external data folder as a folder
    /// of files, emptied by listing it, as a store may keep thousands of values outside and the
    /// cleanup has room for a few hundred paths). A failure names the file in the
    /// destination's folder, as the writer's failures name the destination, not the file built
    /// aside (gone when the run ends).
    private func writeExternalFile(named file: String, bytes: [UInt8]) throws(StoreWriterError) {
        let folder = ExternalDataFolder.path(besideStore: temporaryPath)
        let path = folder + "/" + file
        temporary.registerFile(DurableFile.directory(of: folder), kind: .folder)
        temporary.registerFile(folder, kind: .folderOfFiles)
        do { try Self.makeExternalDataFolder(folder) } catch {
            guard case .fileSystem(_, let operation, let code) = error else { throw error }
            throw .fileSystem(path: ExternalDataFolder.path(besideStore: self.path), operation: operation, errno: code)
        }
        do {
            let sink = try FileByteSink(path: path, exclusive: true)
            try sink.write(bytes)
            try sink.close(sync: false)
        } catch {
            throw .fileSystem(path: ExternalDataFolder.path(besideStore: self.path) + "/" + file, operation: "write", errno: error.code)
        }
    }

    /// Makes the external data folder `folder` (`…/.NAME_SUPPORT/_EXTERNAL_DATA`) and the
    /// `_SUPPORT` folder it is in, where missing; returns those it made, outermost first.
    @discardableResult
    private static func makeExternalDataFolder(_ folder: String) throws(StoreWriterError) -> [String] {
        var made: [String] = []
        for path in [DurableFile.directory(of: folder), folder] {
            if mkdir(path, 0o755) == 0 {
                made.append(path)
            } else if errno != EEXIST {
                let code = errno
                made.reversed().forEach { rmdir($0) }
                throw .fileSystem(path: path, operation: "create the folder", errno: code)
            }
        }
        return made
    }

    /// Places the files `keepOutside` wrote into the destination's external data folder (made as
    /// needed), each under its name and synced, before the store is renamed into place; returns
    /// the paths placed, then the folders made (innermost first), to be removed again in that
    /// order if the store is not. A file of that name there
    /// already is kept when it holds the same bytes (the replaced store's value, which Core Data
    /// never rewrites under its name), and refused otherwise: replacing it would change the store
    /// still in place.
    func placeExternalFiles() throws(StoreWriterError) -> [String] {
        guard !externalFiles.isEmpty else { return [] }
        let built = ExternalDataFolder.path(besideStore: temporaryPath)
        let target = ExternalDataFolder.path(besideStore: path)
        if let problem = ExternalDataFolder.problem(besideStore: path) {
            throw .externalDataFolder(path: target, reason: "\(problem): the values kept outside the store are not placed there")
        }
        let made = try Self.makeExternalDataFolder(target)
        var placed: [String] = []
        do throws(StoreWriterError) {
            for file in externalFiles {
                let destination = target + "/" + file
                if FileInfo.kind(atPath: destination) != nil {
                    guard (try? ExternalDataFolder.read(fileNamed: file, besideStore: path)) == (try? ExternalDataFolder.read(fileNamed: file, besideStore: temporaryPath)) else {
                        throw .externalDataFolder(path: destination, reason: "holds other bytes than the value kept outside the store under that name")
                    }
                    continue
                }
                try DurableFile.sync(built + "/" + file)
                try DurableFile.place(built + "/" + file, at: destination, replacing: false)
                placed.append(destination)
            }
            try DurableFile.sync(target)
            // A folder made is on disk before the store that names its files is.
            for folder in made { try DurableFile.sync(DurableFile.directory(of: folder)) }
        } catch {
            Self.removePlaced(placed + made.reversed())
            throw error
        }
        return placed + made.reversed()
    }

    /// Removes what `placeExternalFiles` placed (files, then the folders it made), in that order.
    static func removePlaced(_ paths: [String]) {
        for path in paths where unlink(path) != 0 { rmdir(path) }
    }

    /// Removes the `_SUPPORT` folder beside `storePath`, a store a run built under a temporary
    /// name, and what it holds: nothing else writes there. A symbolic link there (a dead run's
    /// leftovers are anyone's to make) is removed itself, never followed.
    static func removeBuiltExternalFiles(besideStore storePath: String) {
        OwnedTemporary.removeTree(DurableFile.directory(of: ExternalDataFolder.path(besideStore: storePath)))
    }
}
