import FoundationEssentials

/// Loads a Core Data mapping model: an Xcode `.xcmappingmodel` folder or its `xcmapping.xml`
/// (compiled here as Apple's mapping compiler compiles it, `MappingModelCompiler`), or a compiled
/// `.cdm` (any binary property list: XcodeServer ships them as `.cdm_precompiled`).
public enum MappingModelLoader {
    /// The file name extensions of mapping models found beside a model.
    public static let extensions = [".xcmappingmodel", ".cdm"]

    public static func load(at path: String) throws(MappingModelLoadError) -> CoreDataMappingModel {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) else {
            throw .unreadable(path: trimmed, reason: "no such file")
        }
        let file = isDirectory ? trimmed + "/xcmapping.xml" : trimmed
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) } catch {
            throw .unreadable(path: file, reason: FileManager.default.fileExists(atPath: file) ? "\(error)" : "no such file")
        }
        if bytes.starts(with: Array("bplist".utf8)) { return try CompiledMappingModelDecoder.decode(bytes, path: trimmed) }
        // A written mapping given where a mapping model is taken was "malformed XML".
        if !isDirectory, trimmed.lowercased().hasSuffix(".mapping") || bytes.starts(with: Array("mapping ".utf8)) {
            throw .notAMappingModel(path: trimmed, reason: "it is a written mapping, which is read from beside the model "
                + "when named \"<version> to <version>.mapping\" (ferry plan shows it)")
        }
        return try MappingModelCompiler.compile(XcodeMappingDocument(bytes: bytes, file: file), path: trimmed)
    }
}
