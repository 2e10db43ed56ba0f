import FerryFormats
import FoundationEssentials

/// The version hashes of one model version, as Core Data computes them and stores them in a
/// store's metadata (`NSStoreModelVersionHashes`, `…Digest`, `…ChecksumKey`).
public struct VersionHashes: Sendable, Equatable {
    /// Entity name → 32-byte SHA-256 entity hash.
    public var entityHashes: [String: [UInt8]]
    /// 64-byte SHA-512 over every entity's name and hash (`NSStoreModelVersionHashesDigest`).
    public var digest: [UInt8]
    /// 32-byte SHA-256 over every entity hash (`NSStoreModelVersionChecksumKey`, momc's `versionChecksum`).
    public var checksum: [UInt8]

    public init(entityHashes: [String: [UInt8]], digest: [UInt8], checksum: [UInt8]) {
        self.entityHashes = entityHashes
        self.digest = digest
        self.checksum = checksum
    }

    /// The entity hash in base64, as Core Data shows it.
    public func base64Hash(of entity: String) -> String? {
        entityHashes[entity].map { PropertyListBase64.text($0) }
    }

    public var base64Digest: String { PropertyListBase64.text(digest) }
    public var base64Checksum: String { PropertyListBase64.text(checksum) }

    /// Entity names whose hashes differ between two sets, or that only one set has, in name order.
    public func differingEntities(from other: [String: [UInt8]]) -> [String] {
        Set(entityHashes.keys).union(other.keys).filter { entityHashes[$0] != other[$0] }.sorted()
    }
}
