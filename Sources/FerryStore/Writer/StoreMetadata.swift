import FerryFormats
import FoundationEssentials

/// What a store's `Z_METADATA` row says (coredata-format.md §2): the store UUID (in `Z_UUID`)
/// and the metadata plist (in `Z_PLIST`).
public struct StoreMetadata: Sendable, Equatable {
    /// The `NSPersistenceFrameworkVersion` written by default: the newest one seen in the corpus.
    public static let defaultFrameworkVersion = 1344
    /// `NSStoreModelVersionHashesVersion`; 3 in every store seen.
    public static let hashesVersion = 3
    /// `_NSAutoVacuumLevel`, a string; matches `PRAGMA auto_vacuum=2`.
    public static let autoVacuumLevel = "2"

    /// `Z_UUID`, written as it is spelled.
    public var storeUUID: StoreUUID
    /// Entity name → 32-byte version hash, for every entity of the model.
    public var versionHashes: [String: [UInt8]]
    /// The model's `userDefinedModelVersionIdentifier`s (may be `[]` or `[""]`).
    public var versionIdentifiers: [String]
    /// `NSStoreModelVersionHashesDigest` (64 bytes, written base64); omitted when nil.
    public var hashesDigest: [UInt8]?
    /// `NSStoreModelVersionChecksumKey` (32 bytes, written base64); omitted when nil.
    public var checksum: [UInt8]?
    public var frameworkVersion: Int
    /// Keys of the application's own (`NSPersistentStoreCoordinator.setMetadata`), kept beside
    /// Core Data's; a key Core Data writes itself is never taken from here.
    public var additionalEntries: [String: PropertyListValue] = [:]

    /// The keys Core Data writes into every store's metadata itself (those `propertyList` writes,
    /// the store UUID, the newest framework that opened the store): everything else is the
    /// application's (`StoreMetadataInfo.applicationEntries`).
    public static let frameworkKeys: Set<String> = [
        "NSStoreType", "NSPersistenceFrameworkVersion", "NSPersistenceMaximumFrameworkVersion", "NSStoreModelVersionHashes",
        "NSStoreModelVersionHashesVersion", "NSStoreModelVersionIdentifiers", "NSStoreModelVersionHashesDigest",
        "NSStoreModelVersionChecksumKey", "NSStoreUUID", "_NSAutoVacuumLevel",
    ]

    public init(storeUUID: StoreUUID = StoreUUID(), versionHashes: [String: [UInt8]], versionIdentifiers: [String],
                hashesDigest: [UInt8]? = nil, checksum: [UInt8]? = nil,
                frameworkVersion: Int = StoreMetadata.defaultFrameworkVersion) {
        self.storeUUID = storeUUID
        self.versionHashes = versionHashes
        self.versionIdentifiers = versionIdentifiers
        self.hashesDigest = hashesDigest
        self.checksum = checksum
        self.frameworkVersion = frameworkVersion
    }

    /// The `Z_PLIST` dictionary.
    public var propertyList: PropertyListValue {
        var dictionary: [String: PropertyListValue] = [
            "NSStoreType": .string("SQLite"),
            "NSPersistenceFrameworkVersion": .integer(Int128(frameworkVersion)),
            "NSStoreModelVersionHashes": .dictionary(versionHashes.mapValues { .data($0) }),
            "NSStoreModelVersionHashesVersion": .integer(Int128(Self.hashesVersion)),
            "NSStoreModelVersionIdentifiers": .array(versionIdentifiers.map { .string($0) }),
            "_NSAutoVacuumLevel": .string(Self.autoVacuumLevel),
        ]
        if let hashesDigest {
            dictionary["NSStoreModelVersionHashesDigest"] = .string(PropertyListBase64.text(hashesDigest))
        }
        if let checksum {
            dictionary["NSStoreModelVersionChecksumKey"] = .string(PropertyListBase64.text(checksum))
        }
        dictionary.merge(additionalEntries) { coreData, _ in coreData }
        return .dictionary(dictionary)
    }
}
