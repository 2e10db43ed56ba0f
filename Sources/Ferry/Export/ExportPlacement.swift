#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryFormats
import FoundationEssentials

/// Where an export's files are built and how they are put in place. Nothing is ever written
/// through a path that existed before the run: the files go into a fresh folder Ferry creates
/// (an `OwnedTemporary`, locked while the run lives, swept by the next export to the same
/// destination after a `kill -9`), each opened with `O_CREAT | O_EXCL | O_NOFOLLOW`.
///
/// - A new destination: the folder is built beside it (`DIR.ferry-<UUID>.tmp`) and renamed to it
///   at the end, never over a folder that appeared meanwhile.
/// - An existing folder: the files are built in `DIR/.ferry-<UUID>.tmp` and renamed into `DIR`
///   one by one, each over its namesake (a planted symbolic link is replaced, never followed);
///   the old `manifest.json` is removed first and the new one renamed last, so `DIR` holds a
///   manifest only when its files are complete (`ExportReplacement`: once begun, a signal waits
///   for its end, and the next export into `DIR` finishes one a crash stopped). The folder's lock
///   (`FolderLock`, on `.ferry-export.lock`) is held from the start to the end, so two exports
///   into it never mix their files: the second one is `.locked`. The files of the export the
///   folder held (those its old manifest names, still as it wrote them) that this one does not
///   write are removed: the folder holds one export, not the leftovers of another format. Other
///   files are left alone.
/// - A folder the caller already owns (a backup's `.incomplete-<UUID>`): written in place.
///
/// No file it renames into place or removes may be one of the run's inputs (the store exported
/// into its own folder under an export file's name): that is refused, and nothing is written.
///
/// A failure, or SIGINT/SIGTERM, removes the building folder with everything in it.
final class ExportPlacement {
    /// The destination folder, as the user named it less any trailing slash (`out/` is `out`:
    /// beside it is beside `out`, not inside it, where a dead run's building folder waits).
    let destination: String
    /// The folder the files are written into.
    let building: String
    private let owner: OwnedTemporary
    private let ownsFolder: Bool
    private let intoExisting: Bool
    /// The existing destination folder's lock, held until the files are in place.
    private var lock: FolderLock?
    /// The files created so far (removed from a folder the caller owns when the export fails).
    private var created: [String] = []
    /// The run's inputs, which no file put in place may be.
    private let inputs: [String]

    /// Prepares the building folder for `destination`; `owned` is a fresh folder the caller
    /// created and owns, written in place; `inputs` are the paths the run reads, `planned` the
    /// names of the files it will write (refused at once when one is an input, or the
    /// destination lies inside one).
    init(destination given: String, owned: OwnedTemporary?, inputs: [String], planned: [String]) throws(ExportError) {
        let destination = FilePath.withoutTrailingSlashes(given)
        self.destination = destination
        self.inputs = inputs
        if owned == nil, let (output, input) = PathOverlap.first(outputs: [destination] + planned.map { destination + "/" + $0 }, inputs: inputs) {
            throw .outputIsInput(output: output, input: input)
        }
        if let owned {
            owner = owned
            ownsFolder = false
            intoExisting = false
            building = owned.path
            return
        }
        guard !destination.isEmpty else { throw .invalidRequest("--out needs a folder name, not an empty one") }
        var info = stat()
        intoExisting = stat(destination, &info) == 0
        if intoExisting, (info.st_mode & S_IFMT) != S_IFDIR {
            throw .cannotWrite(path: destination, reason: "exists and is not a folder")
        }
        do {
            OwnedTemporary.sweep(beside: destination, kind: .folder)
            if intoExisting {
                lock = try FolderLock(folder: destination, fileName: FolderLock.exportFileName)
                // A replacement a crash stopped is finished before anything else is written; one
                // that cannot be stops this export, which would otherwise be undone by it later.
                var unfinished: (leftover: String, failure: ByteSinkError)?
                OwnedTemporary.sweep(folder: destination, kind: .folder, owner: { Self.buildingInside.matches($0) ? $0 : nil }) { leftover in
                    guard let replacement = ExportReplacement.leftover(in: leftover, destination: destination) else { return true }
                    do throws(ByteSinkError) { try replacement.finish() } catch {
                        unfinished = (leftover, error)
                        return false
                    }
                    return true
                }
                if let unfinished {
                    throw ExportError.cannotWrite(path: destination, reason: "an export stopped midway while it replaced the one there, and what "
                        + "it left in \(unfinished.leftover) cannot be put in place (\(unfinished.failure.description)); nothing was written")
                }
                owner = try OwnedTemporary.create(kind: .folder) { destination + "/" + Self.buildingInside.fresh() }
            } else {
                let parent = FilePath.split(destination).folder
                do { try FolderCreation.make(parent) } catch {
                    // A file on the way is named, beside the destination asked for.
                    throw ExportError.cannotWrite(path: destination, reason: "\(error.path) \(error.reason)")
                }
                owner = try OwnedTemporary.create(beside: destination, kind: .folder)
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw .writing(destination, error)
        }
        ownsFolder = true
        building = owner.path
    }

    /// The name of the folder an export into an existing folder is built in, inside it.
    private static let buildingInside = TemporaryName(prefix: ".ferry-", suffix: ".tmp")

    /// The path to create a file of the export at (registered, so that a signal removes it).
    func file(_ name: String) -> String {
        let path = building + "/" + name
        owner.registerFile(path)
        created.append(path)
        return path
    }

    /// Puts the finished files (the manifest last among `names`) in place.
    func complete(names: [String]) throws(ExportError) {
        guard ownsFolder else { return }
        if !intoExisting {
            do { try FilePath.rename(building, to: destination, replacing: false) } catch {
                if error.code == EEXIST { throw .cannotWrite(path: destination, reason: "it appeared while the export was written; nothing was written") }
                throw .writing(destination, error)
            }
            owner.release()
            return
        }
        let manifest = destination + "/" + ExportManifest.fileName
        let stale = Self.staleFiles(ofExportAt: manifest, besides: names)
        if let (output, input) = PathOverlap.first(outputs: (names + stale.map(\.name)).map { destination + "/" + $0 }, inputs: inputs) {
            throw .outputIsInput(output: output, input: input)
        }
        // A folder in a file's place would stop the replacement midway.
        for name in names where FileInfo.kind(atPath: destination + "/" + name) == .directory {
            throw .cannotWrite(path: destination + "/" + name, reason: "is a folder, where the export puts a file; nothing was written")
        }
        // An export need not be durable, but the old one's files go only once the new ones are on
        // disk; synced before signals wait, as nothing of the old export has gone yet.
        for name in names {
            do { try DiskSync.sync(building + "/" + name) } catch { throw .writing(building + "/" + name, error) }
        }
        try TemporaryFiles.deferringSignals { () throws(ExportError) in
            let replacement: ExportReplacement
            do {
                replacement = try ExportReplacement.begin(destination: destination, building: building, incoming: names, stale: stale)
            } catch {
                throw .writing(building, error)
            }
            // Begun, it is finished by this run or the next: the building folder is not removed.
            owner.release()
            do throws(ByteSinkError) { try replacement.finish() } catch {
                throw .cannotWrite(path: destination, reason: "\(error.description); the rest of the new export waits in \(building), "
                    + "and the next export into \(destination) puts it in place")
            }
            rmdir(building)
        }
        lock?.release()
    }

    /// The files the export whose manifest is at `path` wrote that this one does not write (`names`,
    /// compared without letter case: on a file system that ignores it, `item.json` is the
    /// `Item.json` just written) and that are still as it wrote them: plain file names, regular
    /// files (no link followed, no FIFO waited on) whose SHA-256 is the manifest's (a file edited
    /// since is the user's now). None when there is no manifest there or it cannot be read.
    private static func staleFiles(ofExportAt path: String, besides names: [String]) -> [ExportReplacement.StaleFile] {
        let folder = FilePath.split(path).folder
        guard let manifest = try? ManifestFile.read(inFolder: folder, strictly: false) else { return [] }
        let written = Set(names.map { $0.lowercased() })
        return manifest.entities.compactMap { entry in
            guard !entry.file.isEmpty, !entry.file.contains("/"), entry.file != ".", entry.file != "..",
                  !written.contains(entry.file.lowercased()) else { return nil }
            let file = ExportReplacement.StaleFile(name: entry.file, sha256: entry.sha256)
            return file.isUnchanged(in: folder) ? file : nil
        }
    }

    /// Removes what was built (the destination is as it was; a replacement that failed midway
    /// is left for the next export to finish); in a folder the caller owns, the files this export
    /// created.
    func abandon() {
        if ownsFolder {
            owner.remove()
            lock?.release()
        } else {
            for path in created { unlink(path) }
        }
        created.removeAll()
    }

    /// The error with the building folder's path replaced by the destination's.
    func naming(_ error: ExportError) -> ExportError {
        guard case .noRoom(let failure) = error, failure.path.hasPrefix(building) else { return error }
        return .noRoom(WriteFailure(cause: failure.cause, path: destination + failure.path.dropFirst(building.count)))
    }
}
