import FerryFormats

/// Loads Core Data models, the one place every verb loads them: as Xcode writes them (a
/// versioned `.xcdatamodeld` bundle, a single `.xcdatamodel` folder, or its `contents` XML file)
/// and as Xcode compiles them (a `.momd` folder, a single `.mom`; see `CompiledModelLoader`).
public enum XcodeModelLoader {
    /// Loads any model path as a bundle. A lone `.xcdatamodel` or `.mom` becomes a bundle of one version.
    public static func loadBundle(at path: String) throws(ModelLoadError) -> ModelBundle {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        if trimmed.hasSuffix(".xcdatamodeld") {
            return try loadVersionedBundle(at: trimmed)
        }
        if trimmed.hasSuffix(".momd") {
            return try CompiledModelLoader.loadBundle(momd: trimmed)
        }
        let model = try loadModel(at: trimmed)
        return ModelBundle(name: model.name, versions: [model], currentVersionName: model.name)
    }

    /// Loads one model version from an `.xcdatamodel` folder, a `contents` file or a compiled `.mom`.
    public static func loadModel(at path: String) throws(ModelLoadError) -> ManagedObjectModel {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        if ModelFiles.isDirectory(trimmed) {
            let contents = ModelFiles.join(trimmed, "contents")
            guard ModelFiles.exists(contents) else {
                if ModelFiles.exists(ModelFiles.join(trimmed, "elements")) { throw .xcode3Format(path: trimmed) }
                // A folder that holds models (`Migrations/`) was meant as one of them.
                let models = ((try? ModelFiles.contents(ofDirectory: trimmed)) ?? [])
                    .filter { [".xcdatamodeld", ".xcdatamodel", ".momd", ".mom"].contains(where: $0.hasSuffix) }.sorted()
                throw .notAModel(path: trimmed, reason: "the folder has no 'contents' file"
                    + (models.isEmpty ? "" : "; it holds \(models.map { "'\($0)'" }.joined(separator: ", ")): give one of them as --model"))
            }
            return try ModelXMLParser.parse(try modelXML(ModelFiles.read(contents), file: contents), file: contents, versionName: ModelFiles.baseName(trimmed))
        }
        guard ModelFiles.exists(trimmed) else { throw .unreadable(path: trimmed, reason: "no such file") }
        let bytes = try ModelFiles.read(trimmed)
        if CompiledModelLoader.isCompiled(bytes) {
            return try CompiledModelLoader.loadModel(mom: trimmed, name: ModelFiles.baseName(trimmed))
        }
        let parent = trimmed.split(separator: "/").dropLast().last.map(String.init) ?? ""
        let versionName = parent.hasSuffix(".xcdatamodel") ? ModelFiles.baseName(parent) : ModelFiles.baseName(trimmed)
        return try ModelXMLParser.parse(try modelXML(bytes, file: trimmed), file: trimmed, versionName: versionName)
    }

    /// `bytes` when they may be a model's XML, which starts with '<' (after white space, or a
    /// byte order mark): another file (a CSV, an image, a store) given as the model, or as a
    /// model's `contents`, is named as such, not as malformed XML.
    private static func modelXML(_ bytes: [UInt8], file: String) throws(ModelLoadError) -> [UInt8] {
        guard let first = bytes.drop(while: { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }).first, first == UInt8(ascii: "<") else {
            throw .notAModel(path: file, reason: "neither a model's XML nor a compiled .mom (give a .xcdatamodeld or .momd bundle, "
                + "an .xcdatamodel folder, its 'contents' file, or a .mom)")
        }
        return bytes
    }

    private static func loadVersionedBundle(at path: String) throws(ModelLoadError) -> ModelBundle {
        guard ModelFiles.exists(path) else { throw .unreadable(path: path, reason: "no such file or folder") }
        guard ModelFiles.isDirectory(path) else { throw .notAModel(path: path, reason: "a .xcdatamodeld bundle is a folder, and this is a file") }
        var versions: [ManagedObjectModel] = []
        for entry in try ModelFiles.contents(ofDirectory: path) where entry.hasSuffix(".xcdatamodel") {
            versions.append(try loadModel(at: ModelFiles.join(path, entry)))
        }
        guard !versions.isEmpty else { throw .notAModel(path: path, reason: "the bundle holds no .xcdatamodel version") }
        let bundle = ModelBundle(name: ModelFiles.baseName(path), versions: versions, currentVersionName: "")
        let currentFile = ModelFiles.join(path, CurrentVersionFile.fileName)
        let named = ModelFiles.exists(currentFile) ? try CurrentVersionFile.versionName(ModelFiles.read(currentFile), file: currentFile) : nil
        if let named {
            guard bundle.version(named: named) != nil else {
                throw .inconsistent(file: currentFile, reason: "current version '\(named)' is not in the bundle")
            }
            return ModelBundle(name: bundle.name, versions: versions, currentVersionName: named)
        }
        // Xcode treats a bundle without a named current version as current = its newest version.
        return ModelBundle(name: bundle.name, versions: versions, currentVersionName: bundle.versions.last?.name ?? "")
    }
}
