/// Loads models compiled by Xcode's `momc`: a `.momd` folder (one `<version>.mom` keyed archive
/// per version and `VersionInfo.plist`) or a single `.mom` (modelcache-format.md §1).
///
/// Versions are named as `VersionInfo.plist` names them, the current one is the one it names, and
/// every version must reproduce the version hashes it records. `.omo` files (momc's "optimized"
/// form, magic `momv2$`) hold the same model again and are ignored.
///
/// A compiled version equals the `.xcdatamodel` it was compiled from except where the compiler
/// drops what Core Data does not use at run time: `customClassName` (not archived, even for
/// Transformable attributes) and `usesScalarValueType` (modelcache-format.md §4.4). Fetch indexes
/// the compiler synthesizes for indexed attributes are dropped again by the decoder.
enum CompiledModelLoader {
    /// Loads every version of a `.momd` folder.
    static func loadBundle(momd path: String) throws(ModelLoadError) -> ModelBundle {
        guard ModelFiles.isDirectory(path) else { throw .notAModel(path: path, reason: "a .momd is a folder") }
        let infoFile = ModelFiles.join(path, "VersionInfo.plist")
        guard ModelFiles.exists(infoFile) else { throw .notAModel(path: path, reason: "the folder has no VersionInfo.plist") }
        let info = try CompiledVersionInfo.read(ModelFiles.read(infoFile), file: infoFile)
        for entry in try ModelFiles.contents(ofDirectory: path) where entry.hasSuffix(".mom") {
            guard info.versionHashes[ModelFiles.baseName(entry)] != nil else {
                throw .inconsistent(file: infoFile, reason: "\(entry) is not one of its versions")
            }
        }
        var versions: [ManagedObjectModel] = []
        for name in info.versionHashes.keys {
            let file = ModelFiles.join(path, name + ".mom")
            guard ModelFiles.exists(file) else { throw .inconsistent(file: infoFile, reason: "version '\(name)' has no \(name).mom") }
            let model = try loadModel(mom: file, name: name)
            try info.check(model, file: file)
            versions.append(model)
        }
        let bundle = ModelBundle(name: ModelFiles.baseName(path), versions: versions, currentVersionName: info.currentVersionName)
        guard bundle.current != nil else {
            throw .inconsistent(file: infoFile, reason: "current version '\(info.currentVersionName)' is not one of its versions")
        }
        return bundle
    }

    /// Decodes one `.mom` file as the version `name`.
    static func loadModel(mom file: String, name: String) throws(ModelLoadError) -> ManagedObjectModel {
        let bytes = try ModelFiles.read(file)
        do { return try ModelArchiveDecoder.decodeModel(archive: bytes, name: name) } catch { throw .archive(file: file, error) }
    }

    /// Whether a file holds a compiled model rather than model XML: it is a binary property list.
    static func isCompiled(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("bplist".utf8))
    }
}
