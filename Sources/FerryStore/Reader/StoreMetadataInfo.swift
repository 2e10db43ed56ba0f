import FerryFormats
import FoundationEssentials

/// What a store's `Z_METADATA` row says, as read (coredata-format.md §2). Keys Ferry does not
/// interpret stay available in `propertyList`.
public struct StoreMetadataInfo: Sendable, Equatable {
    /// `Z_UUID`, as it is spelled.
    public var storeUUID: StoreUUID
    /// `NSStoreType` (`SQLite`).
    public var storeType: String?
    /// `NSPersistenceFrameworkVersion`.
    public var frameworkVersion: Int?
    /// `NSStoreModelVersionHashes`: entity name → version hash.
    public var versionHashes: [String: [UInt8]]
    /// `NSStoreModelVersionHashesVersion`.
    public var hashesVersion: Int?
    /// `NSStoreModelVersionIdentifiers` (may be `[]` or `[""]`).
    public var versionIdentifiers: [String]
    /// `NSStoreModelVersionHashesDigest` (written as base64 text), decoded; fw ≥ 1044.
    public var hashesDigest: [UInt8]?
    /// `NSStoreModelVersionChecksumKey` (base64 text), decoded; fw ≥ 1333.
    public var checksum: [UInt8]?
    /// The whole `Z_PLIST` dictionary.
    public var propertyList: [String: PropertyListValue]

    /// The application's own keys (`NSPersistentStoreCoordinator.setMetadata`): every key but
    /// those Core Data writes itself (`StoreMetadata.frameworkKeys`).
    public var applicationEntries: [String: PropertyListValue] {
        propertyList.filter { !StoreMetadata.frameworkKeys.contains($0.key) }
    }

    /// Interprets the `Z_UUID` text and the `Z_PLIST` bytes; `path` is for errors.
    init(uuidText: String?, plist: [UInt8]?, path: String) throws(StoreReaderError) {
        guard let uuidText, let uuid = StoreUUID(uuidText) else {
            throw .invalidMetadata(path: path, reason: "Z_UUID \(uuidText.map { "\"\($0)\"" } ?? "NULL") is not a UUID")
        }
        // A NULL plist (seen in a copy of Apple Notes' store) holds no keys: the store is still
        // read, its model from Z_MODELCACHE, with no version hashes to match.
        let decoded: PropertyListValue
        do { decoded = try plist.map { bytes throws(PropertyListError) in try PropertyList.decode(bytes) } ?? .dictionary([:]) } catch {
            throw .invalidMetadata(path: path, reason: "Z_PLIST: \(error)")
        }
        guard case .dictionary(let dictionary) = decoded else {
            throw .invalidMetadata(path: path, reason: "Z_PLIST is not a dictionary")
        }
        let fields = MetadataFields(dictionary: dictionary, path: path)
        storeUUID = uuid
        propertyList = dictionary
        storeType = try fields.string("NSStoreType")
        frameworkVersion = try fields.integer("NSPersistenceFrameworkVersion")
        hashesVersion = try fields.integer("NSStoreModelVersionHashesVersion")
        versionHashes = try fields.dataDictionary("NSStoreModelVersionHashes")
        versionIdentifiers = try fields.strings("NSStoreModelVersionIdentifiers")
        hashesDigest = try fields.base64("NSStoreModelVersionHashesDigest")
        checksum = try fields.base64("NSStoreModelVersionChecksumKey")
    }
}

/// Typed access to the metadata plist's keys; a key of the wrong type is an error naming it.
private struct MetadataFields {
    let dictionary: [String: PropertyListValue]
    let path: String

    func string(_ key: String) throws(StoreReaderError) -> String? {
        switch dictionary[key] {
        case nil: return nil
        case .string(let text): return text
        default: throw wrongType(key, "a string")
        }
    }

    func integer(_ key: String) throws(StoreReaderError) -> Int? {
        switch dictionary[key] {
        case nil: return nil
        case .integer(let number): guard let value = Int(exactly: number) else { throw wrongType(key, "an Int") }
            return value
        default: throw wrongType(key, "an integer")
        }
    }

    func strings(_ key: String) throws(StoreReaderError) -> [String] {
        switch dictionary[key] {
        case nil: return []
        case .array(let items):
            var result: [String] = []
            for item in items {
                guard case .string(let text) = item else { throw wrongType(key, "an array of strings") }
                result.append(text)
            }
            return result
        default: throw wrongType(key, "an array")
        }
    }

    func dataDictionary(_ key: String) throws(StoreReaderError) -> [String: [UInt8]] {
        switch dictionary[key] {
        case nil: return [:]
        case .dictionary(let entries):
            var result: [String: [UInt8]] = [:]
            for (name, value) in entries {
                guard case .data(let bytes) = value else { throw wrongType("\(key).\(name)", "data") }
                result[name] = bytes
            }
            return result
        default: throw wrongType(key, "a dictionary")
        }
    }

    /// Base64 text (what Core Data writes) or raw data.
    func base64(_ key: String) throws(StoreReaderError) -> [UInt8]? {
        switch dictionary[key] {
        case nil: return nil
        case .data(let bytes): return bytes
        case .string(let text):
            guard let data = Data(base64Encoded: text) else { throw wrongType(key, "base64 text") }
            return [UInt8](data)
        default: throw wrongType(key, "base64 text")
        }
    }

    private func wrongType(_ key: String, _ expected: String) -> StoreReaderError {
        .invalidMetadata(path: path, reason: "\(key) is not \(expected)")
    }
}
