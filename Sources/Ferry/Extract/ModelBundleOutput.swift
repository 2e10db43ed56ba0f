import FerryFormats
import FerryModel
import FoundationEssentials

/// An `.xcdatamodeld` bundle of one version that a job writes: built inside a folder the run owns
/// beside it (`Foo.xcdatamodeld.ferry-<UUID>.tmp`, an `OwnedTemporary`: removed on every error
/// path and on SIGINT, SIGTERM or SIGHUP, swept by the next run once its run is dead), loaded back
/// there, checked, and put in place only then (see `FolderPlacement`). Shared by
/// `ferry model extract` and `ferry model infer`.
struct ModelBundleOutput {
    /// The bundle's path, without trailing slashes.
    let path: String
    /// Its name without `.xcdatamodeld`: the version's name unless another is given.
    let bundleName: String

    /// Refuses a path that does not name an `.xcdatamodeld` bundle.
    init(path given: String) throws(ModelExtractError) {
        let path = FilePath.withoutTrailingSlashes(given)
        bundleName = String((path.split(separator: "/").last ?? "").dropLast(".xcdatamodeld".count))
        guard path.hasSuffix(".xcdatamodeld"), !bundleName.isEmpty else {
            throw .invalidRequest("--out must name an .xcdatamodeld bundle, not '\(given)'")
        }
        self.path = path
    }

    /// The version's name: `given`, or the bundle's name; refused when it cannot name a folder.
    func versionName(_ given: String?) throws(ModelExtractError) -> String {
        let version = given ?? bundleName
        do { try XcodeModelWriter.checkFileName(version) } catch { throw .invalidRequest("--name: \(error.description)") }
        return version
    }

    /// Writes `model` as the bundle's one, current version; `check` sees the model loaded back
    /// from the written files and throws to keep nothing.
    func write(_ model: ManagedObjectModel, replacing: Bool,
               check: (ManagedObjectModel) throws(ModelExtractError) -> Void) throws(ModelExtractError) {
        // A dead run's folder goes, once the bundle it had moved aside is back in place.
        OwnedTemporary.sweep(beside: path, kind: .folder) { FolderPlacement.restoreAside($0 + "/" + Self.asideName, at: path) }
        if FileManager.default.fileExists(atPath: path), !replacing { throw .destinationExists(path) }
        let bundle = ModelBundle(name: bundleName, versions: [model], currentVersionName: model.name)
        let owned: OwnedTemporary
        do { owned = try OwnedTemporary.create(beside: path, kind: .folder) } catch {
            throw .cannotWrite(path: path, reason: error.reason)
        }
        defer { owned.remove() }
        // The bundle inside keeps its name: the loader knows a bundle by its extension.
        let building = owned.path + "/" + bundleName + ".xcdatamodeld"
        let entries = XcodeModelWriter.bundleEntries(bundle, at: building)
        for folder in entries.folders { owned.registerFile(folder, kind: .folder) }
        for file in entries.files { owned.registerFile(file) }
        try check(try build(bundle, at: building))
        // Its folders' entries on disk (the files are, as written) before the old bundle goes: a
        // power loss then finds one whole bundle or the other.
        for folder in entries.folders {
            do { try DiskSync.syncFolder(folder) } catch { throw .cannotWrite(path: path, reason: error.reason) }
        }
        try TemporaryFiles.deferringSignals { () throws(ModelExtractError) in
            try FolderPlacement.place(building, at: path, replacing: replacing, aside: owned.path + "/" + Self.asideName)
            // Swapped, `building` holds the old bundle, or the link to one elsewhere that the path
            // was: nothing is unlinked through it by the new bundle's names; it goes as a whole,
            // no link followed, before a signal that came meanwhile ends the run.
            owned.forgetFiles(inside: building)
            owned.remove()
        }
    }

    /// Where, in the run's folder, the bundle it replaces waits while the new one is put in place
    /// (only where the file system cannot swap the two).
    private static let asideName = "replaced"

    /// Writes the bundle at `folder` and loads its version back from there.
    private func build(_ bundle: ModelBundle, at folder: String) throws(ModelExtractError) -> ManagedObjectModel {
        do {
            try XcodeModelWriter.writeBundle(bundle, to: folder)
        } catch {
            throw .cannotWrite(path: path, reason: ErrorText.reason(of: error, at: path))
        }
        let loaded: ModelBundle
        do { loaded = try XcodeModelLoader.loadBundle(at: folder) } catch {
            // Named inside the bundle: the folder it was built in is gone by the time it is read.
            throw .doesNotLoadBack(source: nil, reason: error.description.split(separator: folder + "/", omittingEmptySubsequences: false).joined())
        }
        guard loaded.currentVersionName == bundle.currentVersionName, let current = loaded.current else {
            throw .cannotWrite(path: path, reason: "the written bundle does not name \(bundle.currentVersionName) its current version")
        }
        return current
    }
}
