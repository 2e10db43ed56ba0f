import FerryModel

/// Targets of model files: Xcode's XML and `NSKeyedArchiver` archives.
enum ModelTargets {
    static func xcodeModel(_ bytes: [UInt8]) {
        let path = ScratchFile.store(bytes, as: "contents")
        guard let model = try? XcodeModelLoader.loadModel(at: path) else { return }
        _ = VersionHasher.hashes(of: model)
        _ = try? ModelArchiveEncoder.encodeModel(model)
    }

    static func keyedArchive(_ bytes: [UInt8]) {
        if let model = try? ModelArchiveDecoder.decodeModel(archive: bytes, name: "Fuzz") {
            _ = VersionHasher.hashes(of: model)
        }
        _ = try? ModelArchiveDecoder.decodeModelCache(bytes, name: "Fuzz", limit: 16 << 20)
    }
}
