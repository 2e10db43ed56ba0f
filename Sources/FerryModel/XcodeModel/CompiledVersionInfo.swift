import FerryFormats

/// `VersionInfo.plist` of a compiled `.momd` (coredata-format.md §9): which version is current,
/// and the entity version hashes (and, from newer momc, checksums) Apple's compiler computed for
/// every version, which a loaded version must reproduce.
struct CompiledVersionInfo {
    /// `NSManagedObjectModel_CurrentVersionName`.
    var currentVersionName: String
    /// `NSManagedObjectModel_VersionHashes`: version name → entity name → 32-byte hash.
    var versionHashes: [String: [String: [UInt8]]]
    /// `NSManagedObjectModel_VersionChecksums`: version name → base64 checksum (absent before Xcode 9).
    var checksums: [String: String]

    /// Reads the plist at `file` (XML or binary).
    static func read(_ bytes: [UInt8], file: String) throws(ModelLoadError) -> CompiledVersionInfo {
        let plist: PropertyListValue
        do { plist = try PropertyList.decode(bytes) } catch { throw .notAModel(path: file, reason: "\(error)") }
        guard case .dictionary(let root) = plist else { throw .notAModel(path: file, reason: "the root is not a dictionary") }
        guard case .string(let current)? = root["NSManagedObjectModel_CurrentVersionName"] else {
            throw .notAModel(path: file, reason: "NSManagedObjectModel_CurrentVersionName is missing or not a string")
        }
        guard case .dictionary(let versions)? = root["NSManagedObjectModel_VersionHashes"] else {
            throw .notAModel(path: file, reason: "NSManagedObjectModel_VersionHashes is missing or not a dictionary")
        }
        var hashes: [String: [String: [UInt8]]] = [:]
        for (version, value) in versions {
            guard case .dictionary(let entities) = value else {
                throw .notAModel(path: file, reason: "the hashes of version '\(version)' are not a dictionary")
            }
            var byEntity: [String: [UInt8]] = [:]
            for (entity, hash) in entities {
                guard case .data(let bytes) = hash else {
                    throw .notAModel(path: file, reason: "the hash of '\(version)'.'\(entity)' is not data")
                }
                byEntity[entity] = bytes
            }
            hashes[version] = byEntity
        }
        var checksums: [String: String] = [:]
        if case .dictionary(let listed)? = root["NSManagedObjectModel_VersionChecksums"] {
            for (version, value) in listed {
                guard case .string(let text) = value else {
                    throw .notAModel(path: file, reason: "the checksum of version '\(version)' is not a string")
                }
                checksums[version] = text
            }
        }
        return CompiledVersionInfo(currentVersionName: current, versionHashes: hashes, checksums: checksums)
    }

    /// Fails unless `model` (the version named `model.name`) has exactly the hashes and checksum
    /// momc recorded for it: Ferry writes stores with the hashes it computes, so a model it cannot
    /// reproduce would give stores the app does not open as this version.
    func check(_ model: ManagedObjectModel, file: String) throws(ModelLoadError) {
        guard let expected = versionHashes[model.name] else {
            throw .inconsistent(file: file, reason: "VersionInfo.plist has no hashes for version '\(model.name)'")
        }
        let computed = VersionHasher.hashes(of: model)
        if let entity = computed.differingEntities(from: expected).first {
            throw .inconsistent(file: file, reason: expected[entity] == nil
                ? "entity '\(entity)' is not in VersionInfo.plist's hashes of '\(model.name)'"
                : computed.entityHashes[entity] == nil
                    ? "VersionInfo.plist lists entity '\(entity)', which '\(model.name)' does not have"
                    : "the version hash of entity '\(entity)' differs from VersionInfo.plist's")
        }
        if let checksum = checksums[model.name], checksum != computed.base64Checksum {
            throw .inconsistent(file: file, reason: "the version checksum of '\(model.name)' differs from VersionInfo.plist's")
        }
    }
}
